// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// zebedee's lock wrappers: mutexLock(n) locks &Mutex[n]. In the shared
// wrapper the lock is Mutex[*], which protects nothing; inlined at each
// call (frontend/HeapCloning.cpp: inlineLockWrappers) a constant index
// names one lock, so 'tokens' under Mutex[1] and 'handlers' under
// Mutex[3] are protected.
// expected-verdict: race-free
#include <assert.h>
#include <pthread.h>

#define MUTEX_MAX 5
static pthread_mutex_t Mutex[MUTEX_MAX];
static int tokens, handlers;

void mutexLock(int num) {
  assert(num < MUTEX_MAX);
  pthread_mutex_lock(&Mutex[num]);
}

void mutexUnlock(int num) {
  assert(num < MUTEX_MAX);
  pthread_mutex_unlock(&Mutex[num]);
}

static void *worker(void *arg) {
  mutexLock(1);
  tokens++;
  mutexUnlock(1);
  mutexLock(3);
  handlers--;
  mutexUnlock(3);
  return 0;
}

int main(void) {
  for (int i = 0; i < MUTEX_MAX; i++)
    pthread_mutex_init(&Mutex[i], 0);
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  mutexLock(3);
  handlers++;
  mutexUnlock(3);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
