// RUN: %crace --verify --engine=kiss --kiss-max=1 %s
// Clang lowers atomic loads and stores of pointers to integer ones; crace
// types them back as pointers, so the bmc keeps the stored address's
// provenance. Without that, the address stored in 'slot' became an
// arbitrary integer and kiss could not confirm the race on 'data' that the
// thread reaches through it.
// expected-verdict: race
#include <pthread.h>
int data;
int *slot;
void *t(void *arg) {
  int *p = __atomic_load_n(&slot, __ATOMIC_ACQUIRE);
  if (p)
    *p = 1;                                         // expected-race(kiss)
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  __atomic_store_n(&slot, &data, __ATOMIC_RELEASE);
  int v = data;                                     // expected-race(kiss)
  pthread_join(h, 0);
  return v;
}
