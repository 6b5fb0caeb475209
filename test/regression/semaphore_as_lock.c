// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A semaphore used as a lock (initialised to 1 before the threads, posted
// only by its holder) is a lock to the lockset engine too
// (precision/semaphore_as_lock.c, precision/semaphore_not_a_lock.c).
// expected-verdict: race-free
#include <pthread.h>
#include <semaphore.h>
int x;
sem_t s;
void *w(void *p) {
  sem_wait(&s);
  x++;
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
