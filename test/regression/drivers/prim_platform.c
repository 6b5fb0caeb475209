// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// Platform devices a driver creates itself: platform_device_alloc returns a
// fresh device (or NULL), platform_device_add registers it with the kernel,
// which hands it to the platform driver's callbacks (REGISTERED_TYPE
// platform_device): the suspend callback's unlocked write through its
// parameter races with the same write through the driver's pointer in the
// file operation (which alone would be race-free: it locks).
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck --check-prefix=KNOWN %s
// KNOWN: crace: verdict: possible-race
// KNOWN-NOT: unknown external function
// expected-verdict: possible-race
#include "subsys.h"
static struct platform_device *pdev;
static struct mutex lock;
static int dev_probe(struct platform_device *p) { return 0; }
static int dev_remove(struct platform_device *p) { return 0; }
static void dev_shutdown(struct platform_device *p) {
  p->dev.driver_data = 0;                  // expected-race
}
static struct platform_driver pdrv = {
    .probe = dev_probe, .remove = dev_remove, .shutdown = dev_shutdown};
static ssize_t f_write(struct file *f, const char __user *u, size_t n,
                       loff_t *p) {
  mutex_lock(&lock);
  pdev->dev.driver_data = (void *)f;       // expected-race
  mutex_unlock(&lock);
  return n;
}
static const struct file_operations fops = {.write = f_write};
static int init(void) {
  pdev = platform_device_alloc("dev", 0);
  if (!pdev)
    return -12;
  if (platform_device_add(pdev)) {
    platform_device_put(pdev);
    return -19;
  }
  return 0;
}
static void cleanup(void) { platform_device_unregister(pdev); }
module_init(init);
module_exit(cleanup);
