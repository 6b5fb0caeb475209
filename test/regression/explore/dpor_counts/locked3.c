// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// Three threads increment a counter under one mutex (bench's incr, N=3): a
// trace is an order of the three critical sections.
// Mazurkiewicz traces: 3! = 6 (bench/results/pdp_vs_dpor.md has incr N=3).
// Four threads: the first iterative-deepening level (at most 3 threads)
// contributes 2 of the executions (1 of the 2 with PDP).
// Without PDP, 8 executions for 6 traces (2 runs of the first level): one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 8.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 2.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;
void *incr(void *p) {
  pthread_mutex_lock(&m);
  counter = counter + 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, incr, 0);
  pthread_create(&b, 0, incr, 0);
  pthread_create(&c, 0, incr, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return 0;
}
