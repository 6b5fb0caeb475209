// RUN: %crace --verify --engine=explore %s
// The number scanf reads decides whether main writes: explore gives scanf
// a text it reads in full, its number drawn as an input, so the run does
// not depend on a call passed by, and the race it shows is confirmed
// (before: a possible race only).
// expected-verdict: race
#include <pthread.h>
#include <stdio.h>
int n, shared;
void *worker(void *arg) {
  shared = 1;                                // expected-race
  return 0;
}
int main(void) {
  pthread_t id;
  if (scanf(" %d", &n) != 1)
    return 1;
  pthread_create(&id, 0, worker, 0);
  if (n >= 0)
    shared = 2;                              // expected-race
  pthread_join(id, 0);
  return 0;
}
