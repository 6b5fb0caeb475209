// RUN: %crace --verify --engine=kiss --rounds=2 %s
// main creates two threads and returns at once. A normal return from main
// ends the program in main's current round, so the threads run in earlier
// rounds only; a context switch may come right before the return, which
// lets both threads run (and race) in round 0.
// expected-verdict: race
#include <pthread.h>
int x;
void *t(void *p) {
  x = 1;                                            // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t, 0);
  pthread_create(&h2, 0, t, 0);
  return 0;
}
