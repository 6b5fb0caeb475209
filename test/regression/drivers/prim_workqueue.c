// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// Workqueues and tasklets: the work function registered with
// INIT_DELAYED_WORK (a function in WHOOP's kernel model) and the tasklet
// function are entry points. The work function finds the driver's state
// around its work item (container_of): the models register the work item,
// so the harness may pass it, and the race with the file operation on
// 'pending' is found. cancel_delayed_work_sync waits for the work function
// in the kernel; crace's model does not wait, which can only add races.
// RUN: %crace --driver --list-entry-points %s -- -I %S/Inputs | %FileCheck --check-prefix=LIST %s
// LIST-DAG: entry point dev_work [entry]: INIT_DELAYED_WORK() callback at prim_workqueue.c:{{[0-9]+}}
// LIST-DAG: entry point dev_tasklet [entry]: tasklet_init() callback at prim_workqueue.c:{{[0-9]+}}
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck --check-prefix=KNOWN %s
// KNOWN: crace: verdict: possible-race
// KNOWN-NOT: unknown external function
// expected-verdict: possible-race
#include "subsys.h"
struct dev_state {
  int pending;
  int locked_count;
  struct delayed_work dwork;
};
static struct dev_state *st;
static struct mutex lock;
static struct workqueue_struct *wq;
static struct tasklet_struct tl;
static int ticks;
static void dev_work(struct work_struct *w) {
  struct dev_state *s = container_of(w, struct dev_state, dwork.work);
  s->pending = 0;                          // expected-race
  mutex_lock(&lock);
  s->locked_count++;
  mutex_unlock(&lock);
}
static void dev_tasklet(unsigned long data) {
  ticks++;                                 // expected-race
}
static ssize_t f_write(struct file *f, const char __user *u, size_t n,
                       loff_t *p) {
  mutex_lock(&lock);
  st->pending = 1;                         // expected-race
  st->locked_count = 0;
  mutex_unlock(&lock);
  queue_delayed_work(wq, &st->dwork, 10);
  tasklet_schedule(&tl);
  return n;
}
static const struct file_operations fops = {.write = f_write};
static int init(void) {
  st = kzalloc(sizeof *st, GFP_KERNEL);
  if (!st)
    return -12;
  mutex_init(&lock);
  wq = alloc_ordered_workqueue("dev", 0);
  if (!wq)
    return -12;
  INIT_DELAYED_WORK(&st->dwork, dev_work);
  tasklet_init(&tl, dev_tasklet, 0);
  return 0;
}
static void cleanup(void) {
  cancel_delayed_work_sync(&st->dwork);
  tasklet_kill(&tl);
  destroy_workqueue(wq);
  kfree(st);
}
module_init(init);
module_exit(cleanup);
