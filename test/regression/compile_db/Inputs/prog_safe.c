// Program 'safe': increments under the library's lock.
#include <pthread.h>
void lib_locked_inc(void);

static void *worker(void *arg) {
  lib_locked_inc();
  return arg;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
