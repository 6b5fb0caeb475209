// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The near miss of container_of_fields.c: 'tagger' writes a node's count,
// the field 'scanner' updates under the lock, without taking it.
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>
#include <stdlib.h>

struct list_head {
  struct list_head *next, *prev;
};
struct node {
  int count;
  struct list_head link;
  int tag;
};

static struct list_head head = {&head, &head};
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static struct node *special;

#define node_of(p)                                                             \
  ((struct node *)((char *)(p) - (unsigned long)(&((struct node *)0)->link)))

static void add(struct node *n) {
  n->link.next = head.next;
  n->link.prev = &head;
  head.next->prev = &n->link;
  head.next = &n->link;
}

static void *scanner(void *arg) {
  pthread_mutex_lock(&m);
  for (struct list_head *p = head.next; p != &head; p = p->next)
    node_of(p)->count++; // expected-race
  pthread_mutex_unlock(&m);
  return 0;
}

static void *tagger(void *arg) {
  special->count = 7; // expected-race
  return 0;
}

int main(void) {
  pthread_t a, b;
  for (int i = 0; i < 3; i++) {
    struct node *n = calloc(1, sizeof *n);
    if (!n)
      return 1;
    add(n);
    special = n;
  }
  pthread_create(&a, 0, scanner, 0);
  pthread_create(&b, 0, tagger, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
