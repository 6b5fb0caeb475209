// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s | %FileCheck %s
// The thread runs in the parent; the child has only the thread that called
// fork, and a copy of memory, so its write cannot race with the thread's.
// The lockset engine sees that only the child runs the code under
// `p == 0` (it ends in _exit) and proves race freedom
// (precision/fork_child_process.c has the other shapes). Explore follows
// the child without the thread and the parent with it: no race on either
// side. (The child's pid is sampled: no proof.)
// expected-verdict(lockset): race-free
// expected-verdict(explore): unknown
// CHECK-NOT: library model does not compute
// CHECK-NOT: race on
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
int x;
static void *t(void *a) { x = 1; return 0; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  pid_t p = fork();
  if (p == 0) {
    x = 2;
    _exit(0);
  }
  pthread_join(h, 0);
  if (p > 0)
    waitpid(p, 0, 0);
  return 0;
}
