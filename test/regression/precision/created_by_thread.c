// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// A thread created by another thread exists only after main created that
// one: main's write before creating the spawner is ordered before the
// grandchild's read, though a logger thread already runs.
// expected-verdict(lockset): race-free
// expected-verdict(explore): race-free
#include <pthread.h>
int config, logged;
static void *logger(void *a) { logged = 1; return 0; }
static void *grandchild(void *a) { return (void *)(long)config; }
static void *spawner(void *a) {
  pthread_t g;
  pthread_create(&g, 0, grandchild, 0);
  pthread_join(g, 0);
  return 0;
}
int main(void) {
  pthread_t l, s;
  pthread_create(&l, 0, logger, 0);
  config = 5;
  pthread_create(&s, 0, spawner, 0);
  pthread_join(s, 0);
  pthread_join(l, 0);
  return logged;
}
