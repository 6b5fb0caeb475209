// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// A kernel semaphore used as a mutex: up() may come from any thread, so the
// lockset engine draws no protection from it (sound, imprecise).
// expected-verdict: possible-race
#include "kernel.h"
static struct semaphore sem;
static int a;
static ssize_t f_write(struct file *f, const char __user *u, size_t n, loff_t *p) {
  down(&sem);
  a++;                                     // expected-race
  up(&sem);
  return n;
}
static const struct file_operations fops = {.write = f_write};
static int init(void) {
  sema_init(&sem, 1);
  return 0;
}
module_init(init);
