// RUN: %crace --verify --engine=whoop %s
// A loop that takes and releases the lock in each iteration leaves the
// lock as it found it: Houdini keeps that candidate invariant, so the write
// after the loop is still known to be under the lock taken before it.
// expected-verdict: race-free
#include <pthread.h>
int total, n;
pthread_mutex_t outer = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&outer);
  for (int i = 0; i < n; i++) {
    pthread_mutex_lock(&inner);
    pthread_mutex_unlock(&inner);
  }
  total++;
  pthread_mutex_unlock(&outer);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, worker, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(h[i], 0);
  return 0;
}
