// RUN: %crace --verify --engine=explore --max-threads=4 %s
// Threads are created without end. At the thread bound the creator waits
// and the threads already running go on, so the race between two workers
// is still found; a race-free verdict would be impossible (bound hit).
// expected-verdict: race
#include <pthread.h>
int shared;
void *worker(void *p) {
  int v = shared;                            // expected-race
  shared = v + 1;                            // expected-race
  return 0;
}
int main(void) {
  while (1) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
  }
}
