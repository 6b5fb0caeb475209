// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// sk_buffs and statistics: skb_clone reads and marks the original and
// returns a new header (or NULL), consume_skb/dev_kfree_skb_any free one
// like kfree; netdev_stats_to_stats64 reads the driver's net_device_stats
// (racing with the unlocked update in start_xmit) and writes the caller's
// rtnl_link_stats64.
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck --check-prefix=KNOWN %s
// KNOWN: crace: verdict: possible-race
// KNOWN-NOT: unknown external function
// expected-verdict: possible-race
#include "subsys.h"
static struct net_device_stats stats;
static struct sk_buff *saved;
static spinlock_t lock;
static int dev_xmit(struct sk_buff *skb, struct net_device *dev) {
  // The harness passes one shared sk_buff to both instances of start_xmit,
  // so skb_clone's write of the original races (and the lockset engine
  // merges the clones of this call site).
  struct sk_buff *c = skb_clone(skb, GFP_KERNEL); // expected-race
  if (c) {
    spin_lock(&lock);
    if (saved)
      consume_skb(saved);
    saved = c;
    spin_unlock(&lock);
  }
  stats.s[0]++;                            // expected-race
  dev_kfree_skb_any(skb);
  return 0;
}
static ssize_t f_read(struct file *f, char __user *u, size_t n, loff_t *p) {
  struct rtnl_link_stats64 s;
  netdev_stats_to_stats64(&s, &stats);     // expected-race
  return copy_to_user(u, &s, sizeof s) ? -EFAULT : (ssize_t)sizeof s;
}
static const struct file_operations fops = {.read = f_read};
static const struct net_device_ops ops = {.ndo_start_xmit = dev_xmit};
