// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// SV-COMP: __VERIFIER_atomic_begin/end sections against a plain access race.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
int x;
void *w(void *p) {
  __VERIFIER_atomic_begin();
  x = x + 1;                               // expected-race
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  x = 7;                                   // expected-race
  return 0;
}
