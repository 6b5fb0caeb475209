#!/usr/bin/env python3
"""Writes a program whose only conflicting accesses ('data', ordered by an
atomic flag the lockset engine does not understand) are no race, among
N threads that each take a mutex K times: the lockset engine reports the
possible races at once, explore's search over the lock orders runs long.
A slow input for the time-budget tests."""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 8
k = int(sys.argv[2]) if len(sys.argv) > 2 else 4
print("""#include <pthread.h>
#include <stdatomic.h>
atomic_int turn;
int data;
int counter;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
void *worker(void *a) {
  for (int i = 0; i < %d; i++) {
    pthread_mutex_lock(&m);
    counter++;
    pthread_mutex_unlock(&m);
  }
  return 0;
}
void *producer(void *a) {
  data = 1;
  atomic_store(&turn, 1);
  return 0;
}
void *consumer(void *a) {
  while (atomic_load(&turn) == 0)
    ;
  data = 2;
  return 0;
}
int main(void) {
  pthread_t p, q, w[%d];
  pthread_create(&p, 0, producer, 0);
  pthread_create(&q, 0, consumer, 0);
  for (int i = 0; i < %d; i++)
    pthread_create(&w[i], 0, worker, 0);
  pthread_join(p, 0);
  pthread_join(q, 0);
  for (int i = 0; i < %d; i++)
    pthread_join(w[i], 0);
  return 0;
}""" % (k, n, n, n))
