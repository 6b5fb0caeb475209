// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DSKIP | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DSHORT | %FileCheck %s --check-prefix=RACY
// ptester's shape: main creates its workers in a nested loop, storing each
// handle at tid[n] and counting n up after each create, then joins
// tid[0..n). The k-th create wrote tid[k], so that loop waits for every
// worker, and main's reads of the totals after it do not race with the
// workers' locked updates (model/CountedCreates.h). With SKIP one create's
// count is skipped, so the next create overwrites its handle and that
// worker is never joined; with SHORT the join loop stops one short.
// expected-verdict: race-free
// RACY: possible data race on 'total'
#include <pthread.h>
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int total;
int rounds = 2;
static void *worker(void *arg) {
  pthread_mutex_lock(&lock);
  total += (int)(long)arg;
  pthread_mutex_unlock(&lock);
  return 0;
}
int main(void) {
  pthread_t tid[16];
  int n = 0;
  for (int i = 0; i < rounds; i++)
    for (int j = 0; j < 2; j++) {
      if (pthread_create(&tid[n], 0, worker, (void *)(long)j))
        return 1;
#ifdef SKIP
      if (j == 1)
        continue;
#endif
      n++;
    }
#ifdef SHORT
  n--;
#endif
  for (int i = 0; i < n; i++)
    pthread_join(tid[i], 0);
  return total;
}
