// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// ndo_open/ndo_stop/ndo_change_mtu and ethtool operations run under RTNL:
// serialised with each other (and with rtnl_lock() in the driver) by the
// rtnl constraint; ndo_start_xmit does not hold RTNL.
// RUN: %not %crace --driver --engine=lockset --no-rtnl %s -- -I %S/Inputs | %FileCheck --check-prefix=OFF %s
// OFF: possible data race on 'link_up'
// RUN: %crace --list-entry-points %s -- -I %S/Inputs | %FileCheck --check-prefix=LIST %s
// LIST-DAG: entry point net_open [entry, rtnl]: net_device_ops.ndo_open in 'ops'
// LIST-DAG: entry point net_stop [entry, rtnl]: net_device_ops.ndo_stop in 'ops'
// LIST-DAG: entry point net_xmit [entry]: net_device_ops.ndo_start_xmit in 'ops'
// LIST-DAG: entry point get_drvinfo [entry, rtnl]: ethtool_ops.get_drvinfo in 'eops'
// LIST-DAG: entry point dev_probe [init]: pci_driver.probe in 'drv'
// expected-verdict: possible-race
#include "kernel.h"
static int link_up;
static int mtu;
static int packets;
static int net_open(struct net_device *d) { link_up = 1; return 0; }
static int net_stop(struct net_device *d) { link_up = 0; return 0; }
static int net_change_mtu(struct net_device *d, int m) { mtu = m; return 0; }
static int net_xmit(struct sk_buff *skb, struct net_device *d) {
  packets++;                               // expected-race
  return 0;
}
static void get_drvinfo(struct net_device *d, struct ethtool_drvinfo *i) {
  i->driver[0] = (char)mtu;
}
static void watchdog(unsigned long data) {
  rtnl_lock();
  link_up = 2;                                  // the driver takes RTNL itself
  rtnl_unlock();
}
static const struct net_device_ops ops = {
    .ndo_open = net_open, .ndo_stop = net_stop,
    .ndo_change_mtu = net_change_mtu, .ndo_start_xmit = net_xmit};
static const struct ethtool_ops eops = {.get_drvinfo = get_drvinfo};
static struct timer_list timer;
static int dev_probe(struct pci_dev *pdev, const struct pci_device_id *id) {
  init_timer(&timer);
  timer.function = watchdog;
  return 0;
}
static struct pci_driver drv = {.name = "n", .probe = dev_probe};
