// RUN: %crace --verify --engine=explore %s
// RUN: not %crace --engine=explore %s 2>&1 | FileCheck %s
// main first calls functions whose bodies are not in the program (a
// CIL-combined file, a TU analysed alone): explore runs past them, drawing
// their results as inputs (a pointer result: null or a fresh block), and
// goes on to the threads. Their race is then a possible race only: the run
// depends on what read_config and load_conf really do. Before, main
// stopped at read_config and explore saw no thread at all (unknown).
// expected-verdict: possible-race
// CHECK: possible data race on 'hits'
// CHECK: verdict: possible-race
// CHECK: ran past calls it cannot execute
// CHECK-SAME: 'read_config' has no body and no model, at {{.*}}unknown_function_havoc.c:30
// CHECK-SAME: 'load_conf' has no body and no model, at {{.*}}unknown_function_havoc.c:32
#include <pthread.h>
struct conf {
  int workers;
};
int read_config(const char *path);
struct conf *load_conf(void);
int hits;
struct conf *cfg;

void *worker(void *arg) {
  hits++; // expected-race
  return 0;
}

int main(void) {
  if (read_config("/etc/app.conf") < 0)
    return 1;
  cfg = load_conf();
  if (!cfg)
    return 1;
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
