// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -fno-strict-aliasing | %FileCheck %s --check-prefix=NOTBAA
// RUN: %crace --engine=lockset --format=json %s | %FileCheck %s --check-prefix=STATS
// The points-to analysis is context-insensitive: 'pick' returns the
// block 'ga' or 'gb' points to, so both threads' pointers may point to
// either. (The blocks are heap blocks of no known type: were they globals,
// the points-to analysis would already keep a 'struct A' member's address
// out of 'gb', PointsTo::memberOfOtherType, member_of_other_type.c.)
// The two writes are at the same offset (4), one through a 'struct A'
// member and one through a 'struct B' member. By C's effective-type rules
// (which clang states as type-based alias tags, and compilers rely on at
// -O2) an access to a member of 'struct B' cannot touch a 'struct A', so
// the unlocked write in 'right' cannot meet the locked one in 'left'
// (analysis/PairFilters.h). Compiled with -fno-strict-aliasing, clang
// emits no such tags and the pair stays.
// expected-verdict: race-free
// NOTBAA: possible data race on
// NOTBAA: crace: verdict: possible-race
// STATS: "pairs_of_types_apart": {{[1-9]}}
#include <pthread.h>
#include <stdlib.h>
struct A {
  int x;
  int y;
};
struct B {
  int p;
  int q;
};
struct A *ga;
struct B *gb;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
__attribute__((noinline)) void *pick(int k) {
  if (k)
    return ga;
  return gb;
}
void *left(void *arg) {
  struct A *a = pick(1);
  pthread_mutex_lock(&m);
  a->y++;
  pthread_mutex_unlock(&m);
  return 0;
}
void *right(void *arg) {
  struct B *b = pick(0);
  b->q++;
  return 0;
}
int main(void) {
  pthread_t t1, t2;
  ga = malloc(sizeof *ga);
  gb = malloc(sizeof *gb);
  if (!ga || !gb)
    return 1;
  pthread_create(&t1, 0, left, 0);
  pthread_create(&t2, 0, right, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  return 0;
}
