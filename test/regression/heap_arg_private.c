// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Each thread gets its own heap object: no race. The points-to analysis
// merges the arguments of the two threads (one parameter p), but each
// thread's argument is a block of its own allocation call, and the threads
// touch only memory derived from it (analysis/InstanceMemory.h).
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
void *w(void *p) {
  int *v = p;
  *v += 1;
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  int *a = malloc(sizeof(int)), *b = malloc(sizeof(int));
  *a = 0;
  *b = 0;
  pthread_create(&h1, 0, w, a);
  pthread_create(&h2, 0, w, b);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  return *a + *b;
}
