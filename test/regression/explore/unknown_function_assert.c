// RUN: %crace --verify --engine=explore %s
// RUN: not %crace --engine=explore %s 2>&1 | FileCheck %s
// An assertion that fails only for some result of a function without a
// body: explore reaches it in a run that depends on that result, so the
// failure is not confirmed (no assertion finding, a reason instead). The
// counter is locked: no race either, and no proof (unknown).
// expected-verdict: unknown
// CHECK-NOT: assertion fails
// CHECK: verdict: unknown
// CHECK: an assertion may fail at {{.*}}unknown_function_assert.c:23
// CHECK-NOT: assertion fails
#include <assert.h>
#include <pthread.h>
int sensor_read(void);
int total;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
  int v = sensor_read();
  pthread_mutex_lock(&m);
  total += v;
  pthread_mutex_unlock(&m);
  assert(v != 0);
  return 0;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, 0, worker, 0);
  pthread_mutex_lock(&m);
  total = 1;
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  return 0;
}
