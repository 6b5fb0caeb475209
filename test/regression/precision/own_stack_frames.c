// RUN: %crace --verify --engine=lockset %s
// RUN: %not %crace --engine=lockset --max-findings=0 %s | %FileCheck %s
// Each 'worker' thread has its own 'st' on its own stack. Its address is
// published in 'last', so the slot is shared and 'peek' may read a
// worker's copy: those pairs stay. But the workers reach 'st' only through
// pointers computed from their own alloca (directly, through fill()'s
// parameter and through line()'s return value): two workers never touch
// the same copy, so no worker/worker pair is reported on it
// (analysis/OwnFrames.h). line() returns 's->buf + s->used', an element
// of 'buf' (each call gets its own argument's object, where line's result
// lies), so '*p' does not meet peek's read of 'used'.
// expected-verdict: possible-race
// CHECK-NOT: on 'st{{.*}}by thread 'worker' / {{.*}} by thread 'worker'
// CHECK: possible data race on 'last' (write by thread 'worker' / write by thread 'worker')
// CHECK-NOT: on 'st{{.*}}by thread 'worker' / {{.*}} by thread 'worker'
#include <pthread.h>
#include <string.h>
struct state {
  char buf[64];
  int used;
};
struct state *last;
static void fill(struct state *s, int n) {
  s->used = n; // expected-race
  memset(s->buf, 0, sizeof s->buf);
}
static char *line(struct state *s) { return s->buf + s->used; }
void *worker(void *arg) {
  struct state st;
  fill(&st, 1);
  char *p = line(&st);
  *p = 'x';
  last = &st; // expected-race
  return 0;
}
void *peek(void *arg) {
  struct state *s = last; // expected-race
  if (s)
    return (void *)(long)s->used; // expected-race
  return 0;
}
int main(void) {
  pthread_t t[3];
  for (int i = 0; i < 2; i++)
    pthread_create(&t[i], 0, worker, 0);
  pthread_create(&t[2], 0, peek, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return 0;
}
