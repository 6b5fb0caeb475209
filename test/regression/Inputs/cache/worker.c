// The workers race on counter (cache.test).
#include "shared.h"

int counter;

void *worker(void *arg) {
  counter += util_value();
  return arg;
}
