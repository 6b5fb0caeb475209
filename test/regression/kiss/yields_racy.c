// RUN: %crace --verify --engine=kiss --kiss-yields=all %s
// RUN: %crace --verify --engine=kiss --kiss-yields=racy %s
// RUN: %not %crace --engine=kiss --kiss-yields=all --stats %s 2>&1 | %FileCheck %s --check-prefix=ALL
// RUN: %not %crace --engine=kiss --kiss-yields=racy --stats %s 2>&1 | %FileCheck %s --check-prefix=RACY
// WHOOP's Yield-MR in kiss: 'counter' and 'total' are only touched under
// the mutex, so the lockset analysis proves them race-free; their accesses
// commute with every other thread's step (a conflicting step right after
// one would race with it) and get no schedule point, and they are no
// targets. The race on 'racy' is found with either placement.
// ALL: kiss_targets 3.00
// ALL: kiss_schedule_points 17.00
// RACY: kiss_racy_sites 2.00
// RACY: kiss_targets_proved_by_lockset 2.00
// RACY: kiss_targets 1.00
// RACY: kiss_schedule_points 8.00
// expected-verdict: race
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter, total, racy;
void *worker(void *arg) {
  for (int i = 0; i < 3; i++) {
    pthread_mutex_lock(&m);
    counter++;
    total += counter;
    pthread_mutex_unlock(&m);
  }
  racy = 1;                                         // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m);
  counter = 5;
  total = total * 2;
  pthread_mutex_unlock(&m);
  int r = racy;                                     // expected-race(kiss)
  pthread_join(t, 0);
  return r + counter;
}
