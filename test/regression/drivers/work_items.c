// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// Deferred callbacks are entry points too, however they are registered:
//  * INIT_WORK as WHOOP's kernel headers define it, a macro that drops the
//    function (crace reads the macro's arguments while preprocessing);
//  * a work item defined statically (DECLARE_WORK: a work_struct global);
//  * a timer defined statically (DEFINE_TIMER: a timer_list global).
// Each races with the write entry point on 'state'.
// RUN: %crace --driver --list-entry-points %s -- -I %S/Inputs | %FileCheck --check-prefix=LIST %s
// LIST-DAG: entry point dev_work [entry]: INIT_WORK() at work_items.c:{{[0-9]+}}
// LIST-DAG: entry point static_work [entry]: work_struct.func in 'sw'
// LIST-DAG: entry point dev_tick [entry]: timer_list.function in 'tick'
// A work function given by an expression cannot be run: no race freedom.
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs -DINDIRECT | %FileCheck --check-prefix=INDIRECT %s
// INDIRECT: driver mode: the callback registered by INIT_WORK at work_items.c:{{[0-9]+}} is not a function defined in the driver, so it is not run as an entry point
// expected-verdict: possible-race
#include "kernel.h"
struct work_struct { void (*func)(struct work_struct *); };
#define INIT_WORK(_work, _func) 1;
#define DECLARE_WORK(n, f) struct work_struct n = {.func = (f)}
#define DEFINE_TIMER(_name, _function, _expires, _data)                        \
  struct timer_list _name = {.function = (_function)}
static int state;
static struct work_struct w;
static void dev_work(struct work_struct *work) {
  state = 1;                               // expected-race
}
static void static_work(struct work_struct *work) {
  state = 2;                               // expected-race
}
static void dev_tick(unsigned long data) {
  state = 3;                               // expected-race
}
static DECLARE_WORK(sw, static_work);
static DEFINE_TIMER(tick, dev_tick, 0, 0);
static ssize_t dev_write(struct file *f, const char __user *buf, size_t n,
                         loff_t *pos) {
  state = (int)n;                          // expected-race
  return n;
}
static const struct file_operations fops = {.write = dev_write};
static int dev_init(void) {
#ifdef INDIRECT
  void (*fns[1])(struct work_struct *) = {dev_work};
  INIT_WORK(&w, fns[0]);
#else
  INIT_WORK(&w, dev_work);
#endif
  return misc_register((void *)&fops);
}
module_init(dev_init);
