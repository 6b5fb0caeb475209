// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Shapes close to per-instance memory (per_instance_*.c) that are not: each
// race here must stay reported (analysis/InstanceMemory.h).
// - 'nested': created in a loop inside a loop, so indices repeat;
// - 'direct': also called by main itself, with an argument a thread has;
// - 'moving': indexes through a pointer main changes while threads run;
// - 'neighbour': writes the next cell too, not only its own; main writes
//   the previous cell before the create, and the cell after it;
// - 'late': main writes the block after handing it to the thread.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
int grid[4];
int row[4];
int *moving_base;
void *nested(void *arg) {
  grid[(int)(long)arg] += 1; // expected-race
  return 0;
}
void *direct(void *arg) {
  row[(int)(long)arg] = 1; // expected-race
  return 0;
}
void *moving(void *arg) {
  moving_base[(int)(long)arg] = 2; // expected-race
  return 0;
}
void *neighbour(void *arg) {
  int *p = arg;
  p[0] = 3; // expected-race
  p[1] = 3; // expected-race
  return 0;
}
struct box {
  int v;
};
void *late(void *arg) {
  struct box *b = arg;
  b->v = 4; // expected-race
  return 0;
}
int main(void) {
  pthread_t t[16];
  int n = 0;
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < 2; i++)
      pthread_create(&t[n++], 0, nested, (void *)(long)i);
  for (int i = 0; i < 2; i++)
    pthread_create(&t[n++], 0, direct, (void *)(long)i);
  direct((void *)0L);
  int *cells = calloc(4, sizeof *cells);
  moving_base = cells;
  for (int i = 0; i < 2; i++) {
    pthread_create(&t[n++], 0, moving, (void *)(long)i);
    moving_base = cells + 1; // expected-race
  }
  int *more = calloc(4, sizeof *more);
  for (int i = 0; i < 2; i++) {
    int *m = &more[i];
    if (i)
      m[-1] = 6; // expected-race
    pthread_create(&t[n++], 0, neighbour, m);
    m[0] = 7; // expected-race
  }
  for (int i = 0; i < 2; i++) {
    struct box *b = malloc(sizeof *b);
    pthread_create(&t[n++], 0, late, b);
    b->v = 5; // expected-race
  }
  for (int i = 0; i < n; i++)
    pthread_join(t[i], 0);
  return 0;
}
