// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// The near miss of lock_wrapper_indexed.c: main takes Mutex[2] for
// 'handlers', the workers Mutex[3]. Inlined, the two wrappers' calls name
// different locks, and the race stays.
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <assert.h>
#include <pthread.h>

#define MUTEX_MAX 5
static pthread_mutex_t Mutex[MUTEX_MAX];
static int handlers;

void mutexLock(int num) {
  assert(num < MUTEX_MAX);
  pthread_mutex_lock(&Mutex[num]);
}

void mutexUnlock(int num) {
  assert(num < MUTEX_MAX);
  pthread_mutex_unlock(&Mutex[num]);
}

static void *worker(void *arg) {
  mutexLock(3);
  handlers--; // expected-race
  mutexUnlock(3);
  return 0;
}

int main(void) {
  for (int i = 0; i < MUTEX_MAX; i++)
    pthread_mutex_init(&Mutex[i], 0);
  pthread_t a;
  pthread_create(&a, 0, worker, 0);
  mutexLock(2);
  handlers++; // expected-race
  mutexUnlock(2);
  pthread_join(a, 0);
  return 0;
}
