// RUN: %crace --verify --engine=explore --max-transitions=200000 %s
// The first thread to raise 'r' loops forever, so every run is cut at the
// depth bound; the race (the unlocked read of 'r' against the other
// thread's locked update) needs the second thread to run while the first
// one loops. A scheduler that keeps the running thread never lets it, and
// DPOR only sees what runs: the search ended unknown. After 64 steps in a
// row the next thread runs, and runs are first cut at 256, then 2048, then
// --max-depth operations (iterative deepening), so the race is found
// within the small budget given here.
// expected-verdict: race
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int r, s;
void *t(void *p) {
  pthread_mutex_lock(&m);
  r = r + 1;                                        // expected-race
  pthread_mutex_unlock(&m);
  if (r == 1)                                       // expected-race
    for (;;)
      s = s + 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
