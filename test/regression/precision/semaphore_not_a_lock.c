// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Semaphores that are not locks (semaphore_as_lock.c: the one that is):
// 'two' starts at 2, so two threads may be inside at once; 'handoff' is
// posted by a thread that never waited on it (a reader-count protocol, a
// signal), so a third thread may enter while the first is inside. The
// lockset analysis keeps both races.
// expected-verdict(lockset): possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <semaphore.h>
static sem_t two, handoff;
static int a, b;
static void *worker(void *arg) {
  sem_wait(&two);
  a++; // expected-race
  sem_post(&two);
  sem_wait(&handoff);
  b++; // expected-race
  sem_post(&handoff);
  return 0;
}
static void *poster(void *arg) {
  sem_post(&handoff);
  return 0;
}
int main(void) {
  pthread_t t1, t2, t3;
  sem_init(&two, 0, 2);
  sem_init(&handoff, 0, 1);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_create(&t3, 0, poster, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return a + b;
}
