// RUN: %crace --driver --verify --engine=lockset %s -- -I %S/Inputs
// Block devices: the request function registered with blk_init_queue is an
// entry point (it races with the ioctl on 'requests' unless both lock);
// set_capacity writes the disk's capacity, get_capacity reads it; alloc_disk,
// add_disk, del_gendisk, put_disk, blk_cleanup_queue and the queue limits are
// modelled, so no unknown function is left. The queue blk_init_queue returns
// is what the request function gets: its queuedata is the driver's host, whose
// unlocked write races with the ioctl's locked one.
// RUN: %crace --driver --list-entry-points %s -- -I %S/Inputs | %FileCheck --check-prefix=LIST %s
// LIST: entry point do_request [entry]: blk_init_queue() callback at prim_blk.c:{{[0-9]+}}
// RUN: %not %crace --driver --engine=lockset %s -- -I %S/Inputs | %FileCheck --check-prefix=KNOWN %s
// KNOWN: crace: verdict: possible-race
// KNOWN-NOT: unknown external function
// expected-verdict: possible-race
#include "subsys.h"
static spinlock_t lock;
static struct gendisk *disk;
static struct request_queue *queue;
static int requests, served;
struct host { int busy; };
static struct host *host;
static unsigned long long last;
static void do_request(struct request_queue *q) {
  struct host *h = q->queuedata;
  requests++;                              // expected-race
  h->busy = 1;                             // expected-race
  last = get_capacity(disk);               // expected-race
  spin_lock(&lock);
  served++;
  spin_unlock(&lock);
}
static int blk_ioctl(struct block_device *b, fmode_t m, unsigned cmd,
                     unsigned long arg) {
  requests = 0;                            // expected-race
  set_capacity(disk, arg);                 // expected-race
  spin_lock(&lock);
  served = 0;
  host->busy = 0;                          // expected-race
  spin_unlock(&lock);
  return 0;
}
static const struct block_device_operations bops = {.ioctl = blk_ioctl};
static int init(void) {
  host = kzalloc(sizeof *host, GFP_KERNEL);
  if (!host)
    return -12;
  disk = alloc_disk(1);
  if (!disk)
    return -12;
  queue = blk_init_queue(do_request, &lock);
  if (!queue) {
    put_disk(disk);
    return -12;
  }
  blk_queue_max_segments(queue, 1);
  queue->queuedata = host;
  disk->queue = queue;
  disk->fops = &bops;
  set_capacity(disk, 2880);
  add_disk(disk);
  return 0;
}
static void cleanup(void) {
  del_gendisk(disk);
  put_disk(disk);
  blk_cleanup_queue(queue);
}
module_init(init);
module_exit(cleanup);
