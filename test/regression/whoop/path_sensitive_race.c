// RUN: %crace --verify --engine=whoop %s
// Same shape as path_sensitive_lock.c, but the write is not guarded by the
// condition that took the lock: whoop keeps the race.
// expected-verdict: possible-race
#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int locked = arg != 0;
  if (locked)
    pthread_mutex_lock(&m);
  counter++;                              // expected-race
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
