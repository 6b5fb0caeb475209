// RUN: %crace --engine=explore --all-races --no-pdp --stats %s | %FileCheck --check-prefix=DPOR %s
// RUN: %crace --engine=explore --all-races --stats %s | %FileCheck --check-prefix=PDP %s
// Exact DPOR execution count (Nidhugg-style; README.md in this folder).
// A small indexer (Flanagan-Godefroid, POPL 2005): three inserters into a
// hash table of 4 slots by compare-and-swap with linear probing; t1 and
// main hash to slot 0, t2 to slot 1. The CASes on slot 0 are ordered one
// way or the other (2); the loser then probes slot 1, where its CAS and
// t2's are ordered one way or the other (2); whoever loses there takes
// slot 2 alone.
// Mazurkiewicz traces: 2 * 2 = 4.
// Without PDP, 4 executions for 4 traces: one per trace.
// The test pins the exact figures so that any change is noticed.
// DPOR: crace: verdict: race-free (
// DPOR: executions 4.00{{$}}
// DPOR: race_hints_tried 0.00{{$}}
// DPOR: complete 1.00
// PDP: crace: verdict: race-free (
// PDP: executions 1.00{{$}}
// PDP: race_hints_tried 0.00{{$}}
// PDP: complete 1.00
#include <pthread.h>
#define SIZE 4
int table[SIZE];
void insert(int h, int v) {
  while (!__sync_bool_compare_and_swap(&table[h], 0, v))
    h = (h + 1) % SIZE;
}
void *t1(void *p) { insert(0, 1); return 0; }
void *t2(void *p) { insert(1, 2); return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t1, 0);
  pthread_create(&b, 0, t2, 0);
  insert(0, 3);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
