// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Counters that do not hand out distinct numbers (ticket_counter.c is the
// one that does); each race here must stay reported:
// - 'unlocked' takes without the lock;
// - 'maybe' advances the counter only sometimes;
// - 'resetter' sets its counter back while takers run;
// - 'neighbour' also writes the next slot;
// - 'take_a' and 'take_b' advance one counter under two different locks.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t other_lock = PTHREAD_MUTEX_INITIALIZER;
int n1, n2, n3, n4, n5;
int a[16], b[16], c[16], d[16], e[16];
void *unlocked(void *arg) {
  int j = n1++; // expected-race
  a[j] = 1; // expected-race
  return 0;
}
void *maybe(void *arg) {
  pthread_mutex_lock(&lock);
  int j = n2;
  if (arg)
    n2 = j + 1;
  pthread_mutex_unlock(&lock);
  b[j] = 2; // expected-race
  return 0;
}
void *taker(void *arg) {
  pthread_mutex_lock(&lock);
  int j = n3++;
  pthread_mutex_unlock(&lock);
  c[j] = 3; // expected-race
  return 0;
}
void *resetter(void *arg) {
  pthread_mutex_lock(&lock);
  n3 = 0;
  pthread_mutex_unlock(&lock);
  return 0;
}
void *neighbour(void *arg) {
  pthread_mutex_lock(&lock);
  int j = n4++;
  pthread_mutex_unlock(&lock);
  d[j] = 4; // expected-race
  d[j + 1] = 4; // expected-race
  return 0;
}
void *take_a(void *arg) {
  pthread_mutex_lock(&lock);
  int j = n5++; // expected-race
  pthread_mutex_unlock(&lock);
  e[j] = 5; // expected-race
  return 0;
}
void *take_b(void *arg) {
  pthread_mutex_lock(&other_lock);
  int j = n5++; // expected-race
  pthread_mutex_unlock(&other_lock);
  e[j] = 6; // expected-race
  return 0;
}
int main(void) {
  pthread_t t[11];
  pthread_create(&t[0], 0, unlocked, 0);
  pthread_create(&t[1], 0, unlocked, 0);
  pthread_create(&t[2], 0, maybe, 0);
  pthread_create(&t[3], 0, maybe, 0);
  pthread_create(&t[4], 0, taker, 0);
  pthread_create(&t[5], 0, resetter, 0);
  pthread_create(&t[6], 0, taker, 0);
  pthread_create(&t[7], 0, neighbour, 0);
  pthread_create(&t[8], 0, neighbour, 0);
  pthread_create(&t[9], 0, take_a, 0);
  pthread_create(&t[10], 0, take_b, 0);
  for (int i = 0; i < 11; i++)
    pthread_join(t[i], 0);
  return 0;
}
