// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The near miss of never_written_flag.c: main turns the switch on before
// it creates the threads, so the counter is updated by both, unlocked.
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>

static int use_cache = 0;
static int cache_hits;

static void *serve(void *arg) {
  if (use_cache)
    cache_hits++; // expected-race
  return 0;
}

int main(int argc, char **argv) {
  pthread_t a, b;
  if (argc > 1)
    use_cache = 1;
  pthread_create(&a, 0, serve, 0);
  pthread_create(&b, 0, serve, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
