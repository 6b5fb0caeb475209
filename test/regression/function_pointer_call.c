// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A lock is taken and released through functions called by pointer.
// expected-verdict: race-free
#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void enter(void) { pthread_mutex_lock(&m); }
void leave(void) { pthread_mutex_unlock(&m); }
void (*lock_fn)(void) = enter;
void (*unlock_fn)(void) = leave;
void *w(void *p) {
  lock_fn();
  x++;
  unlock_fn();
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
