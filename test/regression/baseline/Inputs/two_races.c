// The race on 'a' is old; the one on 'b' comes with -DNEW_RACE.
#include <pthread.h>

int a, b;

static void *worker(void *arg) {
  a++;
#ifdef NEW_RACE
  b++;
#endif
  return arg;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, worker, 0);
  pthread_create(&t2, 0, worker, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
