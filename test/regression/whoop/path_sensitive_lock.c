// RUN: %crace --verify --engine=whoop %s
// RUN: %crace --verify --engine=lockset %s
// The lock is taken and the counter written under the same local
// condition. The lockset engine joins the two paths (no lock held on the
// path that skips the lock) and reports the write; whoop's path conditions
// show that every write happens with the lock held.
// expected-verdict(whoop): race-free
// expected-verdict(lockset): possible-race
#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int locked = arg != 0;
  if (locked)
    pthread_mutex_lock(&m);
  if (locked)
    counter++;                            // expected-race(lockset)
  if (locked)
    pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, worker, &h[i]);
  for (int i = 0; i < 2; i++)
    pthread_join(h[i], 0);
  return 0;
}
