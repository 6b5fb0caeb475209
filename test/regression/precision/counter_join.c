// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=explore %s -- -DONE_MORE | %FileCheck %s --check-prefix=CONFIRMED
// RUN: %not %crace --engine=lockset %s -- -DUNLOCKED | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DONE_MORE | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DWRITE_AFTER | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DBOUND_CHANGED | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DTWICE | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DLATE_INIT | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DUNSIGNED_BOUND | %FileCheck %s --check-prefix=RACY
// pfscan's shape: main sets a count of running workers to the number it
// creates, and after its work waits under the lock until the count is 0;
// each worker counts itself out under that lock as the last thing it does.
// Past the wait every worker is done, so main's read of the total does not
// race with the workers' updates (model/CounterJoins.cpp). The variants
// break one step of that argument each: main waits without the lock
// (UNLOCKED), creates one worker more than it counts (ONE_MORE), a worker
// writes after counting itself out (WRITE_AFTER), the bound changes after
// the count is set (BOUND_CHANGED), a worker counts itself out twice
// (TWICE), the count is set after the workers start (LATE_INIT), or the
// creation loop compares unsigned while the wait stops at any count <= 0
// (UNSIGNED_BOUND: a negative bound creates many workers and waits for
// none).
// expected-verdict: race-free
// RACY: possible data race on 'total'
// CONFIRMED: error: data race on 'total'
#include <pthread.h>
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t count_cv = PTHREAD_COND_INITIALIZER;
int nworkers;
int running;
int total;
static void *worker(void *arg) {
  pthread_mutex_lock(&lock);
  total++;
  pthread_mutex_unlock(&lock);
  pthread_mutex_lock(&count_lock);
  running--;
#ifdef TWICE
  running--;
#endif
  pthread_mutex_unlock(&count_lock);
  pthread_cond_signal(&count_cv);
#ifdef WRITE_AFTER
  pthread_mutex_lock(&lock);
  total = 0;
  pthread_mutex_unlock(&lock);
#endif
  return 0;
}
int main(int argc, char **argv) {
  pthread_t t;
  nworkers = argc > 1 ? 3 : 2;
#ifdef UNSIGNED_BOUND
  nworkers = argc > 2 ? -1 : 2;
#endif
#ifndef LATE_INIT
  running = nworkers;
#endif
#ifdef BOUND_CHANGED
  nworkers++;
#endif
#ifdef ONE_MORE
  for (int j = 0; j <= nworkers; j++)
#elif defined(UNSIGNED_BOUND)
  for (unsigned j = 0; j < (unsigned)nworkers; j++)
#else
  for (int j = 0; j < nworkers; j++)
#endif
    pthread_create(&t, 0, worker, 0);
#ifdef LATE_INIT
  running = nworkers;
#endif
#ifndef UNLOCKED
  pthread_mutex_lock(&count_lock);
#endif
  while (running > 0)
    pthread_cond_wait(&count_cv, &count_lock);
#ifndef UNLOCKED
  pthread_mutex_unlock(&count_lock);
#endif
  return total;
}
