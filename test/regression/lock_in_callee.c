// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Locks taken and released in helper functions protect the caller's access.
// expected-verdict: race-free
#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void acquire(pthread_mutex_t *l) { pthread_mutex_lock(l); }
static void release(pthread_mutex_t *l) { pthread_mutex_unlock(l); }
void *w(void *p) {
  acquire(&m);
  x++;
  release(&m);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
