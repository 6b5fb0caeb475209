// RUN: %crace --verify --engine=explore %s
// A spin lock built from compare-and-swap protects the counter; the atomic
// operations themselves never race.
// expected-verdict: race-free
#include <pthread.h>
int lock, counter;
void acquire(void) {
  while (!__sync_bool_compare_and_swap(&lock, 0, 1))
    ;
}
void release(void) { __sync_lock_release(&lock); }
void *worker(void *p) {
  acquire();
  counter++;
  release();
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  acquire();
  counter++;
  release();
  pthread_join(t, 0);
  return counter;
}
