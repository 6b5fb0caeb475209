// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// A kernel semaphore used as a mutex: up() may come from any thread, but
// here every up() is by the thread that did down(), the semaphore starts at
// 1 (sema_init in module_init, before any entry point runs) and no code
// outside the driver can reach it: the lockset engine counts it as a lock.
// expected-verdict: race-free
#include "kernel.h"
static struct semaphore sem;
static int a;
static ssize_t f_write(struct file *f, const char __user *u, size_t n, loff_t *p) {
  down(&sem);
  a++;
  up(&sem);
  return n;
}
static const struct file_operations fops = {.write = f_write};
static int init(void) {
  sema_init(&sem, 1);
  return 0;
}
module_init(init);
