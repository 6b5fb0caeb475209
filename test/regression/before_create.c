// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Accesses in main before the thread exists are ordered with it.
// expected-verdict: race-free
#include <pthread.h>
int x;
void *t(void *a) { x = 2; return 0; }
int main(void) {
  x = 1;
  int y = x;
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  return y + x;
}
