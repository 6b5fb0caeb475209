// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// getopt writes optarg and optind, globals the program reads: a thread
// that reads optarg while main parses the next option races with getopt.
// expected-verdict: possible-race
// expected-verdict(explore): unknown
// (the command line is an input, and which option getopt picks from it is
// not computed by the model: explore stops there; it once said race-free,
// having run main with argc = 1 only)
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
