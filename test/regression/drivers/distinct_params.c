// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// WHOOP's non-aliasing assumption for entry-point parameters
// (--distinct-params, off by default). By default the two concurrent calls
// of llseek get the same struct file and race on f_pos; with the option
// each call gets its own file, the race is gone and the (unsound in
// general) assumption is printed. The driver's own state is still shared:
// the race on it stays.
// RUN: %not %crace --driver --engine=lockset --distinct-params %s -- -I %S/Inputs | %FileCheck --check-prefix=ON %s
// ON-NOT: f_pos
// ON: possible data race on 'dev_state'
// ON-NOT: f_pos
// ON: crace: verdict: possible-race
// RUN: %not %crace --driver --engine=whoop --distinct-params %s -- -I %S/Inputs | %FileCheck --check-prefix=ON %s
// RUN: %crace --driver --engine=lockset --distinct-params --list-entry-points %s -- -I %S/Inputs | %FileCheck --check-prefix=LIST %s
// LIST: distinct-params on
// LIST: assumption: --distinct-params (WHOOP's non-aliasing assumption, not sound in general)
// expected-verdict: possible-race
#include "kernel.h"
static int dev_state;
static loff_t dev_llseek(struct file *file, loff_t offset, int origin) {
  if (origin == 1)
    offset += file->f_pos;                 // expected-race
  file->f_pos = offset;                    // expected-race
  dev_state++;                             // expected-race
  return offset;
}
static const struct file_operations fops = {.llseek = dev_llseek};
static int dev_init(void) { return misc_register((void *)&fops); }
module_init(dev_init);
