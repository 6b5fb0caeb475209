// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A constructor that only initialises data runs before every thread: its
// writes are ordered with the threads' reads.
// expected-verdict: race-free
#include <pthread.h>
int x;
static void *t(void *a) { return (void *)(long)x; }
__attribute__((constructor)) static void init(void) { x = 7; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  return 0;
}
