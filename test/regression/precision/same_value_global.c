// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DSERVER | %FileCheck %s --check-prefix=COUNT
// RUN: %not %crace --engine=explore %s -- -DSERVER | %FileCheck %s --check-prefix=CONFIRMED
// RUN: %not %crace --engine=explore %s -- -DRESET | %FileCheck %s --check-prefix=FLAG
// A mode flag that every store writes with its initial value always
// holds it: `server_mode = server` in an init function that main calls
// with 0 (ctrace's `_server`). Its loads compute 0, so the code they
// guard never runs (IRPreparation's foldSameValueGlobals) and the
// worker's counter update under the flag cannot meet main's. SERVER: main
// passes 1, and the worker's update races with main's. RESET: a thread
// stores the same 0 again while main reads the flag; the loads stay, so
// that race on the flag itself is still found.
// expected-verdict: race-free
// COUNT: possible data race on 'counter'
// CONFIRMED: error: data race on 'counter'
// FLAG: error: data race on 'server_mode'
#include <pthread.h>

static int server_mode = 0;
static int counter;

static void init(int server) { server_mode = server; }

static void *worker(void *arg) {
  if (server_mode)
    counter++;
#ifdef RESET
  server_mode = 0;
#endif
  return arg;
}

int main(void) {
  pthread_t t;
#ifdef SERVER
  init(1);
#else
  init(0);
#endif
  pthread_create(&t, 0, worker, 0);
  counter = 2;
  if (server_mode)
    counter = 3;
  pthread_join(t, 0);
  return counter;
}
