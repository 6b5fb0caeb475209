// RUN: %crace --verify --engine=lockset %s
// A pointer stored as its distance from a base and rebased later by adding
// the base back (memcached's restart_fixup: `it->next = (item *)((mc_ptr_t)
// it->next - (mc_ptr_t)orig_addr)`, then `+ (mc_ptr_t)mmap_base`). The
// distance cast to a pointer is no object's address: the rebased link
// points into the worker's own block, not to memory of unknown origin, so
// the worker's write through it cannot reach `spare`, which main hands to
// code crace cannot see (hence unknown) and writes while the worker runs.
// expected-verdict: unknown
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

struct item {
  struct item *next;
  int val;
};
static struct item spare;
void keep(struct item *);

static void *worker(void *arg) {
  struct item *a = malloc(2 * sizeof *a);
  if (!a)
    return 0;
  a[0].next = &a[1];
  a[0].next = (struct item *)((uintptr_t)a[0].next - (uintptr_t)a);
  a[0].next = (struct item *)((uintptr_t)a[0].next + (uintptr_t)a);
  a[0].next->val = 1;
  free(a);
  return 0;
}

int main(void) {
  pthread_t t;
  keep(&spare);
  pthread_create(&t, 0, worker, 0);
  spare.val = 2;
  pthread_join(t, 0);
  return 0;
}
