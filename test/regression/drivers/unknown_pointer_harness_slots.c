// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck %s
// A write through a pointer of unknown origin may hit any memory a pointer
// can reach (here the driver's 'status', whose address the driver hands
// out), but not the harness's own slots (__crace_obj_N,
// __crace_registered): their addresses never leave crace's code, and the
// harness writes them before the entry points start.
// CHECK-NOT: __crace_
// CHECK: possible data race on 'status'
// CHECK-NOT: __crace_
// CHECK: crace: verdict: possible-race
#include "kernel.h"
int *unmodelled_pointer(int **hint);
static int *status_ptr;
static int status;
static ssize_t dev_read(struct file *f, char __user *buf, size_t n, loff_t *pos) {
  status_ptr = &status;
  return status;
}
static ssize_t dev_write(struct file *f, const char __user *buf, size_t n,
                         loff_t *pos) {
  *unmodelled_pointer(&status_ptr) = (int)n;
  return n;
}
static const struct file_operations fops = {.read = dev_read, .write = dev_write};
static int dev_init(void) { return misc_register((void *)&fops); }
module_init(dev_init);
