// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Each worker gets a struct allocated for it in the creation loop and
// touches it through its argument, directly and in a helper: the workers'
// structs are different blocks, so they do not race on them
// (analysis/InstanceMemory.h, the Fresh shape). main fills each block
// before the create that hands it out, so those writes do not pair with
// the workers either. 'shared' is allocated once, before the loop, and
// every worker writes it: that race stays, as does the one on the worker's
// block that main reads through 'last' while workers run.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
struct job {
  int id;
  int done;
  int *shared;
};
struct job *last;
static void finish(struct job *j) {
  j->done = 1; // expected-race
}
void *worker(void *arg) {
  struct job *j = arg;
  j->id += 1;
  *j->shared += j->id; // expected-race
  finish(j);
  return 0;
}
int main(void) {
  pthread_t t[4];
  int *shared = calloc(1, sizeof *shared);
  for (int i = 0; i < 4; i++) {
    struct job *j = malloc(sizeof *j);
    j->id = i;
    j->done = 0;
    j->shared = shared;
    last = j;
    pthread_create(&t[i], 0, worker, j);
  }
  int d = last->done; // expected-race
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], 0);
  return d;
}
