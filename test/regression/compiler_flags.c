// RUN: %crace --verify --engine=lockset %s
// RUN: %not %crace --engine=lockset %s -- -DUSE_LOCK=0 | %FileCheck %s
// RUN: %crace --verify --engine=explore --all-races %s
// Flags after -- reach the compiler: without the lock the race appears.
// CHECK: warning: possible data race on 'x'
// CHECK: crace: verdict: possible-race
// expected-verdict: race-free
#include <pthread.h>
#ifndef USE_LOCK
#define USE_LOCK 1
#endif
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *p) {
  if (USE_LOCK) pthread_mutex_lock(&m);
  x++;
  if (USE_LOCK) pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
