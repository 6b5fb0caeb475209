// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Accesses in main after pthread_join are ordered after the thread.
// expected-verdict: race-free
#include <pthread.h>
int x;
void *t(void *a) { x++; return 0; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  x = 5;
  return x;
}
