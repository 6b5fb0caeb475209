/* Kernel subsystems modelled in models/linux/linux_subsys.c, for crace's
   driver-mode tests: declared as the models define them (WHOOP's kernel
   headers declare few of these; its drivers call the rest implicitly
   declared, hence the int results). Not the kernel's real headers. */
#ifndef CRACE_TEST_SUBSYS_H
#define CRACE_TEST_SUBSYS_H
#include "kernel.h"

#define container_of(ptr, type, member)                                        \
  ((type *)((char *)(ptr) - __builtin_offsetof(type, member)))

/* Block devices. */
struct request_queue { void *queuedata; };
struct gendisk {
  int major, first_minor, minors;
  char disk_name[32];
  const struct block_device_operations *fops;
  struct request_queue *queue;
  void *private_data;
  int flags;
};
typedef void(request_fn_proc)(struct request_queue *q);
struct gendisk *alloc_disk(int minors);
void add_disk(struct gendisk *disk);
void del_gendisk(struct gendisk *disk);
void put_disk(struct gendisk *disk);
void set_capacity(struct gendisk *disk, unsigned long long size);
unsigned long long get_capacity(struct gendisk *disk);
struct request_queue *blk_init_queue(request_fn_proc *rfn, spinlock_t *lock);
void blk_cleanup_queue(struct request_queue *q);
int blk_queue_max_segments(struct request_queue *q, int n);

/* Workqueues and tasklets (WHOOP's struct work_struct). */
struct work_struct { void (*func)(void *); void *data; };
struct delayed_work { struct work_struct work; unsigned long timer; };
struct workqueue_struct;
struct tasklet_struct { unsigned long state; void (*func)(unsigned long); };
int INIT_DELAYED_WORK(struct delayed_work *w, void (*fn)(struct work_struct *));
_Bool schedule_work(struct work_struct *w);
int schedule_delayed_work(struct delayed_work *w, unsigned long delay);
int queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *w,
                       unsigned long delay);
_Bool cancel_work_sync(struct work_struct *w);
int cancel_delayed_work_sync(struct delayed_work *w);
int flush_work(struct work_struct *w);
struct workqueue_struct *alloc_ordered_workqueue(const char *fmt, unsigned flags);
int destroy_workqueue(struct workqueue_struct *wq);
int tasklet_init(struct tasklet_struct *t, void (*fn)(unsigned long),
                 unsigned long data);
int tasklet_schedule(struct tasklet_struct *t);
int tasklet_kill(struct tasklet_struct *t);

/* NAPI (WHOOP's struct napi_struct). */
struct napi_struct { unsigned long state; int weight; struct net_device *dev; };
void netif_napi_add(struct net_device *dev, struct napi_struct *napi,
                    int (*poll)(struct napi_struct *, int), int weight);
void netif_napi_del(struct napi_struct *napi);
void napi_enable(struct napi_struct *n);
void napi_disable(struct napi_struct *n);
int napi_schedule_prep(struct napi_struct *n);
void __napi_schedule(struct napi_struct *n);
void napi_complete(struct napi_struct *n);

/* sk_buffs and statistics. */
struct net_device_stats { unsigned long s[23]; };
struct rtnl_link_stats64 { unsigned long long s[23]; };
void consume_skb(struct sk_buff *skb);
int dev_kfree_skb_any(struct sk_buff *skb);
struct sk_buff *skb_clone(struct sk_buff *skb, gfp_t gfp);
int netdev_stats_to_stats64(struct rtnl_link_stats64 *d,
                            const struct net_device_stats *s);

/* Platform devices. */
struct platform_device *platform_device_alloc(const char *name, int id);
int platform_device_add(struct platform_device *pdev);
int platform_device_put(struct platform_device *pdev);
int platform_device_unregister(struct platform_device *pdev);

/* USB control transfers. */
struct usb_device;
#define USB_DIR_IN 0x80
int usb_control_msg(struct usb_device *dev, unsigned pipe, unsigned char request,
                    unsigned char requesttype, unsigned short value,
                    unsigned short index, void *data, unsigned short size,
                    int timeout);

/* proc files. */
struct proc_dir_entry;
typedef int(read_proc_t)(char *page, char **start, long off, int count,
                         int *eof, void *data);
struct proc_dir_entry *create_proc_read_entry(const char *name, int mode,
                                              struct proc_dir_entry *parent,
                                              read_proc_t *read_proc, void *data);

/* NFC. */
struct nfc_ops { int (*dev_up)(struct nfc_dev *); };
struct nfc_dev { int idx; void *priv; };
struct nfc_dev *nfc_allocate_device(struct nfc_ops *ops, unsigned protocols,
                                    int tx_headroom, int tx_tailroom);
int nfc_register_device(struct nfc_dev *dev);
void nfc_unregister_device(struct nfc_dev *dev);
int nfc_tm_activated(struct nfc_dev *dev, unsigned protocol,
                     unsigned char comm_mode, unsigned char *gb,
                     size_t gb_len);
#endif
