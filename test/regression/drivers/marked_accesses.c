// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// RUN: %crace --driver --verify --engine=explore --all-races %s -- -I %S/Inputs
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck %s
// The kernel's marked accesses as KCSAN treats them, where the driver's
// headers do not define them (models/linux/include/crace_marked.h):
// READ_ONCE against WRITE_ONCE is no race; a plain read against WRITE_ONCE
// is one; data_race() marks an intended race, which is suppressed.
// CHECK: 1 finding was suppressed as an intended race:
// CHECK-SAME: 1 by data_race() at {{.*}}marked_accesses.c:[[@LINE+13]]
// expected-verdict: possible-race
// expected-verdict(explore): race
#include "kernel.h"
static int flag, plain, hits;
static ssize_t dev_read(struct file *f, char __user *buf, size_t n,
                        loff_t *pos) {
  return READ_ONCE(flag) + plain;          // expected-race
}
static ssize_t dev_write(struct file *f, const char __user *buf, size_t n,
                         loff_t *pos) {
  WRITE_ONCE(flag, (int)n);
  WRITE_ONCE(plain, 2);                    // expected-race
  data_race(hits++);
  return n;
}
static const struct file_operations fops = {.read = dev_read,
                                            .write = dev_write};
static int dev_init(void) { return misc_register((void *)&fops); }
static void dev_exit(void) { misc_deregister((void *)&fops); }
module_init(dev_init);
module_exit(dev_exit);
