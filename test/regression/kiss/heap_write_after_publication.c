// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss %s | %FileCheck %s
// main publishes a node under the mutex, then writes it without the lock,
// while the reader, which took the pointer under the mutex, reads it. The
// race needs the reader to start after the publication: with ts size 0 a
// created thread runs at its creation (head is still null then), so kiss
// follows a race-free ts-size-0 pass (when --kiss-max is not given) by one
// with ts size 1, where main stops at its write and the reader runs then.
// expected-verdict: race
// CHECK: data race on 'struct node.v in the heap object allocated at {{.*}}heap_write_after_publication.c:31
// CHECK: verdict: race
#include <pthread.h>
#include <stdlib.h>
struct node {
  int v;
  struct node *next;
};
struct node *head;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *reader(void *a) {
  pthread_mutex_lock(&m);
  struct node *n = head;
  pthread_mutex_unlock(&m);
  if (n)
    return (void *)(long)n->v;                      // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, reader, 0);
  struct node *n = malloc(sizeof *n);
  n->v = 1;
  n->next = 0;
  pthread_mutex_lock(&m);
  head = n;
  pthread_mutex_unlock(&m);
  n->v = 2;                                         // expected-race(kiss)
  pthread_join(a, 0);
  return 0;
}
