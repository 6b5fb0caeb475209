// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// probe initialises what the entry points read and remove tears it down:
// with the init-exit constraint (default) no race; without it, races.
// RUN: %not %crace --driver --engine=lockset --no-init-exit-order %s -- -I %S/Inputs | %FileCheck --check-prefix=OFF %s
// OFF: possible data race on 'config'
// OFF: crace: verdict: possible-race
// expected-verdict: race-free
#include "kernel.h"
static int config;
static int dev_probe(struct pci_dev *pdev, const struct pci_device_id *id) {
  config = 1;
  return 0;
}
static void dev_remove(struct pci_dev *pdev) { config = 0; }
static int dev_suspend(struct pci_dev *pdev, int state) { return config; }
static struct pci_driver drv = {
    .name = "t", .probe = dev_probe, .remove = dev_remove, .suspend = dev_suspend};
static int dev_init(void) { return pci_register_driver(&drv); }
module_init(dev_init);
