// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// The near miss of list_helpers_straight_line.c: 'job_worker' unlinks
// its item after it has released the list's lock, and two of them run.
// expected-verdict: race
// expected-verdict(lockset): possible-race
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
static void __list_del(struct list_head *prev, struct list_head *next) {
  next->prev = prev; // expected-race
  prev->next = next; // expected-race
}
static void list_del_init(struct list_head *entry) {
  __list_del(entry->prev, entry->next); // expected-race
  while (1) {
    entry->next = entry; // expected-race
    entry->prev = entry; // expected-race
    break;
  }
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
  list_del_init(&it->link);
  free(it);
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
  list_del_init(&it->link);
  pthread_mutex_unlock(&events_lock);
  free(it);
  return 0;
}

int main(void) {
  pthread_t a, b, c;
  pthread_create(&a, 0, job_worker, 0);
  pthread_create(&b, 0, event_worker, 0);
  pthread_create(&c, 0, job_worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  pthread_join(c, 0);
  return 0;
}
