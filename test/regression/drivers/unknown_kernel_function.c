// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck %s
// A kernel function crace does not model is reported, and race freedom is
// not claimed even though every access is locked.
// CHECK: crace: verdict: unknown
// CHECK: call to unknown external function 'hw_reset_board'
#include "kernel.h"
void hw_reset_board(int how);
static int state;
static struct mutex lock;
static long f_ioctl(struct file *f, unsigned cmd, unsigned long arg) {
  mutex_lock(&lock);
  state = (int)cmd;
  hw_reset_board(state);
  mutex_unlock(&lock);
  return 0;
}
static const struct file_operations fops = {.unlocked_ioctl = f_ioctl};
