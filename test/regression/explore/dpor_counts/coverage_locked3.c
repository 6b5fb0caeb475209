// RUN: %crace --engine=explore --all-races --no-pdp --stats %s > %t
// RUN: %FileCheck --check-prefix=DPOR %s < %t
// RUN: %FileCheck --check-prefix=COVER %s < %t
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Coverage check for locked3.c (README.md in this folder): an execution
// count at or above the trace count does not show that every trace was
// reached, so here each of the 3! = 6 Mazurkiewicz traces (orders of the
// critical sections) leaves its own value in `order` and fails its own
// assertion. Plain DPOR must report all six assertion lines (COVER, in any
// order).
// Executions: locked3's 8 plus 5 lockset-hint replays (main reads `order`
// unlocked after the joins), 13 in all.
// PDP prunes subspaces that cannot race, not those where an assertion
// fails: it reaches one order only (3 executions, 1 of them a hint replay).
// DPOR: crace: verdict: race-free (6 findings,
// DPOR: executions 13.00{{$}}
// DPOR: race_hints_tried 5.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 3.00{{$}}
// PDP: complete 1.00
#include <assert.h>
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int order;
void *incr(void *p) {
  pthread_mutex_lock(&m);
  order = order * 10 + (int)(long)p;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, incr, (void *)1);
  pthread_create(&b, 0, incr, (void *)2);
  pthread_create(&c, 0, incr, (void *)3);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  assert(order != 123); // COVER-DAG: assertion fails in some run at {{.*}}coverage_locked3.c:[[@LINE]]:3
  assert(order != 132); // COVER-DAG: assertion fails in some run at {{.*}}coverage_locked3.c:[[@LINE]]:3
  assert(order != 213); // COVER-DAG: assertion fails in some run at {{.*}}coverage_locked3.c:[[@LINE]]:3
  assert(order != 231); // COVER-DAG: assertion fails in some run at {{.*}}coverage_locked3.c:[[@LINE]]:3
  assert(order != 312); // COVER-DAG: assertion fails in some run at {{.*}}coverage_locked3.c:[[@LINE]]:3
  assert(order != 321); // COVER-DAG: assertion fails in some run at {{.*}}coverage_locked3.c:[[@LINE]]:3
  return 0;
}
