// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Two different start routines write one global without a lock.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x;
void *a(void *p) { x = 1; return 0; }    // expected-race
void *b(void *p) { x = 2; return 0; }    // expected-race
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, a, 0);
  pthread_create(&h2, 0, b, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  return 0;
}
