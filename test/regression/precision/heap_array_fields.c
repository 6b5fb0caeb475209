// RUN: %crace --verify --engine=lockset %s -- -fno-strict-aliasing
// RUN: %not %crace --engine=lockset %s -- -fno-strict-aliasing -DSAME_FIELD | %FileCheck %s --check-prefix=SAME
// An array of structs whose length is known only at run time (malloc of
// n elements), each thread handed its element. main writes one field of
// each element after the thread is running; the threads read other
// fields. A pointer stepping through such a block by its element size is
// at the same offset in some element, for every element
// (model/PointsTo.h, UnboundedCount), so the fields stay apart: race-free.
// Before, the block's length being unknown, the pointer could be
// anywhere in it and every field met every other (C's type rules, which
// keep members apart, are off here). With SAME_FIELD the threads read the
// field main writes: a race the report names.
// expected-verdict: race-free
// SAME: warning: possible data race on 'struct task.done
#include <pthread.h>
#include <stdlib.h>
struct task {
  int id;
  char done;
  long sum;
};
struct task *tasks;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
long total;
void *worker(void *p) {
  struct task *t = p;
  pthread_mutex_lock(&m);
#ifdef SAME_FIELD
  total += t->done;
#else
  total += t->id + t->sum;
#endif
  pthread_mutex_unlock(&m);
  return 0;
}
int main(int argc, char **argv) {
  int n = argc + 2;
  tasks = malloc(n * sizeof *tasks);
  pthread_t *th = malloc(n * sizeof *th);
  if (!tasks || !th)
    return 1;
  for (int i = 0; i < n; i++) {
    tasks[i].id = i;
    tasks[i].sum = 0;
  }
  for (int i = 0; i < n; i++) {
    pthread_create(&th[i], 0, worker, &tasks[i]);
    tasks[i].done = 1; // while the thread runs: not a field it reads
  }
  for (int i = 0; i < n; i++)
    pthread_join(th[i], 0);
  return 0;
}
