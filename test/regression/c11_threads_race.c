// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// C11 <threads.h>: an unprotected write races.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <threads.h>
int x;
int w(void *p) {
  x = 1;                                   // expected-race
  return 0;
}
int main(void) {
  thrd_t t;
  thrd_create(&t, w, 0);
  x = 2;                                   // expected-race
  thrd_join(t, 0);
  return 0;
}
