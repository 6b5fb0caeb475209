/* Linux kernel model, the rest: registration of the driver's callbacks,
   delays, capabilities, PCI/platform/char-device plumbing that touches no
   driver memory. Linked only in driver mode (docs/usage.md, "Drivers").

   Registration functions do nothing here because the driver harness
   already runs every callback the driver registers (found in its ops
   structures, in request_irq()/setup_timer() arguments and in timer
   fields): they are entry points, concurrent with the others. Registration
   functions whose callbacks crace cannot find are deliberately NOT
   modelled, so a driver using them gets verdict unknown with the function
   named. Block devices, workqueues, tasklets, NAPI, ...: linux_subsys.c. */
#include "crace_intrinsics.h"

/* Objects the driver hands to the kernel (register_netdev's net_device,
   misc_register's miscdevice, request_irq's dev_id, driver data, ...): the
   kernel passes them back to entry points. The harness lets every pointer
   parameter of an entry point, and every void * field of a kernel object,
   point to them as well (docs/usage.md, "Drivers"). Atomic accesses: the
   slot is crace's, not the driver's. */
void *__crace_linux_registered;
static __attribute__((always_inline)) void crace_linux_register(void *p) {
  __atomic_store_n(&__crace_linux_registered, p, __ATOMIC_RELAXED);
}

/* Registration: the callbacks are entry points of the harness. */
CRACE_MODEL int misc_register(void *misc) {
  crace_linux_register(misc);
  return __crace_nondet_int() ? -16 : 0;
}
CRACE_MODEL int misc_deregister(void *misc) { return 0; }
CRACE_MODEL int register_chrdev(unsigned major, const char *name, const void *fops) {
  return __crace_nondet_int();
}
CRACE_MODEL int unregister_chrdev(unsigned major, const char *name) { return 0; }
CRACE_MODEL int __register_chrdev(unsigned major, unsigned base, unsigned count,
                                  const char *name, const void *fops) {
  return __crace_nondet_int();
}
CRACE_MODEL void __unregister_chrdev(unsigned major, unsigned base, unsigned count,
                                     const char *name) {}
CRACE_MODEL int register_blkdev(unsigned major, const char *name) {
  return __crace_nondet_int();
}
CRACE_MODEL void unregister_blkdev(unsigned major, const char *name) {}
CRACE_MODEL int pci_register_driver(void *drv) { return __crace_nondet_int() ? -19 : 0; }
CRACE_MODEL int __pci_register_driver(void *drv, void *owner, const char *name) {
  return __crace_nondet_int() ? -19 : 0;
}
CRACE_MODEL void pci_unregister_driver(void *drv) {}
CRACE_MODEL int platform_driver_register(void *drv) { return __crace_nondet_int() ? -19 : 0; }
CRACE_MODEL int __platform_driver_register(void *drv, void *owner) {
  return __crace_nondet_int() ? -19 : 0;
}
CRACE_MODEL void platform_driver_unregister(void *drv) {}
CRACE_MODEL int usb_register(void *drv) { return __crace_nondet_int() ? -19 : 0; }
CRACE_MODEL int usb_register_driver(void *drv, void *owner, const char *name) {
  return __crace_nondet_int() ? -19 : 0;
}
CRACE_MODEL void usb_deregister(void *drv) {}
CRACE_MODEL int register_netdev(void *dev) {
  crace_linux_register(dev);
  return __crace_nondet_int() ? -19 : 0;
}
CRACE_MODEL void unregister_netdev(void *dev) {}
CRACE_MODEL int register_reboot_notifier(void *nb) { return 0; }
CRACE_MODEL int unregister_reboot_notifier(void *nb) { return 0; }
CRACE_MODEL int watchdog_register_device(void *wdd) {
  crace_linux_register(wdd);
  return __crace_nondet_int() ? -19 : 0;
}
CRACE_MODEL void watchdog_unregister_device(void *wdd) {}
/* Interrupt handlers and timers registered here are entry points. */
CRACE_MODEL int request_irq(unsigned irq, void *handler, unsigned long flags,
                            const char *name, void *dev) {
  crace_linux_register(dev);
  return __crace_nondet_int() ? -16 : 0;
}
CRACE_MODEL int request_threaded_irq(unsigned irq, void *handler, void *thread_fn,
                                     unsigned long flags, const char *name, void *dev) {
  crace_linux_register(dev);
  return __crace_nondet_int() ? -16 : 0;
}
CRACE_MODEL void free_irq(unsigned irq, void *dev) {}
CRACE_MODEL void synchronize_irq(unsigned irq) {}
CRACE_MODEL void disable_irq(unsigned irq) {}
CRACE_MODEL void enable_irq(unsigned irq) {}
CRACE_MODEL void init_timer(void *t) {}
CRACE_MODEL void setup_timer(void *t, void *fn, unsigned long data) {
  crace_linux_register((void *)data);
}
CRACE_MODEL void add_timer(void *t) {}
CRACE_MODEL int mod_timer(void *t, unsigned long expires) { return __crace_nondet_int(); }
CRACE_MODEL int del_timer(void *t) { return __crace_nondet_int(); }
CRACE_MODEL int del_timer_sync(void *t) { return __crace_nondet_int(); }

/* Delays and scheduling. */
CRACE_MODEL void msleep(unsigned int ms) {}
CRACE_MODEL unsigned long msleep_interruptible(unsigned int ms) {
  return (unsigned long)__crace_nondet_int();
}
CRACE_MODEL void mdelay(unsigned long ms) {}
CRACE_MODEL void udelay(unsigned long us) {}
CRACE_MODEL void ndelay(unsigned long ns) {}
CRACE_MODEL void schedule(void) {}
CRACE_MODEL int cond_resched(void) { return 0; }
CRACE_MODEL long schedule_timeout(long t) { return (long)__crace_nondet_int(); }
CRACE_MODEL unsigned long msecs_to_jiffies(unsigned int m) { return m; }
CRACE_MODEL int capable(int cap) { return __crace_nondet_int(); }

/* Wait queues: wake-ups carry no data; waiting is a delay. */
CRACE_MODEL void init_waitqueue_head(void *q) {}
CRACE_MODEL void __init_waitqueue_head(void *q, const char *name, void *key) {}
CRACE_MODEL void wake_up(void *q) {}
CRACE_MODEL void wake_up_interruptible(void *q) {}
CRACE_MODEL void wake_up_all(void *q) {}
CRACE_MODEL void wake_up_interruptible_all(void *q) {}
CRACE_MODEL void __wake_up(void *q, unsigned mode, int nr, void *key) {}

/* Files. seq_file helpers run the driver's show callback, which is an
   entry point of its own (single_open's callback). */
CRACE_MODEL long seq_read(void *file, char *buf, unsigned long n, long long *pos) {
  return (long)__crace_nondet_int();
}
CRACE_MODEL long long seq_lseek(void *file, long long off, int whence) {
  return (long long)__crace_nondet_int();
}
CRACE_MODEL int single_release(void *inode, void *file) { return 0; }
CRACE_MODEL int seq_release(void *inode, void *file) { return 0; }
CRACE_MODEL int single_open(void *file, void *show, void *data) {
  crace_linux_register(data);
  return __crace_nondet_int() ? -12 : 0;
}
CRACE_MODEL int nonseekable_open(void *inode, void *filp) { return 0; }
CRACE_MODEL long long no_llseek(void *file, long long off, int whence) { return -29; }

/* PCI and resources: device state outside driver memory. */
CRACE_MODEL int pci_enable_device(void *pdev) { return __crace_nondet_int() ? -5 : 0; }
CRACE_MODEL void pci_disable_device(void *pdev) {}
CRACE_MODEL void pci_set_master(void *pdev) {}
CRACE_MODEL int pci_request_regions(void *pdev, const char *name) {
  return __crace_nondet_int() ? -16 : 0;
}
CRACE_MODEL void pci_release_regions(void *pdev) {}
CRACE_MODEL int pci_set_dma_mask(void *pdev, unsigned long long mask) {
  return __crace_nondet_int() ? -5 : 0;
}
CRACE_MODEL int pci_read_config_byte(const void *pdev, int where, unsigned char *v) {
  *v = (unsigned char)__crace_nondet_int();
  return 0;
}
CRACE_MODEL int pci_read_config_word(const void *pdev, int where, unsigned short *v) {
  *v = (unsigned short)__crace_nondet_int();
  return 0;
}
CRACE_MODEL int pci_read_config_dword(const void *pdev, int where, unsigned int *v) {
  *v = (unsigned int)__crace_nondet_int();
  return 0;
}
CRACE_MODEL int pci_write_config_byte(const void *pdev, int where, unsigned char v) { return 0; }
CRACE_MODEL int pci_write_config_word(const void *pdev, int where, unsigned short v) { return 0; }
CRACE_MODEL int pci_write_config_dword(const void *pdev, int where, unsigned int v) { return 0; }
CRACE_MODEL void *request_region(unsigned long start, unsigned long n, const char *name) {
  return __crace_nondet_int() ? (void *)0 : (void *)1;
}
CRACE_MODEL void release_region(unsigned long start, unsigned long n) {}
CRACE_MODEL void *request_mem_region(unsigned long start, unsigned long n, const char *name) {
  return __crace_nondet_int() ? (void *)0 : (void *)1;
}
CRACE_MODEL void release_mem_region(unsigned long start, unsigned long n) {}

/* Network queue state lives in the kernel's part of net_device. */
CRACE_MODEL void netif_start_queue(void *dev) {}
CRACE_MODEL void netif_stop_queue(void *dev) {}
CRACE_MODEL void netif_wake_queue(void *dev) {}
CRACE_MODEL int netif_queue_stopped(const void *dev) { return __crace_nondet_int(); }
CRACE_MODEL void netif_carrier_on(void *dev) {}
CRACE_MODEL void netif_carrier_off(void *dev) {}
CRACE_MODEL int netif_carrier_ok(const void *dev) { return __crace_nondet_int(); }
CRACE_MODEL void netif_device_attach(void *dev) {}
CRACE_MODEL void netif_device_detach(void *dev) {}
CRACE_MODEL void free_netdev(void *dev) { __crace_free(dev); }

/* Helpers that are macros in the kernel but functions (often implicitly
   declared) under WHOOP's headers: pure computations. */
CRACE_MODEL unsigned MAJOR(unsigned dev) { return dev >> 20; }
CRACE_MODEL unsigned MINOR(unsigned dev) { return dev & ((1U << 20) - 1); }
CRACE_MODEL unsigned MKDEV(unsigned ma, unsigned mi) { return (ma << 20) | mi; }
/* Error pointers point into one object of their own (an integer cast to a
   pointer would point anywhere for the analyses): ERR_PTR(-e) is byte
   4095 - e of it, which is what IS_ERR recognises. The object is const:
   dereferencing an error pointer oopses before it could race, and the
   engines never pair accesses on a constant, so a pointer that may hold an
   error pointer (points-to keeps that target after IS_ERR) does not make
   its accesses race on this object. */
static const char crace_linux_err_ptrs[4096];
CRACE_MODEL void *ERR_PTR(long e) {
  return (void *)(crace_linux_err_ptrs + 4095 + (e % 4096));
}
CRACE_MODEL long PTR_ERR(const void *p) {
  return (long)((const char *)p - (crace_linux_err_ptrs + 4095));
}
CRACE_MODEL long IS_ERR(const void *p) {
  return (const char *)p >= crace_linux_err_ptrs &&
         (const char *)p < crace_linux_err_ptrs + 4096;
}
CRACE_MODEL long IS_ERR_OR_NULL(const void *p) { return !p || IS_ERR(p); }
CRACE_MODEL int time_before(unsigned long a, unsigned long b) { return (long)(a - b) < 0; }
CRACE_MODEL int time_after(unsigned long a, unsigned long b) { return (long)(b - a) < 0; }
CRACE_MODEL int get_order(unsigned long n) { return __crace_nondet_int() & 15; }
CRACE_MODEL unsigned short swab16(unsigned short x) {
  return (unsigned short)((x << 8) | (x >> 8));
}
CRACE_MODEL unsigned swab32(unsigned x) { return __builtin_bswap32(x); }
CRACE_MODEL unsigned long __pa(const void *x) { return (unsigned long)x; }
CRACE_MODEL long clamp(long v, long lo, long hi) { return v < lo ? lo : v > hi ? hi : v; }
CRACE_MODEL void memory_barrier(int v) {}
CRACE_MODEL void unreachable(void) {}
CRACE_MODEL int net_ratelimit(void) { return __crace_nondet_int(); }
CRACE_MODEL crace_size_t strlcpy(char *d, const char *s, crace_size_t n) {
  __crace_read(s, 0);
  __crace_write(d, n);
  return (crace_size_t)__crace_unknown_longlong();
}
CRACE_MODEL int __get_user(long x, void *ptr) { return __crace_nondet_int(); }
CRACE_MODEL int __put_user(long x, void *ptr) { return __crace_nondet_int(); }
/* A device's name: a string the kernel owns. */
static char crace_linux_dev_name[32];
CRACE_MODEL const char *dev_name(const void *dev) { return crace_linux_dev_name; }
/* Waiting: a delay (the condition was evaluated as an argument). */
CRACE_MODEL void poll_wait(void *file, void *q, void *table) {}
CRACE_MODEL int wait_event_interruptible(long q, long cond) { return __crace_nondet_int(); }
CRACE_MODEL void wait_event(long q, long cond) {}
CRACE_MODEL long wait_event_interruptible_timeout(long q, long cond, long t) {
  return (long)__crace_nondet_int();
}
