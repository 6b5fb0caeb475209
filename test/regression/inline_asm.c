// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Inline assembly is not analysed: the verdict is unknown.
// expected-verdict: unknown
#include <pthread.h>
int x;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *p) {
  pthread_mutex_lock(&m);
  __asm__ volatile("movl $1, %0" : "=m"(x));
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
