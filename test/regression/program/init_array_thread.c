// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A function placed in .init_array by hand runs before main like a
// constructor; the thread it starts races with main.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x;
static pthread_t h;
static void *t(void *a) { x = 1; return 0; }                    // expected-race
static void init(void) { pthread_create(&h, 0, t, 0); }
__attribute__((section(".init_array"), used)) static void (*init_p)(void) = init;
int main(void) {
  x = 2;                                                         // expected-race
  pthread_join(h, 0);
  return 0;
}
