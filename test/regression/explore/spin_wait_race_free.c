// RUN: %crace --verify --engine=explore %s
// A waiting loop that only reads the flag: the explore engine recognises
// that another iteration changes nothing, so the search stays finite and
// proves the hand-off race-free.
// expected-verdict: race-free
#include <pthread.h>
#include <stdatomic.h>
atomic_int flag;
int data;
void *waiter(void *p) {
  while (!atomic_load(&flag))
    ;
  return (void *)(long)data;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  data = 7;
  atomic_store(&flag, 1);
  pthread_join(t, 0);
  return 0;
}
