// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// local_irq_save/local_irq_disable sections exclude each other under the
// (printed) uniprocessor assumption; --no-irq-lock drops it.
// RUN: %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck %s
// CHECK: local_irq_disable()/local_irq_save() sections exclude each other
// RUN: %not %crace --driver --engine=lockset --no-irq-lock %s -- -I %S/Inputs | %FileCheck --check-prefix=OFF %s
// OFF: possible data race on 'ticks'
// expected-verdict: race-free
#include "kernel.h"
static int ticks;
static int irq(int n, void *dev) {
  local_irq_disable();
  ticks++;
  local_irq_enable();
  return 1;
}
static ssize_t f_read(struct file *f, char __user *u, size_t n, loff_t *p) {
  unsigned long flags = 0;
  local_irq_save(flags);
  int t = ticks;
  local_irq_restore(flags);
  return t;
}
static const struct file_operations fops = {.read = f_read};
static int init(void) { return request_irq(1, irq, 0, "i", NULL); }
module_init(init);
