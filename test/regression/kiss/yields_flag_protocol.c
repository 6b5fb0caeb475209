// RUN: %crace --verify --engine=kiss --kiss-yields=racy --kiss-max=1 %s
// RUN: %crace --verify --engine=kiss --kiss-yields=all --kiss-max=1 %s
// Yield-MR keeps the schedule points of atomic accesses (synchronisation
// the lockset analysis does not see) and of the accesses it cannot prove:
// the race on 'data' needs main to run between the worker's two steps,
// the release of the flag and the write, and is found with both
// placements.
// expected-verdict: race
#include <pthread.h>
#include <stdatomic.h>
atomic_int ready;
int data;
void *worker(void *arg) {
  atomic_store(&ready, 1);
  data = 2;                                         // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int v = 0;
  if (atomic_load(&ready))
    v = data;                                       // expected-race(kiss)
  pthread_join(t, 0);
  return v;
}
