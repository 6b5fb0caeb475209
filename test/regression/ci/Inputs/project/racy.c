#include <pthread.h>
void count_hit(void);
static void *worker(void *arg) {
  count_hit();
  return arg;
}
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return 0;
}
