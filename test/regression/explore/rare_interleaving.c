// RUN: %crace --verify --engine=explore --all-races %s
// The race needs one specific interleaving: the worker must see flag == 1
// after main set it but before main cleared it again.
// expected-verdict: race
#include <pthread.h>
int flag, data;
void *worker(void *p) {
  if (flag == 1)
    data = 1;                              // expected-race
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  flag = 1;                                // expected-race
  data = 2;                                // expected-race
  flag = 0;                                // expected-race
  pthread_join(t, 0);
  return 0;
}
