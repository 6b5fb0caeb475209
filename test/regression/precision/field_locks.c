// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// Two pools, allocated in a loop (so neither is one object crace can name),
// each with its own lock; two workers share each pool and update its
// counters under the pool's lock, reached through the same pointer as the
// counters, also in a helper. Two accesses to one counter go through one
// pool, whose lock both hold: no race (SymbolicLocks.h, field locks).
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
struct pool {
  pthread_mutex_t lock;
  int jobs;
  long done;
};
static void finish(struct pool *p) {
  pthread_mutex_lock(&p->lock);
  p->done++;
  pthread_mutex_unlock(&p->lock);
}
void *worker(void *arg) {
  struct pool *p = arg;
  pthread_mutex_lock(&p->lock);
  p->jobs--;
  pthread_mutex_unlock(&p->lock);
  finish(p);
  return 0;
}
int main(void) {
  struct pool *pools[2];
  for (int i = 0; i < 2; i++) {
    pools[i] = malloc(sizeof(struct pool));
    pthread_mutex_init(&pools[i]->lock, 0);
    pools[i]->jobs = 10;
    pools[i]->done = 0;
  }
  pthread_t t[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&t[i], 0, worker, pools[i % 2]);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], 0);
  return 0;
}
