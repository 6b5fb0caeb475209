// RUN: %crace --verify --engine=explore %s
// The waiting loop reads two variables; main writes the second one before
// raising the flag. The spinning thread is parked once its loop stops
// changing anything, but must still race with the write of 'x' it reads.
// expected-verdict: race
#include <pthread.h>
#include <stdatomic.h>
atomic_int flag;
int x, y;
void *waiter(void *p) {
  while (!atomic_load(&flag))
    if (x == 2)                           // expected-race
      break;
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, waiter, 0);
  for (int i = 0; i < 3; i++)
    y++;
  x = 1;                                  // expected-race
  atomic_store(&flag, 1);
  pthread_join(t, 0);
  return 0;
}
