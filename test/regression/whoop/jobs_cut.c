// RUN: %crace --verify --engine=whoop %s
// Four thread templates write one counter under a lock they take on the
// same local condition: whoop refutes every pair of templates (six
// template pairs, each a task of its own). jobs_cut.test cuts whoop's work
// budget in the middle of them and checks that --jobs does not change
// which pairs were refuted.
// expected-verdict(whoop): race-free
#include <pthread.h>
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
#define WORKER(name, k)                                                        \
  void *name(void *arg) {                                                      \
    int locked = arg != 0;                                                     \
    if (locked)                                                                \
      pthread_mutex_lock(&m);                                                  \
    if (locked)                                                                \
      counter += k;                                                            \
    if (locked)                                                                \
      pthread_mutex_unlock(&m);                                                \
    return 0;                                                                  \
  }
WORKER(a, 1)
WORKER(b, 2)
WORKER(c, 3)
WORKER(d, 4)
int main(void) {
  pthread_t h[4];
  pthread_create(&h[0], 0, a, &h[0]);
  pthread_create(&h[1], 0, b, &h[1]);
  pthread_create(&h[2], 0, c, &h[2]);
  pthread_create(&h[3], 0, d, &h[3]);
  for (int i = 0; i < 4; i++)
    pthread_join(h[i], 0);
  return 0;
}
