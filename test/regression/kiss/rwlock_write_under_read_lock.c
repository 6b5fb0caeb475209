// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss %s | %FileCheck %s
// A write under a read lock: read locks are shared, so both threads may
// hold l and update x at once. The runtime keeps readers in their own
// table (readers exclude writers, not each other); with rdlock as an
// exclusive lock the race was hidden ("no race in the executions KISS
// explores").
// expected-verdict: race
// CHECK: data race on 'x'
// CHECK: rdlock
// CHECK: verdict: race
#include <pthread.h>
pthread_rwlock_t l = PTHREAD_RWLOCK_INITIALIZER;
int x;
void *w(void *a) {
  pthread_rwlock_rdlock(&l);
  x++;                                              // expected-race(kiss)
  pthread_rwlock_unlock(&l);
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, 0);
  pthread_create(&b, 0, w, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return x;
}
