// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Near misses of fork_child_process.c, each a race:
// - 'a': the child's side does not end in exit; it goes on to code both
//   processes run, where the child's own thread races with it (the child
//   returns to main and runs the rest of it too);
// - 'b': the handler is installed before fork, so the child inherits it
//   and it may interrupt the child's write;
// - 'c': the global the pid goes through is also set to 0 (by the
//   parent), so its test does not tell the child: the parent writes 'c'
//   while its worker runs;
// - 'd': a child installs a handler, then starts 'spawner', which forks;
//   'spawner' is also started by main, so crace does not know which
//   process that fork runs in: the grandchild may inherit the handler,
//   which then interrupts its write.
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

int a, b, c, d;
pid_t g_pid;

static void *child_worker(void *arg) {
  a = 1; // expected-race
  return 0;
}

static void fall_through(void) {
  pthread_t t;
  if (fork() == 0)
    pthread_create(&t, 0, child_worker, 0);
  a = 2; // expected-race
}

static void on_usr1(int sig) { b = 1; } // expected-race

static void inherited(void) {
  signal(SIGUSR1, on_usr1);
  if (fork() == 0) {
    b = 2; // expected-race
    _exit(0);
  }
}

static void *parent_worker(void *arg) {
  c = 1; // expected-race
  return 0;
}

static void reset_pid(void) {
  if (g_pid > 0)
    g_pid = 0;
}

static void overwritten(void) {
  pthread_t t;
  pthread_create(&t, 0, parent_worker, 0);
  g_pid = fork();
  reset_pid();
  if (g_pid == 0) {
    c = 2; // expected-race
    _exit(0);
  }
  pthread_join(t, 0);
}

static void on_usr2(int sig) { d = 1; } // expected-race

static void *spawner(void *arg) {
  if (fork() == 0) {
    d = 2; // expected-race
    _exit(0);
  }
  return 0;
}

static void start_spawner(void) {
  pthread_t t;
  pthread_create(&t, 0, spawner, 0);
  pthread_join(t, 0);
}

static void grandchild(void) {
  start_spawner();
  if (fork() == 0) {
    signal(SIGUSR2, on_usr2);
    start_spawner();
    _exit(0);
  }
}

int main(void) {
  grandchild();
  fall_through();
  inherited();
  overwritten();
  return 0;
}
