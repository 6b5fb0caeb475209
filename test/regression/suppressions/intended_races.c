// RUN: %crace --verify --engine=lockset %s
// Three races marked as intended, in three ways; the fourth is reported.
// expected-verdict: possible-race
#include <pthread.h>

int hits;
int flag;
int traced;

// ThreadSanitizer does not check this function; neither does crace.
__attribute__((no_sanitize("thread"))) static void trace(void) { traced++; }

static void *worker(void *arg) {
  hits++; // expected-race
  // crace: benign-race the flag is only a hint, read again under a lock
  flag = 1;
  trace();
  return arg;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
