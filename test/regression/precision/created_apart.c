// RUN: %crace --verify --engine=lockset %s
// RUN: %not %crace --engine=lockset %s -- -DBOTH | %FileCheck %s --check-prefix=BOTH
// Two thread templates whose creators lie on paths of main that exclude
// each other (the two branches of one if/else, as knot creates either its
// one autospawn thread or its pool) never exist in one run, so their
// accesses never meet (analysis/MHP.h). Before, 'single' and 'pooled' were
// paired on 'done_init'. With BOTH, main creates both threads: a real race.
// expected-verdict: race-free
// BOTH: possible data race on 'done_init'
#include <pthread.h>
#include <stdlib.h>
int done_init;
static void *single(void *arg) {
  (void)arg;
  if (!done_init)
    done_init = 1;
  return 0;
}
static void *pooled(void *arg) {
  (void)arg;
  done_init = 2;
  return 0;
}
int main(int argc, char **argv) {
  pthread_t t;
  int mode = argc > 1 && atoi(argv[1]);
#ifdef BOTH
  pthread_create(&t, 0, single, 0);
  pthread_create(&t, 0, pooled, 0);
#else
  if (mode)
    pthread_create(&t, 0, single, 0);
  else
    pthread_create(&t, 0, pooled, 0);
#endif
  (void)mode;
  return 0;
}
