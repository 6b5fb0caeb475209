// RUN: %crace --verify --engine=explore %s
// RUN: not %crace --engine=explore %s 2>&1 | FileCheck %s
// A call explore cannot execute (log_flush has no body) taints only what
// depends on it: the workers race before main makes any visible operation
// after the call, so some run shows the race without it, and it is
// confirmed. Only main's own later steps, and what other threads see of
// them, are unconfirmed.
// expected-verdict: race
// CHECK: error: data race on 'hits'
// CHECK: verdict: race
#include <pthread.h>
void log_flush(void);
int hits;

void *worker(void *arg) {
  hits++; // expected-race
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  log_flush();
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
