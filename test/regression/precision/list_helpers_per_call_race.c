// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The near miss of list_helpers_per_call.c: 'event_worker' adds its item
// to 'jobs' while it holds the other list's lock.
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>
#include <stdlib.h>

struct list_head {
  struct list_head *next, *prev;
};
static void __list_add(struct list_head *new, struct list_head *prev,
                       struct list_head *next) {
  next->prev = new; // expected-race
  new->next = next; // expected-race(lockset)
  new->prev = prev; // expected-race(lockset)
  prev->next = new; // expected-race
}
static void list_add(struct list_head *new, struct list_head *head) {
  __list_add(new, head, head->next); // expected-race
}

struct item {
  struct list_head link;
  int value;
};

static struct list_head jobs = {&jobs, &jobs}, events = {&events, &events};
static pthread_mutex_t jobs_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t events_lock = PTHREAD_MUTEX_INITIALIZER;

static void *job_worker(void *arg) {
  struct item *it = malloc(sizeof *it);
  if (!it)
    return 0;
  it->value = 2;
  pthread_mutex_lock(&jobs_lock);
  list_add(&it->link, &jobs);
  for (struct list_head *p = jobs.next; p != &jobs; p = p->next) // expected-race
    ((struct item *)p)->value++;
  pthread_mutex_unlock(&jobs_lock);
  return 0;
}

static void *event_worker(void *arg) {
  struct item *it = malloc(sizeof *it);
  if (!it)
    return 0;
  it->value = 3; // before list_add publishes it (analysis/Unpublished.h)
  pthread_mutex_lock(&events_lock);
  list_add(&it->link, &jobs);
  for (struct list_head *p = events.next; p != &events; p = p->next)
    ((struct item *)p)->value--;
  pthread_mutex_unlock(&events_lock);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, job_worker, 0);
  pthread_create(&b, 0, event_worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
