/* A bounded buffer shared by a producer and a consumer, guarded by one
   mutex with two condition variables. */
#include <pthread.h>
#include <stdio.h>

#define N 4
int buf[N];
int count, in, out;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;

void *producer(void *arg) {
  for (int i = 0; i < 100; i++) {
    pthread_mutex_lock(&m);
    while (count == N)
      pthread_cond_wait(&not_full, &m);
    buf[in] = i;
    in = (in + 1) % N;
    count++;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&m);
  }
  return NULL;
}

void *consumer(void *arg) {
  long sum = 0;
  for (int i = 0; i < 100; i++) {
    pthread_mutex_lock(&m);
    while (count == 0)
      pthread_cond_wait(&not_empty, &m);
    sum += buf[out];
    out = (out + 1) % N;
    count--;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&m);
  }
  printf("sum = %ld\n", sum);
  return NULL;
}

int main(void) {
  pthread_t p, c;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  return 0;
}
