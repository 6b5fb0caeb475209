// RUN: %not %crace --engine=lockset --max-findings=0 %s | %FileCheck %s
// RUN: %crace --verify --engine=lockset %s
// A pointer of unknown origin (the result of 'lookup', which has no body)
// points only into memory the code outside the program can reach: what it
// owns, globals it can name, and what the program handed it. 'handed' was
// given to 'register_obj', so the unlocked write through 'o' may hit it.
// 'mine' was never handed out (and the static pointer to it cannot be
// named from outside): the write cannot reach it, and every other access
// to it holds 'm'. (The calls without bodies keep race-free unproved.)
// expected-verdict: possible-race
// CHECK-NOT: allocated at {{.*}}unknown_pointer_escape.c:33:
// CHECK: possible data race on 'struct obj.v in the heap object allocated at {{.*}}unknown_pointer_escape.c:34:12'
// CHECK-NOT: allocated at {{.*}}unknown_pointer_escape.c:33:
// CHECK: crace: verdict: possible-race
#include <pthread.h>
#include <stdlib.h>
struct obj { int v; };
struct obj *lookup(int key);
void register_obj(struct obj *o);
static struct obj *mine, *handed;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *t(void *arg) {
  struct obj *o = lookup(1);
  o->v = 1; // expected-race
  pthread_mutex_lock(&m);
  mine->v++;
  handed->v++; // expected-race
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  mine = malloc(sizeof *mine);
  handed = malloc(sizeof *handed);
  if (!mine || !handed)
    return 1;
  register_obj(handed);
  pthread_create(&h1, 0, t, 0);
  pthread_create(&h2, 0, t, 0);
  pthread_join(h1, 0);
  pthread_join(h2, 0);
  return 0;
}
