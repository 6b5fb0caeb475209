// A program of three units for cache.test: main starts two workers.
#include "shared.h"
#include <pthread.h>

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, worker, 0);
  pthread_create(&b, 0, worker, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return util_value() - 1;
}
