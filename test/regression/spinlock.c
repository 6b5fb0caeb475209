// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// pthread spinlocks protect like mutexes.
// expected-verdict: race-free
#include <pthread.h>
int x;
pthread_spinlock_t s;
void *w(void *p) {
  pthread_spin_lock(&s);
  x++;
  pthread_spin_unlock(&s);
  return 0;
}
int main(void) {
  pthread_spin_init(&s, 0);
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
