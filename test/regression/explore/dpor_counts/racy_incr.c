// RUN: %not %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %not %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// Two threads do a plain unlocked increment (r = x; x = r + 1): a race.
// Dependent pairs: read1/write2, write1/read2, write1/write2 (the reads are
// independent). Of the 6 interleavings, r1 r2 w1 w2 and r2 r1 w1 w2 are one
// trace and so are r1 r2 w2 w1 and r2 r1 w2 w1; the others (r1 w1 r2 w2,
// r2 w2 r1 w1) are a trace each.
// Mazurkiewicz traces: 4.
// The executions include 1 race-hint replay (race_hints_tried): 4 of the
// 5 are DPOR's own (4 of the 5 with PDP too).
// Without PDP, 5 executions for 4 traces (1 race-hint replay): one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race (
// DPOR: executions 5.00{{$}}
// DPOR: race_hints_tried 1.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race (
// PDP: executions 5.00{{$}}
// PDP: race_hints_tried 1.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
int x;
void *incr(void *p) {
  int r = x;
  x = r + 1;
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
