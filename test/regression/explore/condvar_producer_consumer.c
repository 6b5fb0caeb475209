// RUN: %crace --verify --engine=explore %s
// A one-slot buffer guarded by a mutex and two condition variables; the
// item is handed over under the lock: race-free, and no deadlock.
// expected-verdict: race-free
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
int full, slot;
void *producer(void *p) {
  for (int i = 1; i <= 2; i++) {
    pthread_mutex_lock(&m);
    while (full)
      pthread_cond_wait(&not_full, &m);
    slot = i;
    full = 1;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&m);
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  int sum = 0;
  for (int i = 0; i < 2; i++) {
    pthread_mutex_lock(&m);
    while (!full)
      pthread_cond_wait(&not_empty, &m);
    sum += slot;
    full = 0;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&m);
  }
  pthread_join(t, 0);
  return sum;
}
