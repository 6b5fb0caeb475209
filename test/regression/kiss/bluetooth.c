// RUN: %crace --verify --engine=kiss --kiss-max=1 --kiss-target=stoppingFlag %s
// The simplified Bluetooth driver of the KISS paper (Fig. 2): the race on
// stoppingFlag needs no forked thread to wait (ts size 0 in the paper), the
// assertion failure needs one (ts size 1): BCSP_PnpStop runs inside
// BCSP_IoIncrement, between the flag test and the increment. The fields
// are globals here (as in the paper's figure); stoppingEvent has a race
// too, so the run checks stoppingFlag only.
// expected-verdict: race
#include <pthread.h>
#include <assert.h>
struct DEVICE_EXTENSION {
  int pendingIo;
  int stoppingEvent;
} e;
int stoppingFlag;
int stopped;
extern void __VERIFIER_assume(int);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);

int BCSP_IoIncrement(void) {
  if (stoppingFlag)                               // expected-race(kiss)
    return -1;
  __VERIFIER_atomic_begin();
  e.pendingIo = e.pendingIo + 1;
  __VERIFIER_atomic_end();
  return 0;
}
void BCSP_IoDecrement(void) {
  int pendingIo;
  __VERIFIER_atomic_begin();
  e.pendingIo = e.pendingIo - 1;
  pendingIo = e.pendingIo;
  __VERIFIER_atomic_end();
  if (pendingIo == 0)
    e.stoppingEvent = 1;
}
void BCSP_PnpAdd(void) {
  int status = BCSP_IoIncrement();
  if (status == 0) {
    assert(!stopped);                               // expected-assertion(kiss)
  }
  BCSP_IoDecrement();
}
void *BCSP_PnpStop(void *p) {
  stoppingFlag = 1;                               // expected-race(kiss)
  BCSP_IoDecrement();
  __VERIFIER_assume(e.stoppingEvent);
  stopped = 1;
  return 0;
}
int main(void) {
  pthread_t t;
  e.pendingIo = 1;
  pthread_create(&t, 0, BCSP_PnpStop, 0);
  BCSP_PnpAdd();
  return 0;
}
