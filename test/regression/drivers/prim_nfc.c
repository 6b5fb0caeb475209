// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// NFC: nfc_allocate_device returns a fresh nfc_dev (or NULL) that
// nfc_register_device hands to the nfc_ops callbacks (REGISTERED_TYPE
// nfc_dev); nfc_tm_activated updates the core's fields of the nfc_dev
// (the whole object, their offsets are not known to the model) and reads
// the general bytes, so it races with the callback writing the device.
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck --check-prefix=KNOWN %s
// KNOWN: crace: verdict: possible-race
// KNOWN-NOT: unknown external function
// expected-verdict: possible-race
#include "subsys.h"
static struct nfc_dev *ndev;
static unsigned char gb[4];
static struct mutex lock;
static int dev_up(struct nfc_dev *d) {
  d->idx = 1;                              // expected-race
  return 0;
}
static struct nfc_ops ops = {.dev_up = dev_up};
static ssize_t f_write(struct file *f, const char __user *u, size_t n,
                       loff_t *p) {
  mutex_lock(&lock);
  int r = nfc_tm_activated(ndev, 1, 0, gb, sizeof gb); // expected-race
  mutex_unlock(&lock);
  return r;
}
static const struct file_operations fops = {.write = f_write};
static int init(void) {
  ndev = nfc_allocate_device(&ops, 1, 0, 0);
  if (!ndev)
    return -12;
  if (nfc_register_device(ndev))
    return -19;
  return 0;
}
static void cleanup(void) { nfc_unregister_device(ndev); }
module_init(init);
module_exit(cleanup);
