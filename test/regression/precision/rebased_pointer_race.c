// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// The near miss of rebased_pointer.c: the links rebased from distances
// point into a global arena that main writes while the worker runs; the
// rebased pointer keeps the base's object, so the pair is found.
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>
#include <stdint.h>

struct item {
  struct item *next;
  int val;
};
static struct item arena[2];

static void *worker(void *arg) {
  arena[0].next = &arena[1];
  arena[0].next =
      (struct item *)((uintptr_t)arena[0].next - (uintptr_t)arena);
  arena[0].next =
      (struct item *)((uintptr_t)arena[0].next + (uintptr_t)arena);
  arena[0].next->val = 1; // expected-race
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  arena[1].val = 2;
  pthread_join(t, 0);
  return 0;
}
