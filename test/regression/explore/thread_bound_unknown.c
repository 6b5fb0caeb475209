// RUN: %crace --verify --engine=explore --max-threads=3 %s
// Unboundedly many threads that never race: the explore engine stops at
// its thread bound and must not claim race freedom.
// expected-verdict: unknown
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int shared;
void *worker(void *p) {
  pthread_mutex_lock(&m);
  shared++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  while (1) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
  }
}
