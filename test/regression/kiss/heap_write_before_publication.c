// RUN: %crace --verify --engine=kiss --kiss-yields=all %s
// RUN: %not %crace --engine=kiss --kiss-yields=all %s | %FileCheck %s
// With --kiss-yields=all (KISS's form) the object is a target; by default
// the lockset analysis proves it and kiss has nothing to check.
// The race-free twin of heap_write_after_publication.c: main writes the
// node only before publishing it under the mutex, and the reader only
// reads it after taking the pointer under the mutex. Neither the ts-size-0
// pass nor the ts-size-1 one may report a race.
// expected-verdict: unknown
// CHECK: verdict: unknown
// CHECK: kiss: no race in the executions KISS explores (balanced executions, ts size 0, unwind 8)
// CHECK: kiss: no race with ts size 1 either
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
    return (void *)(long)n->v;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, reader, 0);
  struct node *n = malloc(sizeof *n);
  n->v = 1;
  n->next = 0;
  n->v = 2;
  pthread_mutex_lock(&m);
  head = n;
  pthread_mutex_unlock(&m);
  pthread_join(a, 0);
  return 0;
}
