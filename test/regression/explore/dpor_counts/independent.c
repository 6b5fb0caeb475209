// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// Two threads each write and read their own global; no two events of
// different threads are dependent, so every interleaving is one trace.
// Mazurkiewicz traces: 1.
// A join depends on the end of the thread it waits for, but the two are
// never enabled together, so DPOR does not try the join first (before,
// it backtracked to every enabled thread there: 3 executions).
// Without PDP, 1 execution for 1 trace: one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 1.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 1.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
int x, y;
void *t1(void *p) { x = 1; return (void *)(long)x; }
void *t2(void *p) { y = 1; return (void *)(long)y; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
