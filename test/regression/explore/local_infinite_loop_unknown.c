// RUN: %crace --verify --engine=explore --no-pdp %s
// RUN: not %crace --engine=explore --no-pdp %s 2>&1 | FileCheck %s
// The same loop after a correctly locked update: no race, but a thread
// taken as looping for good might have done more in a longer finite loop,
// so the search is not exhaustive: unknown, with the place of the loop
// (and main, waiting for it forever, is not reported as deadlocked).
// expected-verdict: unknown
// CHECK: verdict: unknown
// CHECK: without a visible operation at {{.*}}local_infinite_loop_unknown.c:{{[0-9]+}}
// CHECK-NOT: instruction bound
// CHECK-NOT: deadlock
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int g;
void *worker(void *p) {
  pthread_mutex_lock(&m);
  g = g + 1;
  pthread_mutex_unlock(&m);
  volatile int i = 0;
  while (1)
    i++;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  g = g + 1;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
