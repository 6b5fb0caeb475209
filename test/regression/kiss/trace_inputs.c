// RUN: %crace --verify --engine=kiss %s
// RUN: %not %crace --engine=kiss %s | %FileCheck %s
// RUN: %not %crace --engine=kiss --format=json %s | %FileCheck --check-prefix=JSON %s
// The race needs two input values: main creates the thread only when its
// input is 7, and the thread writes x only when its input (read after its
// unlock) is 42. The kiss trace shows them where the threads read them, in
// the explore engine's format: "(inputs 7)" before main's first step,
// ", then inputs 42" after the thread's unlock.
// expected-verdict: race
// CHECK: error: data race on 'x'
// CHECK: note: interleaving (7 steps):
// CHECK-NEXT: 1. [main] {{.*}}trace_inputs.c:37:5: (inputs 7) thread_create
// CHECK-NEXT: 2. [t] {{.*}}trace_inputs.c:26:3: lock
// CHECK-NEXT: 3. [t] {{.*}}trace_inputs.c:27:4: read y
// CHECK-NEXT: 4. [t] {{.*}}trace_inputs.c:27:4: write y
// CHECK-NEXT: 5. [t] {{.*}}trace_inputs.c:28:3: unlock, then inputs 42
// CHECK-NEXT: 6. [t] {{.*}}trace_inputs.c:30:7: write x (the thread stops before it: the access is pending)
// CHECK-NEXT: 7. [main] {{.*}}trace_inputs.c:38:9: read x (races with the pending write)
// CHECK: verdict: race
// JSON: "action": "unlock, then inputs 42"
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y;
void *t(void *p) {
  pthread_mutex_lock(&m);
  y++;
  pthread_mutex_unlock(&m);
  if (__VERIFIER_nondet_int() == 42)
    x = 1;                                          // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t h;
  int v = 0;
  if (__VERIFIER_nondet_int() == 7) {
    pthread_create(&h, 0, t, 0);
    v = x;                                          // expected-race(kiss)
    pthread_join(h, 0);
  }
  return v;
}
