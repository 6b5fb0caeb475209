// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// pthread_exit runs the destructors too; under the mutex they do not race,
// and a thread whose value is null runs none.
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
int count;
pthread_key_t key;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void dtor(void *p) {
  pthread_mutex_lock(&m);
  count++;
  pthread_mutex_unlock(&m);
}
static void *t(void *a) {
  pthread_setspecific(key, &count);
  pthread_exit(0);
}
int main(void) {
  pthread_t a, b;
  pthread_key_create(&key, dtor);
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, t, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return count;
}
