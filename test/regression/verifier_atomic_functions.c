// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// SV-COMP: functions named __VERIFIER_atomic_* are atomic sections.
// expected-verdict: race-free
#include <pthread.h>
int x;
void __VERIFIER_atomic_inc(void) { x = x + 1; }
void *w(void *p) {
  __VERIFIER_atomic_inc();
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  __VERIFIER_atomic_inc();
  return 0;
}
