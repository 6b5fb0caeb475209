// RUN: %crace --verify --engine=explore %s
// RUN: %crace --verify --engine=lockset %s
// Message passing through an atomic flag: the data is written before the
// release store and read after the acquire load saw it, so the plain
// accesses are never enabled together (race-free under sequential
// consistency); the lockset engine cannot see this order.
// expected-verdict(explore): race-free
// expected-verdict(lockset): possible-race
#include <pthread.h>
#include <stdatomic.h>
atomic_int ready;
int data;
void *producer(void *p) {
  data = 42;                                        // expected-race(lockset)
  atomic_store(&ready, 1);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!atomic_load(&ready))
    ;
  int v = data;                                     // expected-race(lockset)
  pthread_join(t, 0);
  return v;
}
