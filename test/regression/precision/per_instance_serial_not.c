// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Shapes close to per_instance_serial.c that race; each race must stay
// reported (analysis/InstanceMemory.h, the Serial shape):
// - 'overlap': creates its readers in a loop and joins them after it, so
//   two readers of one block run together;
// - 'meddle': writes its block while the reader it handed it to runs;
// - 'publish': stores its block in a global that main reads while the
//   thread runs.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
#include <stdlib.h>
struct req {
  int fd;
  int bytes;
};
struct req *last;
static void *reader(void *arg) {
  struct req *r = arg;
  r->bytes += r->fd; // expected-race
  return 0;
}
static void *overlap(void *arg) {
  (void)arg;
  struct req *r = calloc(1, sizeof *r);
  if (!r)
    return 0;
  pthread_t t[2];
  for (int k = 0; k < 2; k++)
    pthread_create(&t[k], 0, reader, r);
  for (int k = 0; k < 2; k++)
    pthread_join(t[k], 0);
  return 0;
}
static void *watcher(void *arg) {
  struct req *r = arg;
  return (void *)(long)r->fd; // expected-race
}
static void *meddle(void *arg) {
  (void)arg;
  struct req *r = calloc(1, sizeof *r);
  if (!r)
    return 0;
  for (int k = 0; k < 2; k++) {
    pthread_t t;
    pthread_create(&t, 0, watcher, r);
    r->fd = k; // expected-race
    pthread_join(t, 0);
  }
  return 0;
}
static void *publish(void *arg) {
  (void)arg;
  struct req *r = calloc(1, sizeof *r);
  if (!r)
    return 0;
  last = r; // expected-race
  r->bytes = 1; // expected-race
  return 0;
}
int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, overlap, 0);
  pthread_create(&b, 0, meddle, 0);
  pthread_create(&c, 0, publish, 0);
  struct req *p = last;
  int seen = p ? p->bytes : 0; // expected-race
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return seen;
}
