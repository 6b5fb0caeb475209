// The program of stats_counters.test: an allocation wrapper, a lock
// wrapper, a counter under a lock and one without.
#include <pthread.h>
#include <stdlib.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int locked, racy;

void *xmalloc(size_t n) { return malloc(n); }
void take(pthread_mutex_t *l) { pthread_mutex_lock(l); }
void drop(pthread_mutex_t *l) { pthread_mutex_unlock(l); }

void *worker(void *arg) {
  int *p = xmalloc(sizeof *p);
  *p = 1;
  free(p);
  take(&m);
  locked++;
  drop(&m);
  racy = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  take(&m);
  locked++;
  drop(&m);
  racy = 2;
  pthread_join(t, 0);
  return 0;
}
