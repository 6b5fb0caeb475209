// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Threads created in a loop race with each other on a shared counter.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int counter;
void *w(void *p) {
  counter = counter + 1;                 // expected-race
  return 0;
}
int main(void) {
  pthread_t h[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
