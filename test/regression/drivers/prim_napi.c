// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// NAPI: the poll function registered with netif_napi_add is an entry point;
// it finds the driver's private state around its napi_struct (container_of),
// which the model registers, so its unlocked update of 'rx_packets' races
// with the statistics callback, while 'rx_bytes' (under the lock) does not.
// napi_disable waits for a running poll in the kernel; crace's model does
// not wait, which can only add races.
// RUN: %crace --driver --list-entry-points %s -- -I %S/Inputs | %FileCheck --check-prefix=LIST %s
// LIST: entry point dev_poll [entry]: netif_napi_add() callback at prim_napi.c:{{[0-9]+}}
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck --check-prefix=KNOWN %s
// KNOWN: crace: verdict: possible-race
// KNOWN-NOT: unknown external function
// expected-verdict: possible-race
#include "subsys.h"
struct priv {
  unsigned long rx_packets;
  unsigned long rx_bytes;
  struct napi_struct napi;
};
static struct priv *gp;
static struct net_device *gdev;
static spinlock_t lock;
static int dev_poll(struct napi_struct *napi, int budget) {
  struct priv *p = container_of(napi, struct priv, napi);
  p->rx_packets++;                         // expected-race
  spin_lock(&lock);
  gp->rx_bytes += 64;
  spin_unlock(&lock);
  napi_complete(napi);
  return 0;
}
static int dev_irq(int irq, void *dev) {
  if (napi_schedule_prep(&gp->napi))
    __napi_schedule(&gp->napi);
  return 1;
}
static int dev_open(struct net_device *dev) {
  napi_enable(&gp->napi);
  return 0;
}
static int dev_stop(struct net_device *dev) {
  napi_disable(&gp->napi);
  return 0;
}
static void dev_timeout(struct net_device *dev) {
  spin_lock(&lock);
  gp->rx_packets = 0;                      // expected-race
  gp->rx_bytes = 0;
  spin_unlock(&lock);
}
static const struct net_device_ops ops = {
    .ndo_open = dev_open, .ndo_stop = dev_stop, .ndo_tx_timeout = dev_timeout};
static int init(void) {
  gp = kzalloc(sizeof *gp, GFP_KERNEL);
  if (!gp)
    return -12;
  gdev = kzalloc(sizeof *gdev, GFP_KERNEL);
  spin_lock_init(&lock);
  netif_napi_add(gdev, &gp->napi, dev_poll, 64);
  if (request_irq(1, dev_irq, 0, "n", gdev))
    return -16;
  return register_netdev(gdev);
}
static void cleanup(void) {
  unregister_netdev(gdev);
  netif_napi_del(&gp->napi);
  free_irq(1, gdev);
  kfree(gp);
}
module_init(init);
module_exit(cleanup);
