// RUN: %crace --verify --engine=explore %s
// RUN: %crace --verify %s
// scanf writes the variable the worker increments (goblint's
// 04-mutex_20-stdfun_rc): explore gives scanf a text of standard input it
// reads in full (" <number>", the number an input) and so runs the write
// instead of passing the call by, which confirms the race. The worker's
// test of the value read is on the number drawn.
// expected-verdict: race
#include <pthread.h>
#include <stdio.h>
int myglobal;
void *t_fun(void *arg) {
  myglobal = myglobal + 1;                   // expected-race
  return 0;
}
int main(void) {
  pthread_t id;
  pthread_create(&id, 0, t_fun, 0);
  scanf("%d", &myglobal);                    // expected-race
  pthread_join(id, 0);
  return 0;
}
