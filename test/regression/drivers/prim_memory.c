// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// kmalloc'd state set up in probe and reached through drvdata races when
// written unlocked; copy_to_user reads the kernel buffer another entry point
// writes; MMIO accesses (readl/writel) are atomic device accesses.
// expected-verdict: possible-race
#include "kernel.h"
struct priv {
  int count;
  char buf[32];
  void __iomem *regs;
};
static struct priv *global_priv;
static ssize_t f_read(struct file *f, char __user *u, size_t n, loff_t *p) {
  struct priv *pr = global_priv;
  writel(1, pr->regs);
  if (copy_to_user(u, pr->buf, sizeof pr->buf)) // expected-race
    return -EFAULT;
  return readl(pr->regs);
}
static ssize_t f_write(struct file *f, const char __user *u, size_t n, loff_t *p) {
  struct priv *pr = global_priv;
  pr->count++;                             // expected-race
  if (copy_from_user(pr->buf, u, sizeof pr->buf)) // expected-race
    return -EFAULT;
  iowrite32(pr->count, pr->regs);          // expected-race
  return n;
}
static const struct file_operations fops = {.read = f_read, .write = f_write};
static int probe(struct pci_dev *pdev, const struct pci_device_id *id) {
  struct priv *pr = kzalloc(sizeof *pr, GFP_KERNEL);
  pr->regs = ioremap(0x1000, 256);
  pci_set_drvdata(pdev, pr);
  global_priv = pr;
  return 0;
}
static void remove(struct pci_dev *pdev) {
  struct priv *pr = pci_get_drvdata(pdev);
  iounmap(pr->regs);
  kfree(pr);
}
static struct pci_driver drv = {.name = "m", .probe = probe, .remove = remove};
