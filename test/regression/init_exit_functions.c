// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Thread created in an init function and joined in an exit function, both
// called once from main (the Linux-module pattern of ldv-races): the
// accesses before the create and after the join are ordered.
// expected-verdict: race-free
#include <pthread.h>
int dev;
pthread_t t1;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *thread1(void *arg) {
  pthread_mutex_lock(&m);
  dev = 6;
  pthread_mutex_unlock(&m);
  return 0;
}
int module_init(int go) {
  dev = 1;
  if (go) {
    pthread_create(&t1, 0, thread1, 0);
    pthread_mutex_lock(&m);
    dev = 2;
    pthread_mutex_unlock(&m);
    return 0;
  }
  dev = 3;
  return -1;
}
void module_exit(void) {
  pthread_join(t1, 0);
  dev = 5;
}
int main(int argc, char **argv) {
  if (module_init(argc > 1) != 0)
    goto out;
  module_exit();
out:
  return 0;
}
