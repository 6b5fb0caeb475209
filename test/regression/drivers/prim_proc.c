// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// create_proc_read_entry: the read_proc callback is an entry point and
// races with the file operation on 'value'.
// RUN: %crace --driver --list-entry-points %s -- -I %S/Inputs | %FileCheck --check-prefix=LIST %s
// LIST: entry point dev_read_proc [entry]: create_proc_read_entry() callback at prim_proc.c:{{[0-9]+}}
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck --check-prefix=KNOWN %s
// KNOWN: crace: verdict: possible-race
// KNOWN-NOT: unknown external function
// expected-verdict: possible-race
#include "subsys.h"
static int value;
static int dev_read_proc(char *page, char **start, long off, int count,
                         int *eof, void *data) {
  return value;                            // expected-race
}
static ssize_t f_write(struct file *f, const char __user *u, size_t n,
                       loff_t *p) {
  value = (int)n;                          // expected-race
  return n;
}
static const struct file_operations fops = {.write = f_write};
static int init(void) {
  if (!create_proc_read_entry("driver/dev", 0, NULL, dev_read_proc, NULL))
    return -12;
  return 0;
}
module_init(init);
