// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// Cancellation is not modelled: the static engines let the target run on
// (here its write after an endless loop is still ordered by the join);
// explore does not trust a run past pthread_cancel.
// expected-verdict: race-free
// expected-verdict(explore): unknown
#include <pthread.h>
#include <unistd.h>
int x;
static void *t(void *a) {
  for (;;)
    sleep(1);
  x = 2;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_cancel(h);
  pthread_join(h, 0);
  x = 1;
  return 0;
}
