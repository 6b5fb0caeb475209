// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// The race depends on argv[0], the program name: its characters are inputs,
// so explore (which samples them) never calls the program race-free; it
// edits the characters its byte tests compared ('r', 'a') and confirms the
// race (before comparison-guided inputs: unknown). With --argv0 the run is
// fixed and explore decides it.
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
int x;
static void *t(void *a) { x = 1; return 0; }                    // expected-race
int main(int argc, char **argv) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (argv[0][0] == 'r' && argv[0][1] == 'a')
    x = 2;                                                       // expected-race
  pthread_join(h, 0);
  return 0;
}
