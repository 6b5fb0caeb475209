// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The start routine is passed through a function pointer variable.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x;
void *worker(void *p) { x = 1; return 0; }     // expected-race
void *(*start)(void *) = worker;
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, start, 0);
  x = 2;                                        // expected-race
  return 0;
}
