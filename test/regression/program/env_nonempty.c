// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The race needs a non-empty environment (every normal start has one):
// the environment is an input of 0..3 strings, not an empty envp.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int x;
static void *t(void *a) { x = 1; return 0; }                    // expected-race
int main(int argc, char **argv, char **envp) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (envp[0])
    x = 2;                                                       // expected-race
  pthread_join(h, 0);
  return 0;
}
