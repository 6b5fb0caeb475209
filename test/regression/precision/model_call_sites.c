// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DREADS_BOTH | %FileCheck %s --check-prefix=RACY
// The string models that stay calls (strlen, strcmp, ...: explore computes
// them) read through their parameters, which every call site's strings
// flow into. Each call site reads what it passes (ProgramModel::accessesOf):
// the reader's strlen(name) does not meet the writer's updates of `log`,
// which main measured with strlen before any thread started. READS_BOTH:
// the reader also compares `log`, a real race.
// expected-verdict: race-free
// RACY: possible data race on 'log
#include <pthread.h>
#include <string.h>

static char name[16] = "reader";
static char log[64];

static void *reader(void *arg) {
  unsigned long n = strlen(name);
#ifdef READS_BOTH
  n += strcmp(log, name);
#endif
  return (void *)n;
}

static void *writer(void *arg) {
  log[0] = 'w';
  log[1] = 0;
  return 0;
}

int main(void) {
  pthread_t r, w;
  unsigned long before = strlen(log);
  pthread_create(&r, 0, reader, 0);
  pthread_create(&w, 0, writer, 0);
  pthread_join(r, 0);
  pthread_join(w, 0);
  return (int)before;
}
