// RUN: %crace --verify --engine=lockset --data-model=ILP32 %s
// RUN: %crace --verify --engine=lockset --data-model=LP64 %s
// RUN: %crace --verify --engine=explore --all-races %s
// The same race is found when compiling for 32-bit (SV-COMP's ILP32) as
// for 64-bit; the 4-byte long is one location either way.
// expected-verdict: possible-race
// expected-verdict(explore): race
/* Declared by hand, as in SV-COMP's preprocessed tasks: no 32-bit system
   headers are needed. */
typedef unsigned long pthread_t;
int pthread_create(pthread_t *, const void *, void *(*)(void *), void *);
long counter;
void *w(void *p) {
  counter += sizeof(long);                 // expected-race
  return 0;
}
int main(void) {
  pthread_t h[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&h[i], 0, w, 0);
  return 0;
}
