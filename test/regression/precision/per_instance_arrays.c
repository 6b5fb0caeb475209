// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// Threads created in a loop, each handed its own part of an array: the
// address of its cell (&cells[i]) or its index ((void *)i) into a global
// array and into an array a global pointer holds, which main sets before
// the first thread starts. Each thread touches only its own element (a
// field of it, or the whole element), so no two threads race
// (analysis/InstanceMemory.h, the Strided and Index shapes); main fills
// each cell before the create that hands it out.
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
struct cell {
  int value;
  char tag;
};
struct slot {
  long sum;
  int hits;
};
struct slot slots[3];
int *results;
void *by_address(void *arg) {
  struct cell *c = arg;
  c->value += 1;
  c->tag = 'x';
  return 0;
}
void *by_index(void *arg) {
  int i = (int)(long)arg;
  slots[i].sum += i;
  slots[i].hits++;
  results[i] = i * 2;
  return 0;
}
int main(void) {
  pthread_t a[3], b[3];
  struct cell *cells = calloc(3, sizeof *cells);
  results = calloc(3, sizeof *results);
  for (int i = 0; i < 3; i++) {
    struct cell *c = &cells[i];
    c->tag = 'a'; // before the create that hands the cell out
    pthread_create(&a[i], 0, by_address, c);
  }
  for (int i = 0; i < 3; i++)
    pthread_create(&b[i], 0, by_index, (void *)(long)i);
  for (int i = 0; i < 3; i++) {
    pthread_join(a[i], 0);
    pthread_join(b[i], 0);
  }
  return cells[0].value + results[1] + slots[2].hits;
}
