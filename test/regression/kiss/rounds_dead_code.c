// RUN: %crace --verify --engine=kiss --rounds=2 %s
// The K-round form copies shared globals per round and cannot copy heap
// memory. A function nothing calls (a leftover, or a model of a library
// function the program does not use) may touch heap memory freely: it
// never runs, so it neither stops --rounds nor makes a target.
// expected-verdict: race
#include <pthread.h>
#include <stdlib.h>
struct node {
  int v;
  struct node *next;
};
struct node *list;
int x;
void unused_push(int v) {
  struct node *n = malloc(sizeof *n);
  n->v = v;
  n->next = list;
  list = n;
  list->next->v++;
}
void *t(void *p) {
  x = 1;                                            // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t h1, h2;
  pthread_create(&h1, 0, t, 0);
  pthread_create(&h2, 0, t, 0);
  return 0;
}
