// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// Every access to the shared state is under one mutex: race-free, with the
// harness assumptions printed.
// RUN: %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck %s
// CHECK: crace: verdict: race-free
// CHECK: driver harness: the entry points dev_read, dev_write run concurrently, 2 instances each
// CHECK: harness constraint init-exit: dev_init run first, in this order; dev_exit run last
// expected-verdict: race-free
#include "kernel.h"
static int status;
static char buffer[64];
static struct mutex lock;
static ssize_t dev_read(struct file *f, char __user *buf, size_t n, loff_t *pos) {
  ssize_t r = 0;
  mutex_lock(&lock);
  if (copy_to_user(buf, buffer, sizeof buffer))
    r = -EFAULT;
  else
    r = status;
  mutex_unlock(&lock);
  return r;
}
static ssize_t dev_write(struct file *f, const char __user *buf, size_t n,
                         loff_t *pos) {
  mutex_lock(&lock);
  if (copy_from_user(buffer, buf, sizeof buffer)) {
    mutex_unlock(&lock);
    return -EFAULT;
  }
  status = (int)n;
  mutex_unlock(&lock);
  return n;
}
static const struct file_operations fops = {.read = dev_read, .write = dev_write};
static int dev_init(void) {
  mutex_init(&lock);
  status = 0;                              // before every entry point
  return misc_register((void *)&fops);
}
static void dev_exit(void) {
  status = -1;                             // after every entry point
  misc_deregister((void *)&fops);
}
module_init(dev_init);
module_exit(dev_exit);
