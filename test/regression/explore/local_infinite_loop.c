// RUN: %crace --verify --engine=explore %s
// The worker ends in a loop that touches nothing shared: the run used to
// be cut at the instruction bound before main's conflicting write could
// be scheduled. A thread that runs 2,000,000 instructions without a
// visible operation is now taken as stopped for good (noted; the search
// is then not exhaustive), and the others go on.
// expected-verdict: race
#include <pthread.h>
pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER, m2 = PTHREAD_MUTEX_INITIALIZER;
int g;
void *worker(void *p) {
  pthread_mutex_lock(&m2);
  g = g + 1;                                        // expected-race
  pthread_mutex_unlock(&m2);
  volatile int i = 0;
  while (1)
    i++;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&m1);
  g = g + 1;                                        // expected-race
  pthread_mutex_unlock(&m1);
  return 0;
}
