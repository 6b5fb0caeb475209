// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck %s
// ndo_open unlocks a mutex through a pointer of unknown origin (returned by
// an unmodelled function). That unlock may release any lock a pointer can
// reach, but not the harness's RTNL lock, whose address never leaves
// crace's own code: ndo_open and ndo_stop stay serialised and do not race
// on 'counter'. (The unmodelled call keeps the verdict unknown.)
// CHECK-NOT: possible data race
// CHECK: crace: verdict: unknown
// CHECK: call to unknown external function 'unmodelled_lookup'
#include "kernel.h"
struct priv { struct mutex m; int x; };
struct priv *unmodelled_lookup(void);
static int counter;
static int dev_open(struct net_device *dev) {
  struct priv *p = unmodelled_lookup();
  mutex_lock(&p->m);
  mutex_unlock(&p->m);
  counter++;
  return 0;
}
static int dev_stop(struct net_device *dev) {
  counter++;
  return 0;
}
static const struct net_device_ops ops = {.ndo_open = dev_open, .ndo_stop = dev_stop};
static int dev_init(void) { return 0; }
module_init(dev_init);
