// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// One writer (main, after creating the readers) and three reader threads
// of one atomic variable: each read before or after the store.
// Mazurkiewicz traces: 2^3 = 8.
// Four threads: the first iterative-deepening level, a probe of at most 3
// threads where main's third creation parks its thread and main goes on,
// contributes 4 of the executions (main's store against the first two
// readers: 2^2 traces; 1 of the 2 with PDP).
// Without PDP, 12 executions for 8 traces (4 runs of the probe): one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 12.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 2.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
void *r(void *p) { return (void *)(long)atomic_load(&x); }
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, r, 0);
  pthread_create(&b, 0, r, 0);
  pthread_create(&c, 0, r, 0);
  atomic_store(&x, 1);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return 0;
}
