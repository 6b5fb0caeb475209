// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Locking through a table of function pointers (an ops structure): the
// points-to analysis keeps the fields apart, so lock() is enter().
// expected-verdict: race-free
#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void enter(void) { pthread_mutex_lock(&m); }
void leave(void) { pthread_mutex_unlock(&m); }
struct ops {
  void (*lock)(void);
  void (*unlock)(void);
} ops = {enter, leave};
void *w(void *p) {
  ops.lock();
  x++;
  ops.unlock();
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
