// RUN: %crace --verify --engine=kiss --kiss-max=1 %s
// The thread writes x only after it has seen main's flag: the race needs
// main -> t -> main, two context switches, which KISS simulates (t is
// scheduled at main's read of x and stops at its write; main then reads).
// expected-verdict: race
#include <pthread.h>
#include <stdatomic.h>
atomic_int flag;
int x;
void *t(void *p) {
  if (atomic_load(&flag))
    x = 1;                                          // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  atomic_store(&flag, 1);
  int v = x;                                        // expected-race(kiss)
  pthread_join(h, 0);
  return v;
}
