// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=lockset %s -- -DWHOLE | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=lockset %s -- -DWRITES_NAME | %FileCheck %s --check-prefix=RACY
// RUN: %not %crace --engine=explore %s -- -DWRITES_NAME | %FileCheck %s --check-prefix=CONFIRMED
// A helper that takes a string (`remove_file(const char *domain)`) and
// that every call hands a struct's array member (`b->domain`, ypbind's
// `remove_bindingfile(list->domain)`) reads no byte past that member
// through its parameter: each call's pointer stays in its own member
// (ProgramModel::boundArguments; ArgMemberBytes). So the pinger's string
// reads do not meet the tester's update of `active`. WHOLE: one call
// passes the struct's own address, which bounds nothing. WRITES_NAME: the
// tester writes the name, a real race.
// expected-verdict: race-free
// RACY: possible data race on 'list
// CONFIRMED: error: data race on 'list
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct binding {
  int id;
  char domain[16];
  int active;
};
static struct binding list[2] = {{1, "one", 0}, {2, "two", 0}};

static unsigned long remove_file(const char *domain) {
  char path[64];
  snprintf(path, sizeof path, "/var/yp/%s.1", domain);
  return strlen(domain) + strlen(path);
}

static void *pinger(void *arg) {
  struct binding *b = arg;
  unsigned long n = remove_file(b->domain);
#ifdef WHOLE
  n += remove_file((const char *)&b->id);
#else
  n += remove_file(b[-1].domain);
#endif
  return (void *)n;
}

static void *tester(void *arg) {
  list[1].active = -1;
#ifdef WRITES_NAME
  list[1].domain[0] = 'x';
#endif
  return arg;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, pinger, &list[1]);
  pthread_create(&b, 0, tester, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
