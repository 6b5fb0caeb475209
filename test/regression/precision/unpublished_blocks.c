// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DLATE | %FileCheck %s --check-prefix=LATE
// RUN: %crace --engine=lockset --format=json %s | %FileCheck %s --check-prefix=STATS
// The producer fills each item (and the string strdup copies into a block
// of its own) before 'put' hands it out through a queue under a lock; the
// worker reads it, without the lock, only after 'get' took it out. Until
// the call of 'put', no other thread has the item's address, so the
// producer's writes cannot race with anything (analysis/Unpublished.h),
// though the item's heap object stands for both blocks the loop allocates
// and the worker may be reading the first while the producer fills the
// second. 'fill' writes the item too (sprintf, a library function, keeps
// no pointer to it), and is only ever called with a block no other thread
// knows yet: its writes are unpublished as well. With LATE
// the producer writes the item after 'put': a real race.
// expected-verdict: race-free
// LATE: possible data race on 'struct item.len in the heap object allocated at {{.*}}unpublished_blocks.c:{{[0-9]+}}
// LATE: conflicting write here
// LATE-NEXT: it->len = 4;
// STATS: "access_records_unpublished": {{[1-9]}}
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
struct item {
  int len;
  char tag[8];
  char *name;
  struct item *next;
};
static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static struct item *head;
static void put(struct item *it) {
  pthread_mutex_lock(&mtx);
  it->next = head;
  head = it;
  pthread_mutex_unlock(&mtx);
}
static struct item *get(void) {
  pthread_mutex_lock(&mtx);
  struct item *it = head;
  if (it)
    head = it->next;
  pthread_mutex_unlock(&mtx);
  return it;
}
static void fill(struct item *it, int i) {
  it->len = i;
  sprintf(it->tag, "#%d", i);
  it->name = strdup("ab");
}
static void *worker(void *arg) {
  int n = 0;
  for (int k = 0; k < 2; k++) {
    struct item *it = get();
    if (!it)
      continue;
    n += it->len + it->tag[1] + (int)strlen(it->name);
    free(it->name);
    free(it);
  }
  return (void *)(long)n;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  for (int i = 0; i < 2; i++) {
    struct item *it = malloc(sizeof *it);
    if (!it)
      return 1;
    fill(it, i);
    put(it);
#ifdef LATE
    it->len = 4;
#endif
  }
  pthread_join(t, 0);
  return 0;
}
