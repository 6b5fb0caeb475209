// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// container_of written the old way (as CIL prints it):
// (struct node *)((char *)p - (unsigned long)&((struct node *)0)->link).
// The offset is a constant expression over the data layout; folded, each
// node field stays a field of its own, so 'scanner' (every count, under the
// lock) and 'tagger' (one node's tag, alone) touch different bytes, and the
// list's static head is never taken for a node's fields.
// expected-verdict: race-free
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
    node_of(p)->count++;
  pthread_mutex_unlock(&m);
  return 0;
}

static void *tagger(void *arg) {
  special->tag = 7;
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
