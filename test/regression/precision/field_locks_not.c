// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Near misses of field locks (field_locks.c), each a race:
// - 'other' locks its pool and writes the other pool's counter;
// - 'moved' locks a pool, then moves its pointer to the other pool;
// - 'dropped' unlocks through another pointer, which may be its pool's.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
struct pool {
  pthread_mutex_t lock;
  int jobs;
  struct pool *peer;
};
void *other(void *arg) {
  struct pool *p = arg;
  pthread_mutex_lock(&p->lock);
  p->peer->jobs++; // expected-race
  p->jobs++;
  pthread_mutex_unlock(&p->lock);
  return 0;
}
void *moved(void *arg) {
  struct pool *p = arg;
  pthread_mutex_lock(&p->lock);
  struct pool *q = p;
  p = p->peer;
  p->jobs--; // expected-race
  pthread_mutex_unlock(&q->lock);
  return 0;
}
void *dropped(void *arg) {
  struct pool *p = arg, *q = p->peer->peer;
  pthread_mutex_lock(&p->lock);
  pthread_mutex_unlock(&q->lock);
  p->jobs += 2; // expected-race
  return 0;
}
int main(void) {
  struct pool *pools[2];
  for (int i = 0; i < 2; i++) {
    pools[i] = malloc(sizeof(struct pool));
    pthread_mutex_init(&pools[i]->lock, 0);
    pools[i]->jobs = 0;
  }
  pools[0]->peer = pools[1];
  pools[1]->peer = pools[0];
  pthread_t t[6];
  void *(*f[3])(void *) = {other, moved, dropped};
  for (int i = 0; i < 6; i++)
    pthread_create(&t[i], 0, f[i / 2], pools[i % 2]);
  for (int i = 0; i < 6; i++)
    pthread_join(t[i], 0);
  return 0;
}
