// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// As init_exit_functions.c, but the exit function forgets the join.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int dev;
pthread_t t1;
void *thread1(void *arg) {
  dev = 6;                      // expected-race
  return 0;
}
int module_init(void) {
  dev = 1;
  pthread_create(&t1, 0, thread1, 0);
  return 0;
}
void module_exit(void) {
  dev = 5;                      // expected-race
}
int main(void) {
  if (module_init() != 0)
    return 1;
  module_exit();
  return 0;
}
