// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// fork's child is a process of its own, and its code is analysed: here the
// child starts a thread that races with the child's own write. Explore
// follows both sides of the fork and confirms the race in the child (before
// it executed fork: unknown).
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <unistd.h>
int x;
static void *t(void *a) { x = 1; return 0; }                    // expected-race
int main(void) {
  pthread_t h;
  if (fork() == 0) {
    pthread_create(&h, 0, t, 0);
    x = 2;                                                       // expected-race
    pthread_join(h, 0);
  }
  return 0;
}
