// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// Each tester allocates one request block, once, and hands it to one
// reader at a time: it joins that reader before it creates the next
// (ptester's test_thread/read_thread). Two readers that run together
// belong to two testers and touch two blocks; a tester touches its block
// only before it creates a reader or after it joined it; two testers touch
// their own blocks (analysis/InstanceMemory.h, the Serial shape). The
// reader walks its buffer with a stepping pointer (p = phi(buf, p + 1)),
// which stays inside its block. Before, the three threads were paired on
// every field of the one abstract block. per_instance_serial_not.c keeps
// the races of shapes close to this one.
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
struct req {
  int fd;
  int bytes;
  char buf[8];
};
static int fill(char *buf, int len) {
  int n = 0;
  for (char *p = buf; n < len; p += 1, n++)
    *p = 'x';
  return n;
}
static void *reader(void *arg) {
  struct req *r = arg;
  r->bytes += fill(r->buf, (int)sizeof r->buf) + r->fd;
  return 0;
}
static void *tester(void *arg) {
  (void)arg;
  struct req *r = malloc(sizeof *r);
  if (!r)
    return 0;
  int total = 0;
  for (int k = 0; k < 2; k++) {
    pthread_t t;
    r->fd = k;
    r->bytes = 0;
    pthread_create(&t, 0, reader, r);
    pthread_join(t, 0);
    total += r->bytes;
  }
  free(r);
  return (void *)(long)total;
}
int main(void) {
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, tester, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], 0);
  return 0;
}
