// RUN: %not %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %not %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// Two threads write one plain variable: a race (--all-races keeps the
// search going after it, so the count is the whole search's). As in
// writers2_atomic the two stores are the only dependent pair.
// Mazurkiewicz traces: 2! = 2.
// Without PDP, 2 executions for 2 traces: one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race (
// DPOR: executions 2.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race (
// PDP: executions 2.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
int x;
void *w(void *p) { x = (int)(long)p; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, w, (void *)1);
  pthread_create(&b, 0, w, (void *)2);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
