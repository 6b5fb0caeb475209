// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A semaphore used as a lock is not a lock to the lockset engine: possible-race.
// expected-verdict: race-free
// expected-verdict(lockset): possible-race
#include <pthread.h>
#include <semaphore.h>
int x;
sem_t s;
void *w(void *p) {
  sem_wait(&s);
  x++;                                     // expected-race(lockset)
  sem_post(&s);
  return 0;
}
int main(void) {
  sem_init(&s, 0, 1);
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
