// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=whoop %s
// A thread created in a helper function (not in main's own body; called
// from two places, so the front end does not inline it into main) does not
// exist before main calls that helper: main's write of `config` before the
// calls cannot race with the worker's read, even though a logger thread
// already runs at that point. The write to `late` comes after the calls
// and races.
// expected-verdict: possible-race
#include <pthread.h>
int config, late, logged;
static void *logger(void *a) { logged = 1; return 0; }
static void *worker(void *a) {
  int c = config;
  int l = late;                                                  // expected-race
  return (void *)(long)(c + l);
}
static pthread_t w;
static void start_workers(void) { pthread_create(&w, 0, worker, 0); }
int main(int argc, char **argv) {
  pthread_t l;
  pthread_create(&l, 0, logger, 0);
  config = 5;
  if (argc > 1)
    start_workers();
  else
    start_workers();
  late = 1;                                                      // expected-race
  pthread_join(w, 0);
  pthread_join(l, 0);
  return logged;
}
