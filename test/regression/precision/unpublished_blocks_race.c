// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Writes to a fresh block that do race, because its address is already
// out when they run (analysis/Unpublished.h must keep each pair):
//  - 'e': its address is stored in a global before the write;
//  - 'l': allocated once, before the loop, and handed out in the loop's
//    first round, so the later rounds write a block the reader may be
//    reading (the capture reaches the write along the loop's back edge,
//    which does not run the allocation again);
//  - 'h': passed to 'publish', which publishes it and then writes it;
//  - 'k': passed to 'twice' in two arguments; it publishes the block
//    through one before it writes through the other;
//  - 'set0' is handed a fresh block by one call ('m') and a published one
//    by another ('e').
// (The helpers branch, so that crace does not inline them as pointer
// plumbing.)
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
struct box {
  int v[4];
};
struct box *_Atomic a, *_Atomic b, *_Atomic c, *_Atomic d;
static void publish(struct box *x) {
  if (!x)
    return;
  c = x;
  x->v[2] = 6; // expected-race
}
static void twice(struct box *x, struct box *y) {
  if (!x)
    return;
  d = y;
  x->v[3] = 5; // expected-race
}
static void set0(struct box *x) {
  x->v[0] = 8; // expected-race
}
static void *reader(void *arg) {
  int s = 0;
  struct box *x = a, *y = b, *z = c, *w = d;
  if (x)
    s += x->v[0]; // expected-race
  if (y)
    s += y->v[2]; // expected-race
  if (z)
    s += z->v[1] + z->v[2]; // expected-race
  if (w)
    s += w->v[3]; // expected-race
  return (void *)(long)s;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, reader, 0);
  struct box *e = malloc(sizeof *e);
  struct box *l = malloc(sizeof *l);
  struct box *h = malloc(sizeof *h);
  struct box *k = malloc(sizeof *k);
  struct box *m = malloc(sizeof *m);
  if (!e || !l || !h || !k || !m)
    return 1;
  set0(m);
  a = e;
  e->v[0] = 1; // expected-race
  for (int i = 0; i < 4; i++) {
    l->v[i] = i; // expected-race
    if (i == 0)
      b = l;
  }
  publish(h);
  h->v[1] = 7; // expected-race
  twice(k, k);
  set0(e);
  pthread_join(t, 0);
  return 0;
}
