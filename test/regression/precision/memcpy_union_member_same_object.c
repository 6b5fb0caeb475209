// RUN: %crace --verify --engine=lockset %s
// RUN: %not %crace --engine=lockset %s -- -DPAST_UNION | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=explore %s -- -DPAST_UNION | %FileCheck %s --check-prefix=CONFIRMED
// A copy of variable length into an array member of a union
// (`p->b.u.txt`, as mDNSResponder's `rdata->u.txt.c`) writes no byte past
// the union, and a copy from a pointer whose array crace does not see
// reads no byte past the end of its object. Here both lie in one heap
// block, so before these bounds the copy landed at every offset after
// `b.u` and b.guarded could point to x as well as to y: the worker's
// write through it met main's unlocked write of x. The copy is of
// unknown length, at most 24 bytes for the program to be defined; the
// worker writes only y, under the lock main also holds. PAST_UNION: the
// whole record `a` is copied over `b`, so b.guarded is &x: a real race.
// expected-verdict: race-free
// RACY: possible data race on 'x'
// CONFIRMED: error: data race on 'x'
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct rec {
  int *owner;
  union {
    char txt[16];
    char data[24];
  } u;
  int *guarded;
};
struct pair {
  struct rec a, b;
};
static int x, y;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void settxt(struct pair *p, const char *src, unsigned short n) {
#ifdef PAST_UNION
  memcpy((char *)&p->b, src, n);
#else
  memcpy(p->b.u.txt, src, n);
#endif
}

static void *worker(void *arg) {
  struct pair *p = arg;
  pthread_mutex_lock(&m);
  *p->b.guarded = 1;
  pthread_mutex_unlock(&m);
  return 0;
}

int main(int argc, char **argv) {
  struct pair *p = calloc(1, sizeof *p);
  if (!p)
    return 1;
  p->a.guarded = &x;
  p->b.guarded = &y;
#ifdef PAST_UNION
  settxt(p, (char *)&p->a, (unsigned short)(sizeof p->a + 0 * argc));
#else
  // (Two calls, so that settxt stays a function of its own.)
  settxt(p, p->a.u.txt, (unsigned short)atoi(argv[0]));
  settxt(p, p->a.u.txt + 1, (unsigned short)atoi(argv[0]));
#endif
  pthread_t t;
  pthread_create(&t, 0, worker, p);
  x = 2;
  pthread_mutex_lock(&m);
  y = 3;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  free(p);
  return 0;
}
