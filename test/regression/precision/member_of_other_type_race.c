// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// The companion of member_of_other_type.c: here one node of the list is a
// 'struct task' inside a global 'struct holder', so '&t->ap' may point
// into the holder (a struct task lies there, PointsTo::memberOfOtherType
// keeps it), and the worker's write through that node's 'ap' races with
// main's unlocked write of 'idle.n'.
// expected-verdict: race
// expected-verdict(lockset): possible-race
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
struct holder {
  int id;
  struct task t;
};

static struct point idle;
static struct list_head head = {&head, &head};
static struct holder h = {1, {{0, 0}, &idle}};
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  pthread_mutex_lock(&m);
  for (struct list_head *p = head.next; p != &head; p = p->next) {
    struct task *t =
        (struct task *)((char *)p - __builtin_offsetof(struct task, list));
    t->ap->n++; // expected-race
  }
  pthread_mutex_unlock(&m);
  return 0;
}

int main(void) {
  pthread_t a;
  h.t.list.next = head.next;
  h.t.list.prev = &head;
  head.next->prev = &h.t.list;
  head.next = &h.t.list;
  pthread_create(&a, 0, worker, 0);
  idle.n = 1; // expected-race
  pthread_join(a, 0);
  return 0;
}
