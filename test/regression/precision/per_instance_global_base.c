// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DMOVE | %FileCheck %s --check-prefix=MOVE
// RUN: %not %crace --engine=lockset %s -- -DLATE | %FileCheck %s --check-prefix=LATE
// Each worker gets &w[i], where w is a global pointer main reads again in
// every iteration of the creation loop (aget's wthread). No write changes
// w while a worker runs, so every instance reads one base and its own cell
// (analysis/InstanceMemory.h, the Strided shape). The worker's strlen of
// its name member reads only that array. main fills w[i] before the create
// that hands it out (it re-reads w for that too): no instance has that cell
// yet. With LATE it fills the cell after the create, a real race. With
// MOVE, main moves w back one cell after each create: every worker gets the
// same cell, a real race.
// expected-verdict: race-free
// MOVE: possible data race on 'struct job
// LATE: possible data race on 'struct job
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
struct job {
  int offset;
  char name[12];
};
struct job *w;
static void *get(void *arg) {
  struct job *j = arg;
  j->name[0] = 'a';
  j->offset += (int)strlen(j->name);
  return 0;
}
int main(void) {
  struct job *blk = calloc(8, sizeof *blk);
  if (!blk)
    return 1;
  pthread_t t[4];
  w = blk + 4;
  for (int i = 0; i < 4; i++) {
#ifndef LATE
    w[i].offset = i;
#endif
    pthread_create(&t[i], 0, get, w + i);
#ifdef LATE
    w[i].offset = i;
#endif
#ifdef MOVE
    w = w - 1;
#endif
  }
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], 0);
  return 0;
}
