// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// Code that only a fork's child runs cannot race with the parent's threads:
// the child has its own copy of memory and only the forking thread.
// - start_child: the pid goes through a global that holds nothing but
//   fork's results; the child's side ends in exit, and what it calls, the
//   thread it starts and the handler it installs run in the child only;
// - main's switch: a second child, apart from the first one too.
// The lockset engine proves race freedom. Explore follows both sides of
// each fork, but the child's pid is sampled: no proof.
// expected-verdict: race-free
// expected-verdict(explore): unknown
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

int counter, stats, spare;
pid_t helper_pid;

static void on_quit(int sig) { counter = 0; }

static void *child_thread(void *arg) {
  spare++;
  return 0;
}

static void child_main(void) {
  pthread_t t;
  signal(SIGQUIT, on_quit);
  pthread_create(&t, 0, child_thread, 0);
  stats = 1;
  pthread_join(t, 0);
}

static int start_child(void) {
  helper_pid = fork();
  if (helper_pid == -1)
    return -1;
  if (helper_pid)
    return 0;
  child_main();
  exit(0);
}

static void *worker(void *arg) {
  counter++;
  stats++;
  spare++;
  return 0;
}

int main(void) {
  pthread_t w;
  pthread_create(&w, 0, worker, 0);
  start_child();
  switch (fork()) {
  case 0:
    counter = 5;
    _exit(0);
  default:
    break;
  }
  pthread_join(w, 0);
  return 0;
}
