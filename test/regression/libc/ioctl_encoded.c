// RUN: %crace --verify --engine=explore --all-races %s
// RUN: %crace --verify --engine=lockset %s
// ioctl is variadic: the front end calls a fixed-arity model with its third
// operand (src/frontend/LibcLowering.h). A request encoded with _IOC moves
// exactly its size: _IOR writes `ver` (input), racing with the worker's
// read; _IOW reads only `r.out`, not `r.in` the worker writes; _IO with a
// number touches no memory. (Before: explore stopped the main thread at the
// first ioctl with a pointer.) Once the model is inlined, the front end
// folds the branches the request's constant bits decide, so the static
// engines no longer see a write of `r.in` either.
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>
#include <sys/ioctl.h>
struct req { int in; int out; } r;
int ver;
void *w(void *a) {
  int v = ver;                                           // expected-race
  r.in = 1;
  return 0;
}
#define MYIOC_GET _IOR(0x93, 0x70, int)
#define MYIOC_PUT _IOW(0x93, 0x71, int)
#define MYIOC_READY _IO(0x93, 0x60)
int main(void) {
  pthread_t t;
  int fd = 3;
  pthread_create(&t, 0, w, 0);
  ioctl(fd, MYIOC_READY, 7);
  ioctl(fd, MYIOC_PUT, &r.out);
  ioctl(fd, MYIOC_GET, &ver);                           // expected-race
  pthread_join(t, 0);
  return 0;
}
