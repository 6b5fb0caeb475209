// RUN: %crace --entry=via_kernel,via_driver --verify --engine=lockset %s -- -I %S/Inputs
// A kernel object's pointer field of a registered type (net_device here,
// like a block_device's bd_disk) may point to the object the driver
// registered, not only to the kernel's object of that type: the write
// through h->dev races with the driver's own write to the device it
// registered. (crace once wired such fields to the kernel's object only, and
// missed this race.)
// RUN: %not %crace --group=none --entry=via_kernel,via_driver --engine=lockset %s -- -I %S/Inputs | %FileCheck --check-prefix=CROSS %s
// CROSS: registered_field.c:[[@LINE+9]]:15: warning: possible data race on 'struct net_device.mtu in the heap object allocated at {{.*}}registered_field.c:{{[0-9:]+}}' (write by thread 'entry point via_kernel' / write by thread 'entry point via_driver')
// RUN: %crace --entry=via_kernel,via_driver --list-entry-points %s -- -I %S/Inputs | %FileCheck %s
// CHECK: fields of a REGISTERED_TYPE type, e.g. bd_disk, may also point to an object the driver registered
// expected-verdict: possible-race
#include "kernel.h"
void *kzalloc(unsigned long n, unsigned flags);
struct holder { struct net_device *dev; };
static struct net_device *mine;
void via_kernel(struct holder *h) {
  h->dev->mtu = 1500;                      // expected-race
}
void via_driver(void) {
  mine->mtu = 9000;                        // expected-race
}
static int dev_init(void) {
  mine = kzalloc(sizeof *mine, 0);
  if (!mine)
    return -12;
  return register_netdev(mine);
}
module_init(dev_init);
