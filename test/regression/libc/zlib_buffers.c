// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s -- -DRACY
// RUN: %not %crace --engine=lockset %s -- -DRACY 2>&1 | %FileCheck %s
// zlib (models/zlib.c): compress2 reads sourceLen bytes of its source and
// writes dest up to the capacity in *destLen; uncompress the same; deflate
// reads avail_in bytes at next_in and writes at next_out. Without RACY the
// worker's buffers are shared under the lock only: race-free. Before the
// model, these were calls of unknown external functions (verdict unknown).
// With RACY main writes 'text' and reads 'packed' without the lock: the
// lockset engine reports both; explore confirms the race on the source
// (the output's bytes are not computed, so explore stops inside compress2
// after its reads, and never sees the writes).
// CHECK-DAG: possible data race on 'packed
// CHECK-DAG: possible data race on 'text
// CHECK: crace: verdict: possible-race
// expected-verdict: race-free
// expected-verdict(explore): race
#include <pthread.h>
/* The part of <zlib.h> the program uses (zlib's headers need not be
   installed to run the test). */
int compress2(unsigned char *, unsigned long *, const unsigned char *,
              unsigned long, int);
int uncompress(unsigned char *, unsigned long *, const unsigned char *,
               unsigned long);

unsigned char text[64], packed[96], back[64];
unsigned long packed_len;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  pthread_mutex_lock(&lock);
  unsigned long n = sizeof packed;
  if (compress2(packed, &n, text, sizeof text, 9) == 0) // expected-race(explore)
    packed_len = n;
  unsigned long m = sizeof back;
  uncompress(back, &m, packed, packed_len);
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  int c;
#ifdef RACY
  text[0] = 1; // expected-race(explore)
  c = packed[0];
#else
  pthread_mutex_lock(&lock);
  text[0] = 1;
  c = packed[0];
  pthread_mutex_unlock(&lock);
#endif
  pthread_join(t, 0);
  return c + back[0];
}
