// RUN: %crace --verify --engine=kiss --kiss-max=1 %s
// RUN: %not %crace --engine=kiss --kiss-max=1 %s | %FileCheck %s
// Every access is under the lock: no race is found, and since KISS covers
// only balanced executions the verdict is unknown, never race-free.
// expected-verdict: unknown
// CHECK: verdict: unknown
// CHECK: kiss: no race in the executions KISS explores (balanced executions, ts size 1, unwind 8); this does not prove race freedom
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;
void *t(void *p) {
  pthread_mutex_lock(&m);
  x = x + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t, 0);
  pthread_create(&h2, 0, t, 0);
  pthread_mutex_lock(&m);
  x = 0;
  pthread_mutex_unlock(&m);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  return x;
}
