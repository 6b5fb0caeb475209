// RUN: %crace --verify --engine=explore %s
// syscall(SYS_write, fd, buf, n) is write(fd, buf, n) (the front end
// rewrites a call whose number is a constant naming read or write on the
// target): the buffer is read, a byte count comes back, and the thread goes
// on to its race. (Before: "a library model does not compute this call's
// result", the main thread stopped there, unknown.)
// expected-verdict: race
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>
int counter;
char msg[] = "hello\n";
void *t(void *a) {
  counter++;                                        // expected-race
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  long n = syscall(SYS_write, 2, msg, sizeof msg - 1);
  if (n >= 0)
    counter++;                                      // expected-race
  pthread_join(h, 0);
  return 0;
}
