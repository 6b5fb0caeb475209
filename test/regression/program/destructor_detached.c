// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A destructor runs when main returns (exit), while a detached thread may
// still run: they race (issue 14: this was called race-free).
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <unistd.h>
int x;
static void *t(void *a) {
  x++;                                                           // expected-race
  return 0;
}
__attribute__((destructor)) static void fini(void) { x = 0; }   // expected-race
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_detach(h);
  return 0;
}
