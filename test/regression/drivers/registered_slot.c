// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// A work function's parameter may be a work item the driver registered
// (schedule_work), so container_of reaches the driver's structure and the
// race on 'pending' is found. Work items have a registration slot of their
// own (REGISTERED_SLOT in OpsTable.def): the parameter is never the
// miscdevice the driver registered, so the work function's write at the
// work item's offset in its container does not "race" with the file
// operation's write to the miscdevice's field at that offset (crace once
// passed every registered object to such parameters).
// RUN: %not %crace --group=none --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck %s
// CHECK-NOT: 'misc{{\[\*\]}}'
// CHECK: possible data race on 'struct dev_state.pending in the heap object allocated at {{.*}}registered_slot.c:{{[0-9:]+}}' (write by thread 'entry point dev_work' / write by thread 'entry point f_write')
// CHECK-NOT: 'misc{{\[\*\]}}'
// expected-verdict: possible-race
#include "subsys.h"
struct dev_state {
  int pending;
  struct work_struct work;
};
struct my_misc { int minor; int flags; };
static struct my_misc misc;
static struct dev_state *st;
static void dev_work(struct work_struct *w) {
  struct dev_state *s = container_of(w, struct dev_state, work);
  s->pending = 0;                          // expected-race
}
static ssize_t f_write(struct file *f, const char __user *u, size_t n,
                       loff_t *p) {
  st->pending = 1;                         // expected-race
  misc.minor = (int)n;                     // expected-race
  schedule_work(&st->work);
  return n;
}
static const struct file_operations fops = {.write = f_write};
static int dev_init(void) {
  st = kzalloc(sizeof *st, GFP_KERNEL);
  if (!st)
    return -12;
  INIT_WORK(&st->work, dev_work);
  return misc_register(&misc);
}
module_init(dev_init);
