// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// atomic_t operations and atomic bitops never race; the plain counter does.
// expected-verdict: possible-race
#include "kernel.h"
static atomic_t users;
static unsigned long flags;
static int plain;
static int f_open(struct inode *i, struct file *f) {
  if (test_and_set_bit(0, &flags))
    return -1;
  atomic_inc(&users);
  plain++;                                 // expected-race
  return 0;
}
static int f_release(struct inode *i, struct file *f) {
  clear_bit(0, &flags);
  if (atomic_dec_and_test(&users))
    set_bit(1, &flags);
  return test_bit(1, &flags) + atomic_read(&users);
}
static const struct file_operations fops = {.open = f_open, .release = f_release};
static int init(void) {
  atomic_set(&users, 0);
  return 0;
}
module_init(init);
