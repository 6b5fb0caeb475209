// RUN: %crace --verify --engine=lockset %s
// An access inside a model function that stays a call (memcmp) has no
// source line of its own: called from one place, it is reported at that
// call (model_call_twice.c: called from two).
// expected-verdict: possible-race
#include <pthread.h>
#include <string.h>
char buf[8];
static void *w(void *a) {
  (void)a;
  buf[0] = 1; // expected-race
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  int r = memcmp(buf, "abc", 3); // expected-race
  pthread_join(t, 0);
  return r;
}
