#include <pthread.h>
#include <stdlib.h>
struct node { int *val; struct node *next; };
int a, b;
static void *worker(void *arg) {
  struct node *n = arg;
  *n->val = 1;
  return 0;
}
int main(void) {
  struct node *n = malloc(sizeof *n);
  if (!n) return 1;
  n->val = &a;
  n->next = 0;
  pthread_t t;
  pthread_create(&t, 0, worker, n);
  pthread_join(t, 0);
  return b;
}
