// RUN: %crace --verify --engine=explore --max-transitions=50000 %s
// RUN: not %crace --engine=explore --max-transitions=50000 --stats %s 2>&1 | FileCheck %s
// Twenty threads write 'x' in atomic sections; main reads it, unlocked,
// after creating them all. DPOR backtracks from the bottom of the run and
// would reorder the last threads for a long time before it moves a write
// up to main's read; the happens-before hint (the read and a write are
// not ordered by any synchronisation) gives the schedule at once, and the
// race check of the state it reaches confirms it.
// expected-verdict: race
// CHECK: verdict: race
// CHECK: race_hints_confirmed {{[1-9]}}
#include <pthread.h>
#include <stdint.h>
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
intptr_t x;
void *thread(void *arg) {
  __VERIFIER_atomic_begin();
  x = (intptr_t)arg;                                // expected-race
  __VERIFIER_atomic_end();
  return 0;
}
int main(void) {
  pthread_t t[21];
  for (intptr_t i = 1; i <= 20; i++)
    pthread_create(t + i, 0, thread, (void *)i);
  int v = x < 21;                                   // expected-race
  for (intptr_t i = 1; i <= 20; i++)
    pthread_join(t[i], 0);
  return v;
}
