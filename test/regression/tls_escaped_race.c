// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// A __thread variable is private only until its address escapes: here
// another thread writes this thread's copy through a shared pointer.
// expected-verdict: possible-race
// expected-verdict(explore): race-free
#include <pthread.h>
__thread int data;
int *ptr;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *thread(void *arg) {
  pthread_mutex_lock(&m);
  ptr = &data;
  *ptr = 2;                  // expected-race(lockset)
  pthread_mutex_unlock(&m);
  data = 1;                  // expected-race(lockset)
  return 0;
}
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, thread, 0);
  return 0;
}
