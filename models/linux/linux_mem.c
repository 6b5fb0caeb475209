/* Linux kernel model, memory: allocators, user copies, I/O memory and
   ports, driver data. Linked only in driver mode (docs/usage.md, "Drivers").

   User-space memory (the __user side of copy_{to,from}_user, get_user,
   put_user) is not program memory: its accesses are not checked (a printed
   assumption). MMIO accessors (readl, writel, ioread32, iowrite32, ...) are single
   volatile device accesses, modelled as atomic accesses of the mapped
   object: they never form a data race. I/O ports are not memory. */
#include "crace_intrinsics.h"

CRACE_MODEL void *kmalloc(crace_size_t n, unsigned flags) { return __crace_alloc(n); }
CRACE_MODEL void *__kmalloc(crace_size_t n, unsigned flags) { return __crace_alloc(n); }
CRACE_MODEL void *kmalloc_node(crace_size_t n, unsigned flags, int node) {
  return __crace_alloc(n);
}
CRACE_MODEL void *kzalloc(crace_size_t n, unsigned flags) {
  void *p = __crace_alloc(n);
  __crace_write(p, n);
  return p;
}
CRACE_MODEL void *kzalloc_node(crace_size_t n, unsigned flags, int node) {
  void *p = __crace_alloc(n);
  __crace_write(p, n);
  return p;
}
CRACE_MODEL void *kcalloc(crace_size_t n, crace_size_t m, unsigned flags) {
  void *p = __crace_alloc(n * m);
  __crace_write(p, n * m);
  return p;
}
CRACE_MODEL void *kmalloc_array(crace_size_t n, crace_size_t m, unsigned flags) {
  return __crace_alloc(n * m);
}
CRACE_MODEL void *krealloc(void *old, crace_size_t n, unsigned flags) {
  void *p = __crace_alloc(n);
  if (old) {
    crace_size_t m = __crace_object_size(old);
    __builtin_memcpy(p, old, m < n ? m : n);
    __crace_free(old);
  }
  return p;
}
CRACE_MODEL void kfree(const void *p) { __crace_free((void *)p); }
CRACE_MODEL void kzfree(const void *p) { __crace_free((void *)p); }
CRACE_MODEL void *vmalloc(unsigned long n) { return __crace_alloc(n); }
CRACE_MODEL void *vzalloc(unsigned long n) {
  void *p = __crace_alloc(n);
  __crace_write(p, n);
  return p;
}
CRACE_MODEL void vfree(const void *p) { __crace_free((void *)p); }
CRACE_MODEL void *devm_kzalloc(void *dev, crace_size_t n, unsigned flags) {
  void *p = __crace_alloc(n);
  __crace_write(p, n);
  return p;
}
CRACE_MODEL void *devm_kmalloc(void *dev, crace_size_t n, unsigned flags) {
  return __crace_alloc(n);
}
CRACE_MODEL void devm_kfree(void *dev, void *p) { __crace_free(p); }
CRACE_MODEL char *kstrdup(const char *s, unsigned flags) {
  __crace_read(s, 0);
  return (char *)__crace_alloc(64);
}
CRACE_MODEL char *kstrndup(const char *s, crace_size_t n, unsigned flags) {
  __crace_read(s, n);
  return (char *)__crace_alloc(n + 1);
}
CRACE_MODEL unsigned long __get_free_pages(unsigned flags, unsigned order) {
  return (unsigned long)__crace_alloc(4096UL << (order & 15));
}
CRACE_MODEL unsigned long get_zeroed_page(unsigned flags) {
  return (unsigned long)__crace_alloc(4096);
}
CRACE_MODEL void free_pages(unsigned long addr, unsigned order) {
  __crace_free((void *)addr);
}
CRACE_MODEL void free_page(unsigned long addr) { __crace_free((void *)addr); }
CRACE_MODEL void *dma_alloc_coherent(void *dev, crace_size_t n, void *handle,
                                     unsigned flags) {
  return __crace_alloc(n);
}
CRACE_MODEL void dma_free_coherent(void *dev, crace_size_t n, void *cpu,
                                   unsigned long long handle) {
  __crace_free(cpu);
}
CRACE_MODEL void *pci_alloc_consistent(void *pdev, crace_size_t n, void *handle) {
  return __crace_alloc(n);
}
CRACE_MODEL void pci_free_consistent(void *pdev, crace_size_t n, void *cpu,
                                     unsigned long long handle) {
  __crace_free(cpu);
}

/* User copies: the kernel side is read (copy_to_user) or written
   (copy_from_user); the result (bytes not copied) is any value. */
CRACE_MODEL unsigned long copy_to_user(void *to, const void *from, unsigned long n) {
  __crace_read(from, n);
  return (unsigned long)__crace_nondet_int();
}
CRACE_MODEL unsigned long copy_from_user(void *to, const void *from, unsigned long n) {
  __crace_write(to, n);
  return (unsigned long)__crace_nondet_int();
}
CRACE_MODEL unsigned long __copy_to_user(void *to, const void *from, unsigned long n) {
  __crace_read(from, n);
  return (unsigned long)__crace_nondet_int();
}
CRACE_MODEL unsigned long __copy_from_user(void *to, const void *from, unsigned long n) {
  __crace_write(to, n);
  return (unsigned long)__crace_nondet_int();
}
CRACE_MODEL unsigned long clear_user(void *to, unsigned long n) {
  return (unsigned long)__crace_nondet_int();
}
/* WHOOP's model declares get_user/put_user as functions of (value, ptr);
   the value is a register, the pointer user memory. */
CRACE_MODEL int get_user(long x, void *ptr) { return __crace_nondet_int(); }
CRACE_MODEL int put_user(long x, void *ptr) { return __crace_nondet_int(); }
CRACE_MODEL int access_ok(int type, const void *p, unsigned long n) {
  return __crace_nondet_int();
}

/* I/O memory: a mapping is a fresh object; accesses are atomic. */
CRACE_MODEL void *ioremap(unsigned long offset, unsigned long size) {
  return __crace_alloc(size);
}
CRACE_MODEL void *ioremap_nocache(unsigned long offset, unsigned long size) {
  return __crace_alloc(size);
}
CRACE_MODEL void *pci_iomap(void *pdev, int bar, unsigned long max) {
  return __crace_alloc(max ? max : 4096);
}
CRACE_MODEL void *pci_ioremap_bar(void *pdev, int bar) { return __crace_alloc(4096); }
CRACE_MODEL void iounmap(void *addr) {}
CRACE_MODEL void pci_iounmap(void *pdev, void *addr) {}
CRACE_MODEL unsigned char readb(const void *a) {
  return __atomic_load_n((const unsigned char *)a, __ATOMIC_RELAXED);
}
CRACE_MODEL unsigned short readw(const void *a) {
  return __atomic_load_n((const unsigned short *)a, __ATOMIC_RELAXED);
}
CRACE_MODEL unsigned int readl(const void *a) {
  return __atomic_load_n((const unsigned int *)a, __ATOMIC_RELAXED);
}
CRACE_MODEL unsigned long long readq(const void *a) {
  return __atomic_load_n((const unsigned long long *)a, __ATOMIC_RELAXED);
}
CRACE_MODEL void writeb(unsigned char v, void *a) {
  __atomic_store_n((unsigned char *)a, v, __ATOMIC_RELAXED);
}
CRACE_MODEL void writew(unsigned short v, void *a) {
  __atomic_store_n((unsigned short *)a, v, __ATOMIC_RELAXED);
}
CRACE_MODEL void writel(unsigned int v, void *a) {
  __atomic_store_n((unsigned int *)a, v, __ATOMIC_RELAXED);
}
CRACE_MODEL void writeq(unsigned long long v, void *a) {
  __atomic_store_n((unsigned long long *)a, v, __ATOMIC_RELAXED);
}
/* The raw accessors (no barriers, no byte swapping) are the same accesses. */
CRACE_MODEL unsigned char __raw_readb(const void *a) { return readb(a); }
CRACE_MODEL unsigned short __raw_readw(const void *a) { return readw(a); }
CRACE_MODEL unsigned int __raw_readl(const void *a) { return readl(a); }
CRACE_MODEL unsigned long long __raw_readq(const void *a) { return readq(a); }
CRACE_MODEL void __raw_writeb(unsigned char v, void *a) { writeb(v, a); }
CRACE_MODEL void __raw_writew(unsigned short v, void *a) { writew(v, a); }
CRACE_MODEL void __raw_writel(unsigned int v, void *a) { writel(v, a); }
CRACE_MODEL void __raw_writeq(unsigned long long v, void *a) { writeq(v, a); }
CRACE_MODEL unsigned int ioread8(void *a) { return readb(a); }
CRACE_MODEL unsigned int ioread16(void *a) { return readw(a); }
CRACE_MODEL unsigned int ioread32(void *a) { return readl(a); }
CRACE_MODEL void iowrite8(unsigned char v, void *a) { writeb(v, a); }
CRACE_MODEL void iowrite16(unsigned short v, void *a) { writew(v, a); }
CRACE_MODEL void iowrite32(unsigned int v, void *a) { writel(v, a); }
CRACE_MODEL void memcpy_fromio(void *d, const void *s, crace_size_t n) {
  __crace_write(d, n);
}
CRACE_MODEL void memcpy_toio(void *d, const void *s, crace_size_t n) {
  __crace_read(s, n);
}
CRACE_MODEL void memset_io(void *d, int c, crace_size_t n) {}
/* Port I/O: device registers, not memory. */
CRACE_MODEL unsigned char inb(unsigned int port) { return (unsigned char)__crace_nondet_int(); }
CRACE_MODEL unsigned char inb_p(unsigned int port) { return (unsigned char)__crace_nondet_int(); }
CRACE_MODEL unsigned short inw(unsigned int port) { return (unsigned short)__crace_nondet_int(); }
CRACE_MODEL unsigned short inw_p(unsigned int port) { return (unsigned short)__crace_nondet_int(); }
CRACE_MODEL unsigned int inl(unsigned int port) { return (unsigned int)__crace_nondet_int(); }
CRACE_MODEL unsigned int inl_p(unsigned int port) { return (unsigned int)__crace_nondet_int(); }
CRACE_MODEL void outb(unsigned char v, unsigned int port) {}
CRACE_MODEL void outb_p(unsigned char v, unsigned int port) {}
CRACE_MODEL void outw(unsigned short v, unsigned int port) {}
CRACE_MODEL void outw_p(unsigned short v, unsigned int port) {}
CRACE_MODEL void outl(unsigned int v, unsigned int port) {}
CRACE_MODEL void outl_p(unsigned int v, unsigned int port) {}
CRACE_MODEL void insb(unsigned int port, void *a, unsigned long n) { __crace_write(a, n); }
CRACE_MODEL void insw(unsigned int port, void *a, unsigned long n) { __crace_write(a, 2 * n); }
CRACE_MODEL void insl(unsigned int port, void *a, unsigned long n) { __crace_write(a, 4 * n); }
CRACE_MODEL void outsb(unsigned int port, const void *a, unsigned long n) { __crace_read(a, n); }
CRACE_MODEL void outsw(unsigned int port, const void *a, unsigned long n) { __crace_read(a, 2 * n); }
CRACE_MODEL void outsl(unsigned int port, const void *a, unsigned long n) { __crace_read(a, 4 * n); }

/* Driver data of a device: one slot for all devices (a sound merge); the
   data is also registered with the kernel (linux_kernel.c). */
void *__crace_linux_drvdata;
extern void *__crace_linux_registered;
#define CRACE_SET_DRVDATA(data)                                                \
  do {                                                                         \
    __crace_linux_drvdata = (data);                                            \
    __atomic_store_n(&__crace_linux_registered, (data), __ATOMIC_RELAXED);     \
  } while (0)
CRACE_MODEL void *dev_get_drvdata(const void *dev) { return __crace_linux_drvdata; }
CRACE_MODEL void dev_set_drvdata(void *dev, void *data) { CRACE_SET_DRVDATA(data); }
CRACE_MODEL void *pci_get_drvdata(void *pdev) { return __crace_linux_drvdata; }
CRACE_MODEL void pci_set_drvdata(void *pdev, void *data) { CRACE_SET_DRVDATA(data); }
CRACE_MODEL void *platform_get_drvdata(const void *pdev) { return __crace_linux_drvdata; }
CRACE_MODEL void platform_set_drvdata(void *pdev, void *data) {
  CRACE_SET_DRVDATA(data);
}
CRACE_MODEL void *usb_get_intfdata(void *intf) { return __crace_linux_drvdata; }
CRACE_MODEL void usb_set_intfdata(void *intf, void *data) { CRACE_SET_DRVDATA(data); }
