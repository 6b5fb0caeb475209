// RUN: %crace --list-entry-points %s -- -I %S/Inputs | %FileCheck %s
// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// One entry point through each supported kind of registration; each writes
// its own counter without a lock, so each races with itself.
// CHECK-DAG: entry point p_probe [init]: platform_driver.probe in 'pdrv'
// CHECK-DAG: entry point p_remove [exit]: platform_driver.remove in 'pdrv'
// CHECK-DAG: entry point p_shutdown [entry]: platform_driver.shutdown in 'pdrv'
// CHECK-DAG: entry point u_probe [init]: usb_driver.probe in 'udrv'
// CHECK-DAG: entry point u_disconnect [exit]: usb_driver.disconnect in 'udrv'
// CHECK-DAG: entry point wd_start [entry]: watchdog_ops.start in 'wops'
// CHECK-DAG: entry point wd_ping [entry]: watchdog_ops.ping in 'wops'
// CHECK-DAG: entry point bd_open [entry]: block_device_operations.open in 'bops'
// CHECK-DAG: entry point bd_ioctl [entry]: block_device_operations.ioctl in 'bops'
// CHECK-DAG: entry point irq_handler [entry]: request_irq() callback at ops_structures.c:{{[0-9]+}}
// CHECK-DAG: entry point tick [entry]: timer_list.function at ops_structures.c:{{[0-9]+}}
// CHECK-DAG: entry point f_ioctl [entry]: file_operations.unlocked_ioctl in 'fops'
// CHECK: harness: 8 concurrent entry point(s) x 2 threads
// expected-verdict: possible-race
#include "kernel.h"
static int c_shutdown, c_start, c_ping, c_open, c_ioctl, c_irq, c_tick, c_fioctl;
static int p_probe(struct platform_device *p) { return 0; }
static int p_remove(struct platform_device *p) { return 0; }
static void p_shutdown(struct platform_device *p) {
  c_shutdown++;                            // expected-race
}
static struct platform_driver pdrv = {
    .probe = p_probe, .remove = p_remove, .shutdown = p_shutdown};
static int u_probe(struct usb_interface *i, const struct usb_device_id *id) {
  return 0;
}
static void u_disconnect(struct usb_interface *i) {}
static struct usb_driver udrv = {
    .name = "u", .probe = u_probe, .disconnect = u_disconnect};
static int wd_start(struct watchdog_device *w) {
  c_start++;                               // expected-race
  return 0;
}
static int wd_ping(struct watchdog_device *w) {
  c_ping++;                                // expected-race
  return 0;
}
static const struct watchdog_ops wops = {.start = wd_start, .ping = wd_ping};
static int bd_open(struct block_device *b, fmode_t m) {
  c_open++;                                // expected-race
  return 0;
}
static int bd_ioctl(struct block_device *b, fmode_t m, unsigned c, unsigned long a) {
  c_ioctl++;                               // expected-race
  return 0;
}
static const struct block_device_operations bops = {.open = bd_open,
                                                    .ioctl = bd_ioctl};
static int irq_handler(int irq, void *dev) {
  c_irq++;                                 // expected-race
  return 1;
}
static void tick(unsigned long data) {
  c_tick++;                                // expected-race
}
static long f_ioctl(struct file *f, unsigned cmd, unsigned long arg) {
  c_fioctl++;                              // expected-race
  return 0;
}
static const struct file_operations fops = {.unlocked_ioctl = f_ioctl};
static struct timer_list timer;
static int mod_init(void) {
  init_timer(&timer);
  timer.function = tick;
  return request_irq(5, irq_handler, 0, "t", NULL);
}
module_init(mod_init);
