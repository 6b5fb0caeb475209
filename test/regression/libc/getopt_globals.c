// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// getopt writes optarg and optind, globals the program reads: a thread
// that reads optarg while main parses the next option races with getopt.
// expected-verdict: possible-race
// expected-verdict(explore): race-free
// (explore runs main without arguments, argc = 1, an assumption it prints:
// getopt then finds no option and writes nothing)
#include <pthread.h>
#include <unistd.h>
void *t(void *a) {
  return optarg;                                         // expected-race(lockset)
}
int main(int argc, char **argv) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  while (getopt(argc, argv, "o:") != -1)                 // expected-race(lockset)
    ;
  pthread_join(h, 0);
  return 0;
}
