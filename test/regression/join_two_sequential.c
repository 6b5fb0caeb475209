// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A thread joined before the next is created does not run with it.
// expected-verdict: race-free
#include <pthread.h>
int x;
void *a(void *p) { x = 1; return 0; }
void *b(void *p) { x = 2; return 0; }
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, a, 0);
  pthread_join(h1, 0);
  pthread_create(&h2, 0, b, 0);
  pthread_join(h2, 0);
  return x;
}
