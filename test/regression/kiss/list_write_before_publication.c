// RUN: %crace --verify --engine=kiss --kiss-yields=all %s
// RUN: %not %crace --engine=kiss --kiss-yields=all %s | %FileCheck %s
// With --kiss-yields=all (KISS's form) the node is a target; by default
// the lockset analysis proves it and kiss has nothing to check.
// The race-free twin of list_write_after_publication.c: main writes the
// node's field before linking it into the list under the mutex, and the
// worker reads it only under the mutex after finding it in the list.
// Neither the ts-size-0 pass nor the ts-size-1 one may report a race (kiss
// never proves race freedom: unknown).
// expected-verdict: unknown
// CHECK: verdict: unknown
// CHECK: kiss: no race in the executions KISS explores (balanced executions, ts size 0, unwind 8)
// CHECK: kiss: no race with ts size 1 either
#include <pthread.h>
#include <stdlib.h>
struct node {
  int val;
  struct node *next;
};
struct node *list;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *arg) {
  int v = 0;
  pthread_mutex_lock(&m);
  struct node *n = list;
  if (n)
    v = n->val;
  pthread_mutex_unlock(&m);
  return (void *)(long)v;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  struct node *n = malloc(sizeof *n);
  if (!n)
    return 1;
  n->val = 0;
  n->val = 42;
  pthread_mutex_lock(&m);
  n->next = list;
  list = n;
  pthread_mutex_unlock(&m);
  pthread_join(t, 0);
  return 0;
}
