// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// RUN: %crace --verify %s
// A constructor runs before main, in the main thread: the thread it starts
// races with main's own write (issue 14: this was called race-free).
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x;
static pthread_t h;
static void *t(void *a) { x = 1; return 0; }                    // expected-race
__attribute__((constructor)) static void init(void) {
  pthread_create(&h, 0, t, 0);
}
int main(void) {
  x = 2;                                                         // expected-race
  pthread_join(h, 0);
  return 0;
}
