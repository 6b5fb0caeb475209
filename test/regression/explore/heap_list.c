// RUN: %crace --verify --engine=explore %s
// A heap-allocated list shared by two threads: pushing is locked, but the
// reader walks the list without the lock.
// expected-verdict: race
#include <pthread.h>
#include <stdlib.h>
struct node { int val; struct node *next; };
struct node *head;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void push(int v) {
  struct node *n = malloc(sizeof *n);
  n->val = v;
  pthread_mutex_lock(&m);
  n->next = head;
  head = n;                                         // expected-race
  pthread_mutex_unlock(&m);
}
void *writer(void *p) {
  push(1);
  push(2);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, writer, 0);
  int sum = 0;
  for (struct node *n = head; n; n = n->next)       // expected-race
    sum += n->val;
  pthread_join(t, 0);
  return sum;
}
