// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// A feature switch that nothing ever turns on (knot's `static int
// g_use_cache = 0`): the statistics it guards are never updated, so the
// unlocked counters in that branch race with nothing. An internal global
// whose every use is a plain load is its initializer; the branch on it
// folds and the code it guards is gone.
// expected-verdict: race-free
#include <pthread.h>

static int use_cache = 0;
static int cache_hits;

static void *serve(void *arg) {
  if (use_cache)
    cache_hits++;
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, serve, 0);
  pthread_create(&b, 0, serve, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
