// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// container_of on a list's static head: for the head, p - 0 is the head
// itself, which the loop's test keeps from being taken for a task. Its
// '->ap' would read the head's neighbour field 'owner' (a pointer to the
// global 'idle'), and the worker's write through it would meet main's
// unlocked writes of 'idle.n'. A struct member access names an object of
// that struct type (C's effective-type rules, the printed strict-aliasing
// assumption): 'struct queue' holds no 'struct task', so the points-to
// analysis does not let '&t->ap' point into the queue
// (PointsTo::memberOfOtherType), and every access is proved.
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>

struct list_head {
  struct list_head *next, *prev;
};
struct point {
  int n;
};
struct task {
  struct list_head list;
  struct point *ap;
};
struct queue {
  struct list_head head;
  struct point *owner;
};

static struct point idle;
static struct queue q = {{&q.head, &q.head}, &idle};
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  pthread_mutex_lock(&m);
  for (struct list_head *p = q.head.next; p != &q.head; p = p->next) {
    struct task *t =
        (struct task *)((char *)p - __builtin_offsetof(struct task, list));
    t->ap->n++;
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a, b;
  for (int i = 0; i < 2; i++) {
    struct task *t = malloc(sizeof *t);
    if (!t)
      return 1;
    t->ap = malloc(sizeof *t->ap);
    if (!t->ap)
      return 1;
    t->ap->n = 0;
    pthread_mutex_lock(&m);
    t->list.next = q.head.next;
    t->list.prev = &q.head;
    q.head.next->prev = &t->list;
    q.head.next = &t->list;
    pthread_mutex_unlock(&m);
  }
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  idle.n = 1;
  idle.n++;
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
