// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=explore %s | %FileCheck %s
// A new descriptor is the lowest free number, below FD_SETSIZE in any
// process that does not hold a thousand others: FD_SET on a socket stays
// in its fd_set. (It was any int: explore's runs that drew a large one
// ended at an out-of-bounds access, "memory error", instead of going on.)
// No race: the thread only reads. The descriptors are sampled inputs, so
// explore proves nothing.
// expected-verdict: unknown
// CHECK-NOT: memory error
// CHECK: not enumerated
#include <pthread.h>
#include <sys/select.h>
#include <sys/socket.h>
int hits;
static void *t(void *a) { return (void *)(long)hits; }
int main(void) {
  fd_set set;
  pthread_t h;
  for (int i = 0; i < 4; ++i) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
      continue;
    FD_ZERO(&set);
    FD_SET(s, &set);
  }
  pthread_create(&h, 0, t, 0);
  int seen = hits;
  pthread_join(h, 0);
  return seen;
}
