// RUN: %crace --verify --engine=lockset %s
// RUN: %not %crace --engine=lockset %s 2>&1 | %FileCheck %s
// CHECK-NOT: by thread 'main'
// CHECK: verdict: possible-race (1 finding
// An unresolved indirect call in main may create threads, but not
// instances of worker: they are all created at one site of main, later.
// So main's write between the two is ordered before every worker (it was
// reported against worker when the call made main "after a spawn").
// expected-verdict: possible-race
#include <pthread.h>
int x;
void *worker(void *a) {
  x = 2;                                   // expected-race
  return 0;
}
extern void (*get_callback(void))(void);
int main(void) {
  void (*f)(void) = get_callback();
  f();
  x = 1;
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, worker, 0);
  for (int i = 0; i < 2; i++)
    pthread_join(h[i], 0);
  return 0;
}
