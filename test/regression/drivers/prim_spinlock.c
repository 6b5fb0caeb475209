// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// spin_lock, spin_lock_irqsave, spin_lock_irq and spin_lock_bh all protect
// 'a' with one lock; 'b' is written outside it.
// expected-verdict: possible-race
#include "kernel.h"
static spinlock_t lock;
static int a, b;
static long f_ioctl(struct file *f, unsigned cmd, unsigned long arg) {
  unsigned long flags = 0;
  spin_lock_irqsave(&lock, flags);
  a++;
  spin_unlock_irqrestore(&lock, flags);
  b = 1;                                   // expected-race
  return 0;
}
static ssize_t f_read(struct file *f, char __user *u, size_t n, loff_t *p) {
  spin_lock(&lock);
  int r = a;
  spin_unlock(&lock);
  spin_lock_irq(&lock);
  a = r;
  spin_unlock_irq(&lock);
  return r;
}
static int irq(int n, void *dev) {
  spin_lock_bh(&lock);
  a = 0;
  spin_unlock_bh(&lock);
  return 1;
}
static const struct file_operations fops = {.unlocked_ioctl = f_ioctl,
                                            .read = f_read};
static int init(void) {
  spin_lock_init(&lock);
  return request_irq(3, irq, 0, "x", NULL);
}
module_init(init);
