// RUN: %not %crace --engine=lockset --color=false %s | %FileCheck %s
// The text report: both accesses with source lines and carets, the threads
// and the locks they hold, then the verdict and why it is not race-free.
#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *w(void *p) {
  pthread_mutex_lock(&m);
  counter++;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  counter = 0;
  return 0;
}
// CHECK: output_text.c:9:10: warning: possible data race on 'counter' (write by thread 'w' / write by thread 'main') [possible-race]
// CHECK-NEXT: 9 | counter++;
// CHECK-NEXT: | ^
// CHECK: output_text.c:16:11: note: conflicting write here
// CHECK: note: 'w' holds locks {m}; 'main' holds no locks
// CHECK: crace: verdict: possible-race (1 finding, engine 'lockset')
// CHECK: crace: not proved race-free because:
