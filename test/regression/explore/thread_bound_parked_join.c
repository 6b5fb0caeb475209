// RUN: %crace --verify --engine=explore --max-threads=4 %s
// RUN: %not %crace --engine=explore --max-threads=4 %s 2>&1 | %FileCheck %s
// main joins every worker before it writes x: no race. In the search's
// first probe (3 threads) the last workers are parked (they do not run),
// so main waits for good at the first join of a parked thread: not a
// deadlock, no race, and no proof either (the runs with those workers
// were not explored).
// expected-verdict: unknown
// CHECK-NOT: deadlock
// CHECK: verdict: unknown
// CHECK-NOT: deadlock
// CHECK: thread bound of 4 reached (--max-threads): runs with more threads were not explored
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, sum;
void *worker(void *p) {
  pthread_mutex_lock(&m);
  sum += x;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[10];
  for (int i = 0; i < 10; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 10; i++)
    pthread_join(t[i], 0);
  x = 1;
  return sum;
}
