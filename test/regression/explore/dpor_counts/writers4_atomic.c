// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// Four writers of one atomic variable: three threads and main (after it
// created them); as writers3_atomic, a trace is an order of the stores.
// Mazurkiewicz traces: 4! = 24.
// With four threads the explore engine's first iterative-deepening level
// (at most 3 threads: a probe where main's third creation parks its
// thread and main goes on to its store) runs before the complete search
// and its executions are counted too: 6 of the 30 (3! orders of two
// threads' stores and main's; 1 of the 2 with PDP).
// Without PDP, 30 executions for 24 traces (6 runs of the probe): one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 30.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 2.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
#include <stdatomic.h>
atomic_int x;
void *w(void *p) { atomic_store(&x, (int)(long)p); return 0; }
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, w, (void *)1);
  pthread_create(&b, 0, w, (void *)2);
  pthread_create(&c, 0, w, (void *)3);
  atomic_store(&x, 4);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return 0;
}
