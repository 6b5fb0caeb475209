// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// An RCU read-side section does not exclude the updater: the plain read of
// 'config' races with the update under the spinlock.
// expected-verdict: possible-race
#include "kernel.h"
static spinlock_t lock;
static int config;
static ssize_t f_read(struct file *f, char __user *u, size_t n, loff_t *p) {
  rcu_read_lock();
  int c = config;                          // expected-race
  rcu_read_unlock();
  return c;
}
static ssize_t f_write(struct file *f, const char __user *u, size_t n, loff_t *p) {
  spin_lock(&lock);
  config = (int)n;                         // expected-race
  spin_unlock(&lock);
  return n;
}
static const struct file_operations fops = {.read = f_read, .write = f_write};
