// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DKEEPS | %FileCheck %s --check-prefix=RACY
// An allocation wrapper that hands its fresh block to an initialiser of
// the program (`init_stats(s)`, which only writes through its parameter
// and passes it on to another that does) keeps no copy of it, so each
// call is inlined with its own heap object (HeapCloning's
// paramKeepsNoCopy). The two threads' blocks are two objects, one of them
// also kept in a global list: each thread writes its own. KEEPS: the
// initialiser stores the block in the list as well, so one call of the
// wrapper serves both threads' blocks (a possible race, as before).
// expected-verdict: race-free
// RACY: possible data race on '{{.*}}heap object allocated at
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct stats {
  long n;
  long sum;
};
static struct stats *list;

static void clear_sum(struct stats *s) { s->sum = 0; }

static void init_stats(struct stats *s) {
  memset(s, 0, sizeof *s);
  clear_sum(s);
#ifdef KEEPS
  if (!list)
    list = s;
#endif
}

static struct stats *new_stats(void) {
  struct stats *s = malloc(sizeof *s);
  if (!s)
    abort();
  init_stats(s);
  return s;
}

static void *worker(void *arg) {
  struct stats *mine = new_stats();
  mine->n++;
  free(mine);
  return arg;
}

int main(void) {
  pthread_t t;
#ifndef KEEPS
  list = new_stats();
#endif
  pthread_create(&t, 0, worker, 0);
  struct stats *mine = new_stats();
  mine->n++;
  pthread_join(t, 0);
  free(mine);
  return (int)list->n;
}
