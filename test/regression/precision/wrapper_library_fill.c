// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DSHARED | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=explore %s -- -DSHARED | %FileCheck %s --check-prefix=CONFIRMED
// An allocation wrapper that fills its fresh block with a library
// function of known effect (zebedee's runKeyGenCommand: `sscanf(buf,
// "%[0-9a-fA-F]", result)`, here snprintf) still keeps no copy of it, so
// each call is inlined with its own heap object (HeapCloning's
// onlyReturned). One call's key is kept in a global list (shared); main
// and the worker each make, wipe and free a key of the other call, which
// no other thread sees: without the copies the two calls' keys were one
// object, shared through the list. SHARED: the worker's key is also
// published in a global that main writes, a real race.
// expected-verdict: race-free
// RACY: possible data race on
// CONFIRMED: error: data race on
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *published;
static char *list_key;

static char *make_key(int seed) {
  char *r = malloc(16);
  if (!r)
    return 0;
  snprintf(r, 16, "%08x", seed);
  return r;
}

static void use_key(int seed, int publish) {
  char *k = make_key(seed);
  if (!k)
    return;
#ifdef SHARED
  if (publish)
    published = k;
#endif
  memset(k, 0, 16);
  if (!publish)
    free(k);
}

static void remember_key(void) { list_key = make_key(0); }

static void *worker(void *arg) {
  use_key(2, 1);
  return arg;
}

int main(void) {
  pthread_t t;
  remember_key();
  pthread_create(&t, 0, worker, 0);
  use_key(1, 0);
#ifdef SHARED
  if (published)
    published[0] = 'x';
#endif
  pthread_join(t, 0);
  return list_key ? list_key[0] : 0;
}
