// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// One entry point races with itself (two concurrent calls of write), on the
// file object the kernel passes both calls (the paper's nvram_llseek).
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck %s
// CHECK: possible data race on 'kernel object <struct file>.f_pos' ({{read|write}} by thread 'entry point dev_llseek' / {{read|write}} by thread 'entry point dev_llseek')
// expected-verdict: possible-race
#include "kernel.h"
static loff_t dev_llseek(struct file *file, loff_t offset, int origin) {
  if (origin == 1)
    offset += file->f_pos;                 // expected-race
  file->f_pos = offset;                    // expected-race
  return offset;
}
static const struct file_operations fops = {.llseek = dev_llseek};
