// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss --stats %s | %FileCheck %s
// RUN: %not %crace --engine=kiss --kiss-target='heap object allocated at heap_field_race.c:32' %s | %FileCheck --check-prefix=ONE %s
// A malloc'd struct shared by main and a thread (the object is a race
// target of kiss, named after its allocation site): both update `hits`
// without a lock. The other fields are each written by one thread only,
// so no race on them may be reported (the overlap check is exact within
// the object).
// expected-verdict: race
// CHECK: data race on '{{(struct [a-z_]+\.[a-z_]+ in the )?}}heap object allocated at {{.*}}heap_field_race.c:32:{{[0-9]+}}'
// CHECK: verdict: race
// CHECK: kiss_targets{{ +}}1.00
// CHECK: kiss_query_status.heap object allocated at heap_field_race.c:32{{ +}}1.00
// ONE: verdict: race
#include <pthread.h>
#include <stdlib.h>
struct stats {
  int hits;
  int by_thread;
  int by_main;
};
void *t(void *arg) {
  struct stats *s = arg;
  s->by_thread = 1;
  s->hits = s->hits + 1;                            // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t h;
  struct stats *s;
  // (line 32 below: the allocation site)
  s = malloc(sizeof *s);
  s->hits = 0;
  s->by_thread = 0;
  s->by_main = 0;
  pthread_create(&h, 0, t, s);
  s->by_main = 2;
  s->hits = s->hits + 1;                            // expected-race(kiss)
  pthread_join(h, 0);
  free(s);
  return 0;
}
