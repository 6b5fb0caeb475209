/* Linux kernel model, subsystems: block devices, workqueues, tasklets,
   NAPI, sk_buffs, platform devices, USB control messages, proc files, NFC.
   Linked only in driver mode (docs/usage.md, "Drivers").

   Prototypes follow WHOOP's kernel headers. Most of these functions are
   not declared there at all (the drivers call them implicitly declared:
   int result, promoted arguments); those models return int and take the
   promoted argument types so that WHOOP's calls match them exactly (a call
   whose type differs from the model's is still analysed, as an ordinary
   call, but without the caller's source location).

   Soundness rules followed here (the verdict must stay honest):
   - A callback a function registers is an entry point of the harness
     (CALLBACK_ARG rows in src/frontend/OpsTable.def), so registration is a
     no-op that may fail.
   - Waiting for a callback (cancel_work_sync, flush_work, napi_disable,
     blk_cleanup_queue's drain, ...) is a no-op: crace then lets the
     callback run concurrently with what follows the wait, which can only
     add races, never hide one.
   - Memory the driver can see is accessed as the kernel accesses it. Where
     the kernel writes fields whose offset the model cannot know (gendisk,
     request_queue, platform_device, nfc_dev are opaque here), the whole
     object is written: a sound over-approximation. Kernel-only state
     (queues of pending work, the softirq poll list) is not driver memory.
   - Functions that call back into the driver through pointers the model
     cannot follow (mii_* call mii->mdio_read), or whose effect on driver
     memory needs a layout the model does not know (skb_copy_and_csum_dev
     reads skb->data, file_inode reads file->f_inode, eth_validate_addr
     reads dev->dev_addr, put_device may run a driver's release callback),
     are deliberately NOT modelled: they stay unknown external functions. */
#include "crace_intrinsics.h"

/* Registers p with the kernel (linux_kernel.c's crace_linux_register): the
   harness may pass it to entry points. The slot is overwritten only
   nondeterministically, so that an engine that executes the harness sees
   any object ever registered there, not only the last one (and never
   loses one to a NULL). */
extern void *__crace_linux_registered;
static __attribute__((always_inline)) void crace_register_in(void **slot, void *p) {
  if (p && __crace_nondet_int())
    __atomic_store_n(slot, p, __ATOMIC_RELAXED);
}
static __attribute__((always_inline)) void crace_subsys_register(void *p) {
  crace_register_in(&__crace_linux_registered, p);
}
/* Typed slots (REGISTERED_SLOT in src/frontend/OpsTable.def): the harness
   passes what was registered here only to entry-point parameters and
   kernel-object fields of that type, so that a work function's
   container_of(work, ...) reaches the driver's structure, not every object
   the driver ever registered. */
void *__crace_linux_registered_work_struct;
void *__crace_linux_registered_napi_struct;
void *__crace_linux_registered_request_queue;
/* The kernel writes fields of *p it owns; their offsets are unknown here. */
static __attribute__((always_inline)) void crace_write_object(void *p) {
  __crace_write(p, __crace_object_size(p));
}
/* A fresh zeroed kernel object of n bytes, or NULL (allocation failure). */
static __attribute__((always_inline)) void *crace_zalloc_or_null(crace_size_t n) {
  if (__crace_nondet_int())
    return (void *)0;
  void *p = __crace_alloc(n);
  __crace_write(p, n);
  return p;
}
/* The pending/state word of a work item, tasklet or NAPI context: the
   kernel sets and clears its bits atomically (test_and_set_bit, ...), so
   these accesses never race with each other, only with a plain
   initialisation (INIT_WORK, netif_napi_add) running concurrently. */
static __attribute__((always_inline)) void crace_state_bits(void *p) {
  __atomic_fetch_or((unsigned long *)p, 0UL, __ATOMIC_SEQ_CST);
}
/* A work item or NAPI context the kernel will hand to its callback, which
   usually finds the driver's structure around it with container_of: it is
   registered (REGISTERED_TYPE work_struct, napi_struct), so the harness
   may pass it to the callback. Queueing registers it too, since WHOOP's
   INIT_WORK macro calls nothing. */
static __attribute__((always_inline)) void crace_handed_back(void **slot, void *p) {
  crace_state_bits(p);
  crace_register_in(slot, p);
}

/* ---- Block devices ------------------------------------------------------ */

/* struct gendisk as the kernel allocates it (kzalloc; larger than any
   driver's view of it). */
#define CRACE_GENDISK_SIZE 4096
CRACE_MODEL void *alloc_disk(int minors) {
  return crace_zalloc_or_null(CRACE_GENDISK_SIZE);
}
CRACE_MODEL void *alloc_disk_node(int minors, int node) {
  return crace_zalloc_or_null(CRACE_GENDISK_SIZE);
}
/* add_disk reads the disk (fops, queue, private_data, name) and writes
   major/first_minor/flags; from then on the block_device_operations get
   the disk back. */
CRACE_MODEL void add_disk(void *disk) {
  crace_write_object(disk);
  crace_subsys_register(disk);
}
/* Clears GENHD_FL_UP and tears down the partitions. */
CRACE_MODEL void del_gendisk(void *disk) { crace_write_object(disk); }
/* The last reference of an alloc_disk'ed disk (the release is the
   kernel's own disk_release). */
CRACE_MODEL void put_disk(void *disk) {
  if (disk)
    __crace_free(disk);
}
/* The capacity (part0.nr_sects, not in WHOOP's struct gendisk) of every
   disk, merged: set_capacity writes it, get_capacity reads it. */
static unsigned long long crace_gendisk_capacity;
CRACE_MODEL void set_capacity(void *disk, unsigned long long size) {
  crace_gendisk_capacity = size;
}
CRACE_MODEL unsigned long long get_capacity(void *disk) {
  return crace_gendisk_capacity;
}
/* A request queue (kzalloc'd by the kernel) or NULL. blk_init_queue's
   request_fn and blk_queue_make_request's make_request_fn are entry points
   (OpsTable.def). The kernel calls request_fn holding *lock; the harness
   calls it without, which can only add races. The queue is what the
   kernel passes to request_fn (which usually finds the driver's state in
   q->queuedata): it is registered (REGISTERED_TYPE request_queue). */
#define CRACE_REQUEST_QUEUE_SIZE 4096
static __attribute__((always_inline)) void *crace_request_queue(void) {
  void *q = crace_zalloc_or_null(CRACE_REQUEST_QUEUE_SIZE);
  crace_register_in(&__crace_linux_registered_request_queue, q);
  return q;
}
CRACE_MODEL void *blk_init_queue(void *request_fn, void *lock) {
  return crace_request_queue();
}
CRACE_MODEL void *blk_init_queue_node(void *request_fn, void *lock, int node) {
  return crace_request_queue();
}
CRACE_MODEL void *blk_alloc_queue(unsigned gfp) { return crace_request_queue(); }
CRACE_MODEL void blk_queue_make_request(void *q, void *make_request_fn) {
  crace_write_object(q);
}
/* Marks the queue dying, drains it (a wait: a no-op) and drops the
   driver's reference (the queue lives on while the disk holds one). */
CRACE_MODEL void blk_cleanup_queue(void *q) { crace_write_object(q); }
/* Queue limits: fields of the queue (q->limits). */
CRACE_MODEL int blk_queue_max_segments(void *q, int n) {
  crace_write_object(q);
  return 0;
}
CRACE_MODEL int blk_queue_max_segment_size(void *q, int n) {
  crace_write_object(q);
  return 0;
}
CRACE_MODEL int blk_queue_max_hw_sectors(void *q, int n) {
  crace_write_object(q);
  return 0;
}
CRACE_MODEL int blk_queue_logical_block_size(void *q, int n) {
  crace_write_object(q);
  return 0;
}

/* ---- Workqueues ----------------------------------------------------------- */

/* INIT_WORK/INIT_DELAYED_WORK (functions in WHOOP's model, called
   implicitly declared; macros in the kernel): a plain initialisation of
   the work item (its first two words, what WHOOP's struct work_struct
   holds). The work function is an entry point (OpsTable.def). */
CRACE_MODEL int INIT_DELAYED_WORK(void *work, void *fn) {
  __crace_write(work, 2 * sizeof(void *));
  crace_register_in(&__crace_linux_registered_work_struct, work);
  return 0;
}
CRACE_MODEL int INIT_WORK(void *work, void *fn) {
  __crace_write(work, 2 * sizeof(void *));
  crace_register_in(&__crace_linux_registered_work_struct, work);
  return 0;
}
/* Queueing sets the pending bit atomically; the result says whether the
   work was queued (false: it was pending already). */
CRACE_MODEL _Bool schedule_work(void *work) {
  crace_handed_back(&__crace_linux_registered_work_struct, work);
  return __crace_nondet_int() != 0;
}
CRACE_MODEL int schedule_delayed_work(void *dwork, unsigned long delay) {
  crace_handed_back(&__crace_linux_registered_work_struct, dwork);
  return __crace_nondet_int() != 0;
}
CRACE_MODEL int queue_work(void *wq, void *work) {
  crace_handed_back(&__crace_linux_registered_work_struct, work);
  return __crace_nondet_int() != 0;
}
CRACE_MODEL int queue_delayed_work(void *wq, void *dwork, unsigned long delay) {
  crace_handed_back(&__crace_linux_registered_work_struct, dwork);
  return __crace_nondet_int() != 0;
}
CRACE_MODEL int mod_delayed_work(void *wq, void *dwork, unsigned long delay) {
  crace_handed_back(&__crace_linux_registered_work_struct, dwork);
  return __crace_nondet_int() != 0;
}
/* Cancelling clears the pending bit; the _sync variants and flush wait
   for the work function to finish: no-ops (the work function is then
   assumed to possibly run on concurrently, the conservative direction). */
CRACE_MODEL _Bool cancel_work_sync(void *work) {
  crace_state_bits(work);
  return __crace_nondet_int() != 0;
}
CRACE_MODEL int cancel_delayed_work_sync(void *dwork) {
  crace_state_bits(dwork);
  return __crace_nondet_int() != 0;
}
CRACE_MODEL int cancel_delayed_work(void *dwork) {
  crace_state_bits(dwork);
  return __crace_nondet_int() != 0;
}
CRACE_MODEL int flush_work(void *work) {
  crace_state_bits(work);
  return __crace_nondet_int() != 0;
}
CRACE_MODEL int flush_delayed_work(void *dwork) {
  crace_state_bits(dwork);
  return __crace_nondet_int() != 0;
}
CRACE_MODEL int flush_scheduled_work(void) { return 0; }
/* Workqueues are opaque kernel objects the driver never reads or writes
   itself: a fresh object or NULL; flushing waits (no-op), destroying
   waits and frees kernel memory. */
#define CRACE_WORKQUEUE_SIZE 64
CRACE_MODEL void *alloc_ordered_workqueue(const char *fmt, unsigned flags) {
  return crace_zalloc_or_null(CRACE_WORKQUEUE_SIZE);
}
CRACE_MODEL void *alloc_workqueue(const char *fmt, unsigned flags, int max_active) {
  return crace_zalloc_or_null(CRACE_WORKQUEUE_SIZE);
}
CRACE_MODEL void *create_singlethread_workqueue(const char *name) {
  return crace_zalloc_or_null(CRACE_WORKQUEUE_SIZE);
}
CRACE_MODEL void *create_workqueue(const char *name) {
  return crace_zalloc_or_null(CRACE_WORKQUEUE_SIZE);
}
CRACE_MODEL int flush_workqueue(void *wq) { return 0; }
CRACE_MODEL int destroy_workqueue(void *wq) { return 0; }

/* ---- Tasklets ------------------------------------------------------------- */

/* tasklet_init's function is an entry point (OpsTable.def); its data is
   handed back to it, like setup_timer's. */
CRACE_MODEL int tasklet_init(void *t, void *fn, unsigned long data) {
  __crace_write(t, 2 * sizeof(void *));
  crace_subsys_register((void *)data);
  return 0;
}
CRACE_MODEL int tasklet_schedule(void *t) {
  crace_state_bits(t);
  return 0;
}
CRACE_MODEL int tasklet_hi_schedule(void *t) {
  crace_state_bits(t);
  return 0;
}
/* Waits for the tasklet to finish: a no-op. */
CRACE_MODEL int tasklet_kill(void *t) {
  crace_state_bits(t);
  return 0;
}

/* ---- NAPI ----------------------------------------------------------------- */

/* netif_napi_add initialises the NAPI context (state, weight, dev: the
   three words of WHOOP's struct napi_struct); poll is an entry point
   (OpsTable.def). */
CRACE_MODEL void netif_napi_add(void *dev, void *napi, void *poll, int weight) {
  __crace_write(napi, 3 * sizeof(void *));
  crace_register_in(&__crace_linux_registered_napi_struct, napi);
}
CRACE_MODEL void netif_napi_del(void *napi) {
  __crace_write(napi, 3 * sizeof(void *));
}
/* State bits, set and cleared atomically. napi_disable also waits for a
   running poll to finish: a no-op. */
CRACE_MODEL void napi_enable(void *napi) { crace_state_bits(napi); }
CRACE_MODEL void napi_disable(void *napi) { crace_state_bits(napi); }
CRACE_MODEL void napi_schedule(void *napi) { crace_handed_back(&__crace_linux_registered_napi_struct, napi); }
CRACE_MODEL void __napi_schedule(void *napi) { crace_handed_back(&__crace_linux_registered_napi_struct, napi); }
CRACE_MODEL int napi_schedule_prep(void *napi) {
  crace_handed_back(&__crace_linux_registered_napi_struct, napi);
  return __crace_nondet_int() != 0;
}
CRACE_MODEL void napi_complete(void *napi) { crace_state_bits(napi); }
CRACE_MODEL void __napi_complete(void *napi) { crace_state_bits(napi); }

/* ---- sk_buffs and network statistics -------------------------------------- */

/* Freeing an sk_buff, like kfree. */
CRACE_MODEL void consume_skb(void *skb) {
  if (skb)
    __crace_free(skb);
}
CRACE_MODEL void kfree_skb(void *skb) {
  if (skb)
    __crace_free(skb);
}
CRACE_MODEL int dev_kfree_skb_any(void *skb) {
  if (skb)
    __crace_free(skb);
  return 0;
}
CRACE_MODEL int dev_kfree_skb_irq(void *skb) {
  if (skb)
    __crace_free(skb);
  return 0;
}
/* A new sk_buff header sharing the data: the original is read (copied)
   and written (its cloned bit, whose offset is unknown here: the whole
   header); NULL when the allocation fails. */
CRACE_MODEL void *skb_clone(void *skb, unsigned gfp) {
  crace_size_t n = __crace_object_size(skb);
  crace_write_object(skb);
  if (__crace_nondet_int())
    return (void *)0;
  void *c = __crace_alloc(n);
  __builtin_memcpy(c, skb, n);
  return c;
}
/* Copies struct net_device_stats (23 unsigned longs) into struct
   rtnl_link_stats64 (23 u64). */
CRACE_MODEL int netdev_stats_to_stats64(void *stats64, const void *stats) {
  __crace_read(stats, 23 * sizeof(unsigned long));
  __crace_write(stats64, 23 * 8);
  return 0;
}

/* ---- Platform devices ----------------------------------------------------- */

/* A platform device (kzalloc'd with its name; the kernel's release frees
   it) or NULL. Once added, the kernel hands it to the platform driver's
   callbacks, so it is registered (REGISTERED_TYPE platform_device). */
#define CRACE_PLATFORM_DEVICE_SIZE 4096
CRACE_MODEL void *platform_device_alloc(const char *name, int id) {
  return crace_zalloc_or_null(CRACE_PLATFORM_DEVICE_SIZE);
}
CRACE_MODEL int platform_device_add(void *pdev) {
  crace_write_object(pdev);
  crace_subsys_register(pdev);
  return __crace_nondet_int() ? -12 : 0;
}
CRACE_MODEL int platform_device_del(void *pdev) {
  if (pdev)
    crace_write_object(pdev);
  return 0;
}
CRACE_MODEL int platform_device_put(void *pdev) {
  if (pdev)
    __crace_free(pdev);
  return 0;
}
CRACE_MODEL int platform_device_unregister(void *pdev) {
  if (pdev) {
    crace_write_object(pdev);
    __crace_free(pdev);
  }
  return 0;
}
/* platform_device_register_simple: alloc + add; an ERR_PTR on failure. */
void *ERR_PTR(long e);
CRACE_MODEL void *platform_device_register_simple(const char *name, int id,
                                                  const void *res, unsigned n) {
  if (__crace_nondet_int())
    return ERR_PTR(-12);
  void *p = __crace_alloc(CRACE_PLATFORM_DEVICE_SIZE);
  __crace_write(p, CRACE_PLATFORM_DEVICE_SIZE);
  crace_subsys_register(p);
  return p;
}

/* ---- USB ------------------------------------------------------------------ */

/* A synchronous control transfer: the data buffer is written for an IN
   request (bit 7 of requesttype), read for an OUT one. */
CRACE_MODEL int usb_control_msg(void *dev, unsigned pipe, unsigned char request,
                                unsigned char requesttype, unsigned short value,
                                unsigned short index, void *data,
                                unsigned short size, int timeout) {
  if (size) {
    if (requesttype & 0x80)
      __crace_write(data, size);
    else
      __crace_read(data, size);
  }
  return __crace_nondet_int();
}

/* ---- proc files ----------------------------------------------------------- */

/* read_proc is an entry point (OpsTable.def); data is handed back to it. */
CRACE_MODEL void *create_proc_read_entry(const char *name, int mode, void *parent,
                                         void *read_proc, void *data) {
  crace_subsys_register(data);
  return crace_zalloc_or_null(64);
}

/* ---- NFC ------------------------------------------------------------------ */

/* A struct nfc_dev (kzalloc'd by the kernel) or NULL; registering hands it
   to the nfc_ops callbacks (REGISTERED_TYPE nfc_dev). */
#define CRACE_NFC_DEV_SIZE 4096
CRACE_MODEL void *nfc_allocate_device(void *ops, unsigned protocols,
                                      int tx_headroom, int tx_tailroom) {
  return crace_zalloc_or_null(CRACE_NFC_DEV_SIZE);
}
CRACE_MODEL int nfc_register_device(void *dev) {
  crace_write_object(dev);
  crace_subsys_register(dev);
  return __crace_nondet_int() ? -12 : 0;
}
CRACE_MODEL void nfc_unregister_device(void *dev) { crace_write_object(dev); }
/* Events the driver reports: the core updates fields of the nfc_dev
   (dep_link_up, rf_mode, polling, active_target, remote_gb, ...) and reads
   the driver's general bytes. */
CRACE_MODEL int nfc_tm_activated(void *dev, unsigned protocol, unsigned char comm_mode,
                                 const unsigned char *gb, crace_size_t gb_len) {
  crace_write_object(dev);
  if (gb_len)
    __crace_read(gb, gb_len);
  return __crace_nondet_int();
}
CRACE_MODEL int nfc_dep_link_is_up(void *dev, unsigned target_idx,
                                   unsigned char comm_mode, unsigned char rf_mode) {
  crace_write_object(dev);
  return __crace_nondet_int();
}
CRACE_MODEL int nfc_set_remote_general_bytes(void *dev, const unsigned char *gt,
                                             unsigned char gt_len) {
  crace_write_object(dev);
  if (gt_len)
    __crace_read(gt, gt_len);
  return __crace_nondet_int();
}
/* The local general bytes live in the kernel's LLCP state (at most 48). */
static unsigned char crace_nfc_local_gb[48];
CRACE_MODEL unsigned char *nfc_get_local_general_bytes(void *dev, crace_size_t *gb_len) {
  __crace_read(dev, __crace_object_size(dev));
  *gb_len = (crace_size_t)(__crace_nondet_int() & 31) + 1;
  return crace_nfc_local_gb;
}
