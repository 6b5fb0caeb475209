// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s -- -DRACY
// libumem (models/umem.c): umem_cache_alloc returns an object the cache
// kept (still constructed) or a fresh one on which the cache's
// constructor runs in the allocating thread; umem_alloc/umem_zalloc
// return fresh memory; umem_cache_free keeps the object or has the
// destructor run on it, in a thread of its own. The worker's objects are
// its own, and the constructor and destructor count them under the lock
// main also takes: race-free
// (unknown before the model). With RACY the constructor also writes
// 'last', which main reads: explore confirms it.
// expected-verdict: race-free
// expected-verdict(explore): race
#include <pthread.h>
#include <stddef.h>
/* The part of <umem.h> the program uses. */
typedef struct umem_cache umem_cache_t;
typedef int umem_constructor_t(void *, void *, int);
typedef void umem_destructor_t(void *, void *);
typedef void umem_reclaim_t(void *);
umem_cache_t *umem_cache_create(char *, size_t, size_t, umem_constructor_t *,
                                umem_destructor_t *, umem_reclaim_t *, void *,
                                void *, int);
void umem_cache_destroy(umem_cache_t *);
void *umem_cache_alloc(umem_cache_t *, int);
void umem_cache_free(umem_cache_t *, void *);
void *umem_zalloc(size_t, int);
void umem_free(void *, size_t);
#define UMEM_NOFAIL 0x0100

struct node {
  int id;
  struct node *next;
};
int constructed;
void *last;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
umem_cache_t *cache;

static int node_ctor(void *buf, void *priv, int flags) {
  struct node *n = buf;
  n->id = 0;
  n->next = 0;
  pthread_mutex_lock(&lock);
  constructed++;
  pthread_mutex_unlock(&lock);
#ifdef RACY
  last = buf; // expected-race(explore)
#endif
  return 0;
}

/* Runs when libumem destroys a cached object: possibly in another thread
   (its reaping thread), later. */
static void node_dtor(void *buf, void *priv) {
  pthread_mutex_lock(&lock);
  constructed--;
  pthread_mutex_unlock(&lock);
}

static void *worker(void *arg) {
  for (int i = 0; i < 2; i++) {
    struct node *n = umem_cache_alloc(cache, UMEM_NOFAIL);
    n->id = i;
    int *scratch = umem_zalloc(16 * sizeof(int), UMEM_NOFAIL);
    scratch[0] = n->id;
    umem_free(scratch, 16 * sizeof(int));
    umem_cache_free(cache, n);
  }
  return 0;
}

int main(void) {
  cache = umem_cache_create("node", sizeof(struct node), 0, node_ctor, node_dtor,
                            0, 0, 0, 0);
  if (!cache)
    return 1;
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(&lock);
  int c = constructed;
  pthread_mutex_unlock(&lock);
#ifdef RACY
  c += last != 0; // expected-race(explore)
#endif
  pthread_join(t, 0);
  umem_cache_destroy(cache);
  return c;
}
