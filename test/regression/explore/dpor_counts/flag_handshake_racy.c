// RUN: %not %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %not %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// A racy flag handshake: the producer writes data then flag (plain), main
// reads flag and, if set, data. The race is on flag (--all-races keeps the
// search going). Either main's read of flag is before the flag store (main
// reads 0 and stops: the data accesses are unordered but independent) or
// after it (main then reads data after the data store by program order).
// Mazurkiewicz traces: 2.
// The executions include the race_hints_tried replays of the race hints
// (2 here): 2 of the 4 are DPOR's own (2 of the 4 with PDP too).
// Without PDP, 4 executions for 2 traces (2 race-hint replays): one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race (
// DPOR: executions 4.00{{$}}
// DPOR: race_hints_tried 2.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race (
// PDP: executions 4.00{{$}}
// PDP: race_hints_tried 2.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
int data, flag;
void *producer(void *p) {
  data = 1;
  flag = 1;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, producer, 0);
  int r = -1;
  if (flag)
    r = data;
  pthread_join(a, 0);
  return r;
}
