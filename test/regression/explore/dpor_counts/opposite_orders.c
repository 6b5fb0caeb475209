// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// Two threads write two atomic variables in opposite orders: t1 writes x
// then y, main writes y then x. Dependent pairs: the two x stores and the
// two y stores, 2 x 2 orientations, but "main's x store before t1's" with
// "t1's y store before main's" is a cycle (t1:x < t1:y < main:y < main:x
// < t1:x), so it is infeasible.
// Mazurkiewicz traces: 4 - 1 = 3.
// Without PDP, 3 executions for 3 traces: one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 3.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 1.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
#include <stdatomic.h>
atomic_int x, y;
void *t1(void *p) {
  atomic_store(&x, 1);
  atomic_store(&y, 1);
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t1, 0);
  atomic_store(&y, 2);
  atomic_store(&x, 2);
  pthread_join(a, 0);
  return 0;
}
