// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s -- -DRACY
// RUN: %not %crace --engine=lockset %s -- -DRACY 2>&1 | %FileCheck %s
// bzip2 (models/bzip2.c): BZ2_bzBuffToBuffCompress/Decompress read
// sourceLen bytes of source and write dest up to the capacity *destLen.
// Without RACY the buffers are shared under the lock: race-free (unknown
// before the model). With RACY main reads 'plain', which the worker
// decompresses into, and writes 'packed', which it reads, without the
// lock: lockset reports both; explore confirms the read of the source
// (it stops inside the call, whose output it does not compute).
// CHECK-DAG: possible data race on 'plain
// CHECK-DAG: possible data race on 'packed
// CHECK: crace: verdict: possible-race
// expected-verdict: race-free
// expected-verdict(explore): race
#include <pthread.h>
int BZ2_bzBuffToBuffCompress(char *, unsigned *, char *, unsigned, int, int,
                             int);
int BZ2_bzBuffToBuffDecompress(char *, unsigned *, char *, unsigned, int, int);

char plain[128], packed[160];
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  pthread_mutex_lock(&lock);
  unsigned n = sizeof plain;
  BZ2_bzBuffToBuffDecompress(plain, &n, packed, sizeof packed, 0, 0); // expected-race(explore)
  unsigned m = sizeof packed;
  BZ2_bzBuffToBuffCompress(packed, &m, plain, n, 9, 0, 30);
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int c;
#ifdef RACY
  packed[0] = 'B'; // expected-race(explore)
  c = plain[0];
#else
  pthread_mutex_lock(&lock);
  packed[0] = 'B';
  c = plain[0];
  pthread_mutex_unlock(&lock);
#endif
  pthread_join(t, 0);
  return c;
}
