// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DTID | %FileCheck %s --check-prefix=TID
// RUN: %not %crace --engine=lockset %s -- -fno-strict-aliasing | %FileCheck %s --check-prefix=NOTBAA
// pthread_create writes each worker's 'tid' through '&w[i].tid' (a write
// without a type tag, on an element the points-to analysis cannot tell
// apart), and the workers write their own 'offset' and read an element of
// 'name' chosen by a variable (whose tag is plain char: an array inside a
// struct loses the struct). Both addresses are members of 'struct worker' at disjoint
// bytes, and two objects of one struct type never overlap in part (C's
// effective-type rules): the accesses do not meet
// (PairFilters::membersApart). With TID a worker reads its 'tid', which
// main may still be writing in pthread_create: a real race. Compiled with
// -fno-strict-aliasing, crace does not rely on those rules.
// expected-verdict: race-free
// TID: member_bytes_apart.c:30:22: warning: possible data race on 'w[*].tid' (read by thread 'run' / write by thread 'main')
// NOTBAA: possible data race
#include <pthread.h>
struct worker {
  pthread_t tid;
  long offset;
  char name[8];
};
struct worker w[4];
static void *run(void *arg) {
  struct worker *me = arg;
  me->offset += 1;
  me->name[1] = 'x';
#ifdef TID
  return (void *)me->tid;
#else
  return (void *)(long)me->name[me->offset & 7];
#endif
}
int main(int argc, char **argv) {
  int n = argc < 4 ? argc : 4;
  for (int i = 0; i < n; i++)
    pthread_create(&w[i].tid, 0, run, &w[i]);
  for (int i = 0; i < n; i++)
    pthread_join(w[i].tid, 0);
  return 0;
}
