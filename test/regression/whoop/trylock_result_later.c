// RUN: %crace --verify --engine=whoop %s
// RUN: %crace --verify --engine=lockset %s
// The try-lock's result is kept in a variable and tested later, away from
// the branch the lockset engine recognises; whoop tracks the value.
// expected-verdict(whoop): race-free
// expected-verdict(lockset): possible-race
#include <pthread.h>
int shared;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int busy = pthread_mutex_trylock(&m);
  int got = busy == 0;
  if (!got)
    return 0;
  shared = shared + 1;                    // expected-race(lockset)
  pthread_mutex_unlock(&m);
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
