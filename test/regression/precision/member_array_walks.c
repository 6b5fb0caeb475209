// RUN: %crace --verify --engine=lockset %s
// RUN: %not %crace --engine=lockset %s -- -DLAST | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DRACY | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=explore %s -- -DRACY | %FileCheck %s --check-prefix=CONFIRMED
// A walk by pointer arithmetic that starts at a struct's array member
// (strncpy's model, inlined at `strncpy(w[i].name, ...)`, stores through
// name + i) stays in the member: leaving it would be undefined behaviour
// (ProgramModel::withinMember pairs the walk as one access to the whole
// member). Here each element of a heap array of run-time length belongs
// to one worker; main fills element i's name before creating its worker,
// while the workers created before it use their own elements' other
// fields. The walk's own pointer may be any offset of the block, so
// without the bound it met every worker's fields. LAST: the name is the
// struct's last member, which a struct hack may extend: no bound (a
// possible race). With RACY defined, main writes the names again while
// the workers read theirs, a real race.
// expected-verdict: race-free
// RACY: possible data race on '{{.*}}heap object allocated at {{.*}}member_array_walks.c:
// CONFIRMED: error: data race on 'heap object allocated at {{.*}}member_array_walks.c:
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct job {
  long offset;
#ifndef LAST
  char name[8];
#endif
  long done;
  int fd;
  pthread_t tid;
#ifdef LAST
  char name[8];
#endif
};
static struct job *jobs;

static void *worker(void *arg) {
  struct job *j = arg;
  j->done = j->offset + j->fd;
#ifdef RACY
  if (j->name[0] == 'x')
    j->done = 0;
#endif
  return 0;
}

int main(int argc, char **argv) {
  int n = argc + 1;
  jobs = malloc(n * sizeof *jobs);
  if (!jobs)
    return 1;
  for (int i = 0; i < n; i++) {
    jobs[i].offset = i;
    jobs[i].fd = 1;
    strncpy(jobs[i].name, argv[0], sizeof jobs[i].name);
    pthread_create(&jobs[i].tid, 0, worker, &jobs[i]);
  }
#ifdef RACY
  for (int i = 0; i < n; i++)
    strncpy(jobs[i].name, "x", sizeof jobs[i].name);
#endif
  for (int i = 0; i < n; i++)
    pthread_join(jobs[i].tid, 0);
  return 0;
}
