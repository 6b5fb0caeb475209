// RUN: %not %crace --engine=lockset %s | %FileCheck %s --implicit-check-not="on 'table"
// RUN: %not %crace --engine=lockset %s -- -fno-strict-aliasing | %FileCheck %s --check-prefix=LOOSE
// A pointer of unknown origin (the result of a function the program does
// not define) may point to every object such a pointer can reach, and so
// may the worker's `n->val`. But a member access of `struct node` names an
// object of that struct type (C's effective-type rules, the printed
// strict-aliasing assumption): the array of `struct slot` holds no
// `struct node`, so the copy into `table[i]` (a memcpy, which has no
// type tag to tell it apart) does not meet it (PairFilters::memberOutside),
// while the copy into the global `struct node` still does. Without strict
// aliasing (LOOSE) the rule does not apply.
// CHECK: possible data race on 'gnode
// LOOSE: possible data race on 'table
#include <pthread.h>

struct node {
  int key;
  int val;
};
struct slot {
  int fd;
  short events;
};
struct node gnode;
struct slot table[4];
struct node *lookup(int key);

static void *worker(void *arg) {
  struct node *n = lookup((int)(long)arg);
  return (void *)(long)n->val;
}

int main(int argc, char **argv) {
  pthread_t t;
  pthread_create(&t, 0, worker, &gnode);
  struct node fresh = {1, 2};
  table[argc & 3] = table[3];
  gnode = fresh;
  pthread_join(t, 0);
  return 0;
}
