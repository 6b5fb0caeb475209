// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// Each worker takes a slot number from a counter that every take advances
// under a lock (written both as "j = next++" and as "j = next; next++"),
// then writes the slot's cells without the lock. No two takes give one
// number, so no two workers write one cell (analysis/Tickets.h). main sets
// the counter before any thread exists.
// expected-verdict: race-free
#include <pthread.h>
#include <stdlib.h>
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int next_slot, next_row;
long totals[8];
int *rows;
void *worker(void *arg) {
  pthread_mutex_lock(&lock);
  int j = next_slot++;
  pthread_mutex_unlock(&lock);
  totals[j] += j;
  pthread_mutex_lock(&lock);
  int r = next_row;
  next_row++;
  pthread_mutex_unlock(&lock);
  rows[r] = r;
  return 0;
}
int main(void) {
  next_slot = 0;
  rows = calloc(8, sizeof *rows);
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], 0, worker, 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return 0;
}
