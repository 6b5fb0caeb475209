// RUN: %crace --verify --engine=whoop %s
// RUN: %not %crace --engine=whoop --stats %s 2>&1 | %FileCheck %s
// An iteration may release the lock and go round again: Houdini must drop
// the candidate "the lock is held as on loop entry", and the write after
// the loop is a possible race.
// CHECK: possible data race on 'total'
// CHECK: verdict: possible-race
// CHECK: whoop_houdini_dropped{{ +[1-9]}}
// expected-verdict: possible-race
#include <pthread.h>
int total, n;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  for (int i = 0; i < n; i++)
    if (i == 3)
      pthread_mutex_unlock(&m);
  total++;                               // expected-race
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
