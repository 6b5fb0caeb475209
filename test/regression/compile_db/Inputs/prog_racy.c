// Program 'racy': increments without the lock.
#include <pthread.h>
void lib_racy_inc(void);

void racy_helper(void) {}

static void *worker(void *arg) {
  lib_racy_inc();
  return arg;
}

int main(void) {
  pthread_t a, b;
  racy_helper();
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
