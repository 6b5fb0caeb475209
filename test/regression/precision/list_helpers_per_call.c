// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// Two lists, each with its own head and lock, built with one pair of
// helpers (list.h's __list_add under list_add). The points-to analysis is
// context-insensitive: one shared __list_add linked each list's nodes into
// the other's, so 'jobs' (under jobs_lock) and 'events' (under
// events_lock) looked like one list. Small helpers that only move pointers
// are inlined at each call, and each call links its own list.
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>

struct list_head {
  struct list_head *next, *prev;
};
static void __list_add(struct list_head *new, struct list_head *prev,
                       struct list_head *next) {
  next->prev = new;
  new->next = next;
  new->prev = prev;
  prev->next = new;
}
static void list_add(struct list_head *new, struct list_head *head) {
  __list_add(new, head, head->next);
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
  for (struct list_head *p = jobs.next; p != &jobs; p = p->next)
    ((struct item *)p)->value++;
  pthread_mutex_unlock(&jobs_lock);
  return 0;
}

static void *event_worker(void *arg) {
  struct item *it = malloc(sizeof *it);
  if (!it)
    return 0;
  it->value = 3;
  pthread_mutex_lock(&events_lock);
  list_add(&it->link, &events);
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
