// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// Readers under read_lock/down_read and writers under write_lock/down_write
// do not race; a write under a read lock races with itself.
// expected-verdict: possible-race
#include "kernel.h"
static rwlock_t rw;
static struct rw_semaphore sem;
static int a, b, c;
static ssize_t f_read(struct file *f, char __user *u, size_t n, loff_t *p) {
  read_lock(&rw);
  int r = a;
  b = r;                                   // expected-race
  read_unlock(&rw);
  down_read(&sem);
  r += c;
  up_read(&sem);
  return r;
}
static ssize_t f_write(struct file *f, const char __user *u, size_t n, loff_t *p) {
  write_lock(&rw);
  a = (int)n;
  write_unlock(&rw);
  down_write(&sem);
  c = (int)n;
  up_write(&sem);
  return n;
}
static const struct file_operations fops = {.read = f_read, .write = f_write};
