// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// getopt writes optarg and optind, globals the program reads: a thread
// that reads optarg while main parses the next option races with getopt.
// expected-verdict: possible-race
// expected-verdict(explore): race
// (glibc's getopt writes optarg on every call, even when it returns -1;
// the model computes getopt exactly, so explore confirms the race; it once
// said race-free, having run main with argc = 1 only, and later stopped at
// getopt, whose results were not computed)
#include <pthread.h>
#include <unistd.h>
void *t(void *a) {
  return optarg;                                         // expected-race
}
int main(int argc, char **argv) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  while (getopt(argc, argv, "o:") != -1)                 // expected-race
    ;
  pthread_join(h, 0);
  return 0;
}
