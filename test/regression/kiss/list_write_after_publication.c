// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss %s | %FileCheck %s
// Issue 19: main links a node into a global list under the mutex, unlocks,
// then writes the node's field without the lock; the worker takes the
// mutex and reads the field of the first node in the list. The race needs
// the worker to run after the publication: with ts size 0 a created
// thread runs at its creation (the list is still empty then), so kiss
// follows a ts-size-0 pass that finds nothing (when --kiss-max is not
// given) by one with ts size 1, where the worker can wait until main
// stops at its write.
// expected-verdict: race
// CHECK: data race on 'struct node.val in the heap object allocated at {{.*}}list_write_after_publication.c:34
// CHECK: verdict: race
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
    v = n->val; // expected-race(kiss)
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
  pthread_mutex_lock(&m);
  n->next = list;
  list = n;
  pthread_mutex_unlock(&m);
  n->val = 42; // expected-race(kiss)
  pthread_join(t, 0);
  return 0;
}
