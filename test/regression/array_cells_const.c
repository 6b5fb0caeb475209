// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Threads writing distinct array cells with constant indices do not race.
// expected-verdict: race-free
#include <pthread.h>
int a[4];
void *t0(void *p) { a[0] = 1; return 0; }
void *t1(void *p) { a[1] = 1; return 0; }
void *t3(void *p) { a[3] += 1; return 0; }
int main(void) {
  pthread_t h[3];
  pthread_create(&h[0], 0, t0, 0);
  pthread_create(&h[1], 0, t1, 0);
  pthread_create(&h[2], 0, t3, 0);
  return 0;
}
