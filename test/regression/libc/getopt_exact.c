// RUN: %crace --verify --engine=explore %s
// getopt is glibc's, exactly, where glibc would not permute argv: grouped
// options, an argument attached or in the next string, an unknown option
// (optopt), "--". The race needs every result to be the real one (before:
// getopt's results were not computed and explore stopped there).
// expected-verdict: race
#include <pthread.h>
#include <string.h>
#include <unistd.h>
int g;
void *t(void *a) {
  g = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  char *av[] = {"prog", "-ab", "-o", "out", "-pfile", "-x", "--", "rest", 0};
  int ac = 8, c, seen = 0;
  char *o = 0, *p = 0;
  while ((c = getopt(ac, av, ":abo:p:")) != -1) {
    if (c == 'a')
      seen |= 1;
    else if (c == 'b')
      seen |= 2;
    else if (c == 'o')
      o = optarg;
    else if (c == 'p')
      p = optarg;
    else if (c == '?' && optopt == 'x')
      seen |= 4;
  }
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (seen == 7 && o && !strcmp(o, "out") && p && !strcmp(p, "file") &&
      optind == 7 && !strcmp(av[optind], "rest"))
    g = 2;                                               // expected-race
  pthread_join(h, 0);
  return 0;
}
