// RUN: not %crace --engine=explore --no-pdp --max-instructions=20000 %s | FileCheck %s
// RUN: %crace --engine=explore --no-pdp --stats %s 2>&1 | FileCheck --check-prefix=FULL %s
// explore's work bound counted in executed instructions (replays included):
// a machine-independent cut, so the same report on every machine. With the
// small bound the search stops early (unknown, with the reason); without it
// the same program is proved race-free.
// CHECK: verdict: unknown
// CHECK: bound of 20000 executed instructions over all runs reached (--max-instructions)
// FULL: verdict: race-free
// FULL: instructions {{[1-9][0-9]*}}
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int total;
void *w(void *a) {
  int local = 0;
  for (int i = 0; i < 300; i++)
    local += i;
  pthread_mutex_lock(&m);
  total += local;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, w, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return total;
}
