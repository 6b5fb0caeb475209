/* A minimal Linux kernel API for crace's driver-mode tests: the types of the
   ops structures crace knows (src/frontend/OpsTable.def) and the functions
   modelled in models/linux/, declared as WHOOP's kernel model declares them
   (locks as functions, flags by value). Not the kernel's real headers. */
#ifndef CRACE_TEST_KERNEL_H
#define CRACE_TEST_KERNEL_H

typedef unsigned long size_t;
typedef long ssize_t;
typedef long long loff_t;
typedef unsigned gfp_t;
#define GFP_KERNEL 0u
#define NULL ((void *)0)
#define __user
#define __iomem
#define EINVAL 22
#define EFAULT 14

struct inode { int i_flags; };
struct file { loff_t f_pos; void *private_data; struct inode *f_inode; };
struct device { void *driver_data; };
struct pci_dev { struct device dev; int irq; };
struct pci_device_id { int vendor; };
struct platform_device { struct device dev; };
struct usb_interface { struct device dev; };
struct usb_device_id { int id; };
struct net_device { char name[16]; int mtu; void *priv; };
struct ethtool_drvinfo { char driver[32]; };
struct watchdog_device { int timeout; };
struct block_device { int bd_openers; };
struct sk_buff { int len; };
typedef int fmode_t;

struct file_operations {
  void *owner;
  loff_t (*llseek)(struct file *, loff_t, int);
  ssize_t (*read)(struct file *, char __user *, size_t, loff_t *);
  ssize_t (*write)(struct file *, const char __user *, size_t, loff_t *);
  long (*unlocked_ioctl)(struct file *, unsigned int, unsigned long);
  int (*open)(struct inode *, struct file *);
  int (*release)(struct inode *, struct file *);
};
struct net_device_ops {
  int (*ndo_open)(struct net_device *);
  int (*ndo_stop)(struct net_device *);
  int (*ndo_start_xmit)(struct sk_buff *, struct net_device *);
  int (*ndo_change_mtu)(struct net_device *, int);
  void (*ndo_tx_timeout)(struct net_device *);
};
struct ethtool_ops {
  void (*get_drvinfo)(struct net_device *, struct ethtool_drvinfo *);
  unsigned (*get_link)(struct net_device *);
};
struct pci_driver {
  const char *name;
  int (*probe)(struct pci_dev *, const struct pci_device_id *);
  void (*remove)(struct pci_dev *);
  int (*suspend)(struct pci_dev *, int);
};
struct platform_driver {
  int (*probe)(struct platform_device *);
  int (*remove)(struct platform_device *);
  void (*shutdown)(struct platform_device *);
};
struct usb_driver {
  const char *name;
  int (*probe)(struct usb_interface *, const struct usb_device_id *);
  void (*disconnect)(struct usb_interface *);
};
struct watchdog_ops {
  int (*start)(struct watchdog_device *);
  int (*stop)(struct watchdog_device *);
  int (*ping)(struct watchdog_device *);
};
struct block_device_operations {
  int (*open)(struct block_device *, fmode_t);
  void (*release)(void *, fmode_t);
  int (*ioctl)(struct block_device *, fmode_t, unsigned, unsigned long);
};
struct timer_list {
  unsigned long expires;
  void (*function)(unsigned long);
  unsigned long data;
};

/* module_init/module_exit as the kernel spells them for modules. */
#define module_init(f) int init_module(void) __attribute__((alias(#f)))
#define module_exit(f) void cleanup_module(void) __attribute__((alias(#f)))

/* Locks (struct layouts are irrelevant to crace: a lock is its address). */
struct mutex { int locked; };
typedef struct { int lock; } spinlock_t;
typedef struct { int lock; } rwlock_t;
struct rw_semaphore { int count; };
struct semaphore { int count; };
struct completion { int done; };
typedef struct { int counter; } atomic_t;
void mutex_init(struct mutex *m);
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
int mutex_trylock(struct mutex *m);
void spin_lock_init(spinlock_t *l);
void spin_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
void spin_lock_irqsave(spinlock_t *l, unsigned long flags);
void spin_unlock_irqrestore(spinlock_t *l, unsigned long flags);
void spin_lock_irq(spinlock_t *l);
void spin_unlock_irq(spinlock_t *l);
void spin_lock_bh(spinlock_t *l);
void spin_unlock_bh(spinlock_t *l);
void read_lock(rwlock_t *l);
void read_unlock(rwlock_t *l);
void write_lock(rwlock_t *l);
void write_unlock(rwlock_t *l);
void down_read(struct rw_semaphore *s);
void up_read(struct rw_semaphore *s);
void down_write(struct rw_semaphore *s);
void up_write(struct rw_semaphore *s);
void sema_init(struct semaphore *s, int val);
void down(struct semaphore *s);
void up(struct semaphore *s);
int atomic_read(const atomic_t *v);
void atomic_set(atomic_t *v, int i);
void atomic_inc(atomic_t *v);
int atomic_dec_and_test(atomic_t *v);
void set_bit(long nr, volatile unsigned long *addr);
void clear_bit(long nr, volatile unsigned long *addr);
int test_bit(long nr, const volatile unsigned long *addr);
int test_and_set_bit(long nr, volatile unsigned long *addr);
void rcu_read_lock(void);
void rcu_read_unlock(void);
void local_irq_save(unsigned long flags);
void local_irq_restore(unsigned long flags);
void local_irq_disable(void);
void local_irq_enable(void);
void rtnl_lock(void);
void rtnl_unlock(void);

/* Memory. */
void *kmalloc(size_t n, gfp_t flags);
void *kzalloc(size_t n, gfp_t flags);
void kfree(const void *p);
unsigned long copy_to_user(void __user *to, const void *from, unsigned long n);
unsigned long copy_from_user(void *to, const void __user *from, unsigned long n);
void __iomem *ioremap(unsigned long offset, unsigned long size);
void iounmap(void __iomem *addr);
unsigned int readl(const volatile void __iomem *addr);
void writel(unsigned int v, volatile void __iomem *addr);
unsigned int ioread32(void __iomem *addr);
void iowrite32(unsigned int v, void __iomem *addr);

/* Registration. */
typedef int (*irq_handler_t)(int, void *);
int request_irq(unsigned int irq, irq_handler_t handler, unsigned long flags,
                const char *name, void *dev);
void free_irq(unsigned int irq, void *dev);
void init_timer(struct timer_list *t);
int mod_timer(struct timer_list *t, unsigned long expires);
int del_timer_sync(struct timer_list *t);
int misc_register(void *misc);
int misc_deregister(void *misc);
int pci_register_driver(struct pci_driver *d);
void pci_unregister_driver(struct pci_driver *d);
int register_netdev(struct net_device *d);
void unregister_netdev(struct net_device *d);
void pci_set_drvdata(struct pci_dev *p, void *data);
void *pci_get_drvdata(struct pci_dev *p);
int printk(const char *fmt, ...);

#endif
