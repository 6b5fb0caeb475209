// RUN: %crace --verify --engine=explore %s
// argc is an input of 1..4 (frontend/ProgramStart.h), argv[0] a string:
// the usual start of a program without arguments is among them. (With
// argc = 0 the program would exit at once and a search would wrongly find
// nothing; an SV-COMP task did this.)
// expected-verdict: race
#include <pthread.h>
#include <stdlib.h>
int a;
void *t(void *p) { a = 1; return 0; }                 // expected-race
int main(int argc, char *argv[]) {
  if (argc != 1 || argv[0] == 0 || argv[1] != 0)
    exit(1);
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int v = a;                                          // expected-race
  pthread_join(h, 0);
  return v;
}
