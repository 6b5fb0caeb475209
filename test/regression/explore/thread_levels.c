// RUN: %crace --verify --engine=explore --max-transitions=300000 %s
// Threads are created without bound; the race needs the workers that
// draw tickets 1 and 2 to be at their writes together. With the full
// thread bound (16) from the start, DFS spends its budget reordering the
// last workers; with runs first limited to 3, then 6 threads (iterative
// deepening on the thread count) the race shows up at once.
// expected-verdict: race
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int ticket, data;
void *worker(void *p) {
  pthread_mutex_lock(&m);
  int me = ticket++;
  pthread_mutex_unlock(&m);
  if (me == 1)
    data = 1;                                       // expected-race
  if (me == 2)
    data = 2;                                       // expected-race
  return 0;
}
int main(void) {
  pthread_t t;
  while (1)
    pthread_create(&t, 0, worker, 0);
}
