// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The handlers run after the join: ordered, race-free. (Two handlers, so
// the handler table's indirect calls see both.)
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
int x;
static void *t(void *a) { x = 1; return 0; }
static void bye(void) { x = 0; }
static void bye2(int code, void *arg) { x = code; }
int main(void) {
  pthread_t h;
  atexit(bye);
  on_exit(bye2, 0);
  pthread_create(&h, 0, t, 0);
  pthread_join(h, 0);
  return 0;
}
