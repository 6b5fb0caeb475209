// RUN: %crace --verify --engine=explore %s
// The flag is raised before the data is written: the reader can read the
// data while it is being written.
// expected-verdict: race
#include <pthread.h>
#include <stdatomic.h>
atomic_int ready;
int data;
void *producer(void *p) {
  atomic_store(&ready, 1);
  data = 42;                                        // expected-race
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!atomic_load(&ready))
    ;
  int v = data;                                     // expected-race
  pthread_join(t, 0);
  return v;
}
