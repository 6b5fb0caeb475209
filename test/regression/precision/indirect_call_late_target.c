// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=whoop %s
// The points-to analysis meets the call through ops->alloc (in `get`,
// earlier in the module) before it has seen `setup` store the table: its
// targets are empty then, not unknown. Reading that as "unresolved" made
// every result of `get` a pointer of unknown origin, which may reach
// `counter` (and the table), so each worker's write to its own buffer was
// paired with main's unlocked write of `counter`, with the other worker's,
// and with the table. Resolved, the buffers are private heap objects: no
// race.
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
struct ops {
  int *(*alloc)(void);
};
struct ops *table;
int *escaped;
int counter;
int *get(void) { return table->alloc(); }
void *worker(void *a) {
  int *p = get();
  *p = 1;
  free(p);
  return 0;
}
int *alloc_int(void) { return malloc(sizeof(int)); }
struct ops default_ops = {alloc_int};
void setup(void) {
  table = &default_ops;
  escaped = &counter; // a pointer of unknown origin may reach counter
}
int main(void) {
  setup();
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  counter = 2;
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return counter;
}
