// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A heap object passed to two threads is written by both.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
void *w(void *p) {
  int *v = p;
  *v += 1;                                  // expected-race
  return 0;
}
int main(void) {
  int *v = malloc(sizeof(int));
  *v = 0;
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, v);
  return 0;
}
