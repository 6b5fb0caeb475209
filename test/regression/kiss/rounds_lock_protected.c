// RUN: %not %crace --engine=kiss --rounds=2 %s | %FileCheck %s
// Every access is under the lock, which is part of the state copied per
// round (a lock held across a context switch stays held in the next
// rounds): --rounds finds no race and answers unknown, never race-free.
// CHECK: verdict: unknown
// CHECK: kiss: no race in the executions KISS explores (2-round round-robin executions, at most 4 created threads scheduled, unwind 8); this does not prove race freedom
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
