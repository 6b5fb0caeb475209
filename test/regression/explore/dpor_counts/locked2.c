// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// Two threads increment a counter under one mutex (bench's incr, N=2).
// Lock and unlock of one mutex are dependent, the critical sections cannot
// overlap, and the counter's accesses follow the lock order: a trace is an
// order of the critical sections.
// Mazurkiewicz traces: 2! = 2 (bench/results/pdp_vs_dpor.md has incr N=2).
// A lock is not reversed with the release of the mutex by its holder
// (never enabled together) but with the holder's acquisition.
// Without PDP, 2 executions for 2 traces: one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 2.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 1.00{{$}}
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
  pthread_t a, b;
  pthread_create(&a, 0, incr, 0);
  pthread_create(&b, 0, incr, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
