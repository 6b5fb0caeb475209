// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// One initialiser for two pools points each pool's head at its own
// sentinel (`p->head = &p->sentinel`). It has a loop, so it is no pointer
// plumbing that crace inlines, and the points-to analysis sees one store
// for both pools: every head pointed to both sentinels, and each worker's
// write through its own pool's head met the other worker's, each under
// its own lock. A store of its own address moved by
// a constant stores, at each place, that place's own neighbour.
// expected-verdict: race-free
#include <pthread.h>

struct node {
  int value;
};
struct pool {
  struct node *head;
  struct node sentinel;
};

static struct pool a, b;
static pthread_mutex_t lock_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock_b = PTHREAD_MUTEX_INITIALIZER;

static void pool_init(struct pool *p, int n) {
  p->head = &p->sentinel;
  for (int i = 0; i < n; i++)
    p->sentinel.value += i;
}

static void *worker_a(void *arg) {
  pthread_mutex_lock(&lock_a);
  a.head->value++;
  pthread_mutex_unlock(&lock_a);
  return 0;
}

static void *worker_b(void *arg) {
  pthread_mutex_lock(&lock_b);
  b.head->value--;
  pthread_mutex_unlock(&lock_b);
  return 0;
}

int main(void) {
  pthread_t x, y;
  pool_init(&a, 3);
  pool_init(&b, 4);
  pthread_create(&x, 0, worker_a, 0);
  pthread_create(&y, 0, worker_b, 0);
  pthread_join(x, 0);
  pthread_join(y, 0);
  return 0;
}
