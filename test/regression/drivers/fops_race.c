// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// file_operations entry points found in the ops structure; read and write
// race on a driver global, the protected counter does not.
// The WHOOP paper's report style (--format=whoop):
// RUN: %not %crace --driver --engine=whoop --format=whoop %s -- -I %S/Inputs | %FileCheck --check-prefix=WHOOP %s
// WHOOP: fops_race.c: error: potential read-write race on 'status': read by entry point dev_read, {{.*}}fops_race.c:[[@LINE+8]]:11 / write by entry point dev_write, {{.*}}fops_race.c:[[@LINE+13]]:10
// WHOOP: crace: verdict: possible-race
// expected-verdict: possible-race
#include "kernel.h"
static int status;
static int opens;
static struct mutex lock;
static ssize_t dev_read(struct file *f, char __user *buf, size_t n, loff_t *pos) {
  int s = status;                          // expected-race
  return s;
}
static ssize_t dev_write(struct file *f, const char __user *buf, size_t n,
                         loff_t *pos) {
  status = (int)n;                         // expected-race
  return n;
}
static int dev_open(struct inode *i, struct file *f) {
  mutex_lock(&lock);
  opens++;
  mutex_unlock(&lock);
  return 0;
}
static const struct file_operations fops = {
    .read = dev_read, .write = dev_write, .open = dev_open};
static int dev_init(void) {
  mutex_init(&lock);
  return misc_register((void *)&fops);
}
static void dev_exit(void) { misc_deregister((void *)&fops); }
module_init(dev_init);
module_exit(dev_exit);
