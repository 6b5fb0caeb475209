// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// An atomic increment and a plain write of the same variable race.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int g;
void *w(void *p) {
  __sync_fetch_and_add(&g, 1);             // expected-race
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  g = 0;                                   // expected-race
  return 0;
}
