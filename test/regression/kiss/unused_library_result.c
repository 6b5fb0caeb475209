// RUN: %crace --verify --engine=kiss %s
// A library call whose result is over-approximated (any value) makes a
// race behind it unconfirmable only if something uses that result. Here
// printf's count is dropped, so the race after it is confirmed.
// expected-verdict: race
#include <pthread.h>
#include <stdio.h>
int x;
void *t(void *arg) {
  x = 1;                                            // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t h;
  printf("starting\n");
  pthread_create(&h, 0, t, 0);
  int v = x;                                        // expected-race(kiss)
  pthread_join(h, 0);
  return v;
}
