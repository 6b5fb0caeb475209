// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x;
void *t(void *a) { x = 1; return 0; }   // expected-race
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  x = 2;                                 // expected-race
  pthread_join(h, 0);
  return 0;
}
