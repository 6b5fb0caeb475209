// RUN: %crace --verify --engine=explore %s
// RUN: %crace --engine=explore --stats %s | %FileCheck --check-prefix=PDP %s
// RUN: %crace --engine=explore --no-pdp --max-executions=200 --stats %s > %t.nopdp || true
// RUN: %FileCheck --check-prefix=NOPDP %s < %t.nopdp
// Two threads update a counter many times under a mutex. Without pruning,
// DPOR explores every order of the critical sections (far too many); with
// property-driven pruning every backtrack point is skipped because the
// static lockset analysis shows the subspace below it race-free.
// expected-verdict: race-free
// PDP: crace: verdict: race-free
// PDP: pdp_pruned_backtracks {{[1-9]}}
// NOPDP: crace: verdict: unknown
// NOPDP: execution bound of 200 reached
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;
void *worker(void *p) {
  for (int i = 0; i < 50; i++) {
    pthread_mutex_lock(&m);
    counter++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return counter;
}
