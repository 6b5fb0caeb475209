// RUN: %not %crace --engine=lockset %s | %FileCheck %s
// 'shared' would be a lock (semaphore_as_lock.c), but its address is
// handed to 'register_sem', which has no body: code crace cannot see may
// post it at any time, so it protects nothing.
// CHECK: possible data race on 'counter'
// CHECK: crace: verdict: possible-race
#include <pthread.h>
#include <semaphore.h>
void register_sem(sem_t *s);
static sem_t shared;
static int counter;
static void *worker(void *arg) {
  sem_wait(&shared);
  counter++;
  sem_post(&shared);
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  sem_init(&shared, 0, 1);
  register_sem(&shared);
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return counter;
}
