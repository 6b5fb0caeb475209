// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A char pointer to a struct walks all of its bytes (C11 6.3.2.3p7), not
// only the char array that starts at the same address: `zero(&g, sizeof
// g)` writes 'g.count' too. The points-to analysis confined such a walk
// to 'g.buf' (the innermost byte array around its address), so lockset
// proved this racy program race-free (model/PointsToArrays.cpp:
// endOfObjectAt). Each walk, by p++ and by index, races with main's
// write of 'count'; so does one over a heap block allocated as one struct
// (which has the struct's type, AbsObject::BlockType).
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

struct S {
  char buf[32];
  int count;
} g, h, *k;

static void zero(void *p, size_t n) {
  char *c = p;
  while (n--)
    *c++ = 0; // expected-race
}

static void clear(void *p, size_t n) {
  char *c = p;
  for (size_t i = 0; i < n; i++)
    c[i] = 0; // expected-race
}

static void *worker(void *arg) {
  (void)arg;
  zero(&g, sizeof g);
  clear(&h, sizeof h);
  zero(k, sizeof *k);
  return 0;
}

int main(void) {
  k = malloc(sizeof *k);
  if (!k)
    return 1;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  g.count = 1; // expected-race
  h.count = 2; // expected-race
  k->count = 3; // expected-race
  pthread_join(t, 0);
  return 0;
}
