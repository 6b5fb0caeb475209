// RUN: %crace --verify --engine=lockset %s
// A thread joined in main before main calls the helper that creates
// another thread (from two places, so it is not inlined into main) cannot
// run with it: `phase` is written by the first and read by the second
// without a lock.
// expected-verdict: race-free
#include <pthread.h>
int phase;
static void *first(void *a) { phase = 1; return 0; }
static void *second(void *a) { return (void *)(long)phase; }
static pthread_t s;
static void start_second(void) { pthread_create(&s, 0, second, 0); }
int main(int argc, char **argv) {
  pthread_t f;
  pthread_create(&f, 0, first, 0);
  pthread_join(f, 0);
  if (argc > 1)
    start_second();
  else
    start_second();
  pthread_join(s, 0);
  return 0;
}
