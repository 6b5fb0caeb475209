// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// A copy of 16 bytes from a place in a buffer crace does not know (as
// memcached's `memcpy(&c->binary_header, c->rcurr, 24)`) lands in the 16
// bytes it writes, not anywhere in the destination: the pointer to
// `shared` somewhere in pool does not reach msg.counter, so the worker's
// counter is its own, and only main touches `shared` while it runs.
// expected-verdict(lockset): race-free
// expected-verdict(explore): race-free
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
struct msg {
  char hdr[16];
  long *counter;
};
long shared, own;
char pool[64];
int where;
static void *worker(void *x) {
  struct msg *m = malloc(sizeof *m);
  if (!m)
    return 0;
  m->counter = &own;
  memcpy(m->hdr, pool + where, sizeof m->hdr);
  (*m->counter)++;
  free(m);
  return 0;
}
int main(int argc, char **argv) {
  long *p = &shared;
  where = argc % 32;
  memcpy(pool + (argc % 40), &p, sizeof p);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  shared++;
  pthread_join(t, 0);
  return (int)(shared + own);
}
