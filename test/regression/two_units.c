// RUN: %crace --verify --engine=lockset %s %S/Inputs/second_tu.c
// RUN: %crace --verify --engine=explore --all-races %s %S/Inputs/second_tu.c
// Two translation units linked into one program: the thread of the second
// unit races on 'shared' and is protected on 'guarded'.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
int shared, guarded;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void lock_it(void) { pthread_mutex_lock(&m); }
void unlock_it(void) { pthread_mutex_unlock(&m); }
void *other(void *p);
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, other, 0);
  shared = 1;                                   // expected-race
  lock_it();
  guarded = 5;
  unlock_it();
  return 0;
}
