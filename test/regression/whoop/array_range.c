// RUN: %crace --verify --engine=whoop %s
// RUN: %crace --verify --engine=lockset %s
// One thread fills s.buf[0..3] in a loop; the other writes s.count, which
// lies after the buffer. whoop's watched offset and the loop bound show
// the two never meet; the lockset engine sees it too: an index stays in
// its array (model/PointsTo.h, strided locations).
// expected-verdict: race-free
#include <pthread.h>
struct state {
  int buf[4];
  int count;
} s;
void *fill(void *arg) {
  for (unsigned i = 0; i < 4; i++)
    s.buf[i] = 7;
  return 0;
}
void *bump(void *arg) {
  s.count = 1;
  return 0;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, fill, 0);
  pthread_create(&b, 0, bump, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
