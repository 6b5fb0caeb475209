// RUN: %crace --engine=kiss --rounds=2 --emit-sequential=%t.1.ll --unwind=1 --timeout=1 %s > /dev/null || true
// RUN: %crace --engine=kiss --rounds=2 --emit-sequential=%t.2.ll --unwind=1 --timeout=1 %s > /dev/null || true
// RUN: diff %t.1.ll %t.2.ll
// The --rounds module is the same from run to run: the accesses of the
// copied state are split per round in program order (they were split in
// pointer order, so the blocks came out in a different order each run).
// The module is written before the bounded model checker runs, so a short
// --timeout is enough.
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y, z, w;
void *t(void *p) {
  pthread_mutex_lock(&m);
  x = x + 1;
  y = x;
  z = y + w;
  w = z + x;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pthread_mutex_lock(&m);
  y = y + x;
  w = z;
  z = w + y;
  pthread_mutex_unlock(&m);
  pthread_join(h, 0);
  return 0;
}
