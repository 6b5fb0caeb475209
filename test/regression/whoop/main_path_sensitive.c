// RUN: %crace --verify --engine=whoop %s
// RUN: %crace --verify --engine=lockset %s
// Main is encoded like the other threads: its write under the lock it took
// on the same condition does not race with the worker's locked write.
// expected-verdict(whoop): race-free
// expected-verdict(lockset): possible-race
#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  pthread_mutex_lock(&m);
  counter++;                              // expected-race(lockset)
  pthread_mutex_unlock(&m);
  return 0;
}
int main(int argc, char **argv) {
  pthread_t h;
  pthread_create(&h, 0, worker, 0);
  int locked = argc > 0;
  if (locked)
    pthread_mutex_lock(&m);
  if (locked)
    counter++;                            // expected-race(lockset)
  if (locked)
    pthread_mutex_unlock(&m);
  pthread_join(h, 0);
  return 0;
}
