// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// A binary semaphore used as a lock: initialised to 1 in main before any
// thread exists, and posted only by the thread that waited on it. Then at
// most one thread is between sem_wait and sem_post, so the lockset
// analysis counts 's' as a lock and 'counter' is protected
// (analysis/Lockset.cpp; semaphore_not_a_lock.c: the semaphores that fail
// these checks).
// expected-verdict: race-free
#include <pthread.h>
#include <semaphore.h>
static sem_t s;
static int counter;
static void bump(void) {
  sem_wait(&s);
  counter++;
  sem_post(&s);
}
static void *worker(void *arg) {
  bump();
  bump();
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  sem_init(&s, 0, 1);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  bump();
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return counter;
}
