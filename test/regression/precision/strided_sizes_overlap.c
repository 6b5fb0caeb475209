// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// Two threads touch one element of an array of structs picked by a
// variable index: one writes the element's 8-byte field 'v', the other
// reads a byte inside that field through a char pointer. The two
// locations are strided (offset 0 and 4, 16 bytes apart) and the accesses
// have different sizes (8 and 1): they meet. mayOverlap once required
// -SizeA < b - a < SizeB (the sizes swapped) and called them apart, so
// the race went unreported.
// expected-verdict: possible-race
// expected-verdict(explore): race
#include <pthread.h>
struct elem {
  long long v;
  long long w;
};
struct elem arr[4];
volatile int idx = 2;
void *writer(void *p) {
  arr[idx].v = 1; // expected-race
  return 0;
}
void *reader(void *p) {
  char c = ((char *)&arr[idx])[4]; // expected-race
  (void)c;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, writer, 0);
  pthread_create(&b, 0, reader, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
