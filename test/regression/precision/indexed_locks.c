// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore %s
// An array of locks, one per element of the data: each thread locks the
// element its index selects and touches the data at the same index (also
// through a pointer to the element, with the lock inside it). Two workers
// share index 1. When two accesses overlap their indices are equal, and so
// are their locks: no race, though the lock each holds is not one lock
// crace can name (Lockset.cpp, locks chosen by an index).
// expected-verdict: race-free
#include <pthread.h>
struct account {
  pthread_mutex_t lock;
  long balance;
};
struct account accounts[4];
pthread_mutex_t locks[4];
int counts[4];
void *worker(void *arg) {
  unsigned i = (unsigned)(long)arg % 4;
  pthread_mutex_lock(&locks[i]);
  counts[i]++;
  pthread_mutex_unlock(&locks[i]);
  struct account *a = &accounts[i];
  pthread_mutex_lock(&a->lock);
  a->balance += 10;
  pthread_mutex_unlock(&a->lock);
  return 0;
}
int main(void) {
  for (int i = 0; i < 4; i++) {
    pthread_mutex_init(&locks[i], 0);
    pthread_mutex_init(&accounts[i].lock, 0);
  }
  pthread_t t[3];
  pthread_create(&t[0], 0, worker, (void *)1);
  pthread_create(&t[1], 0, worker, (void *)1);
  pthread_create(&t[2], 0, worker, (void *)2);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], 0);
  return 0;
}
