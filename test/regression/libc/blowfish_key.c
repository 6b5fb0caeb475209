// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s -- -DRACY
// RUN: %not %crace --engine=lockset %s -- -DRACY 2>&1 | %FileCheck %s
// Blowfish, SSLeay/OpenSSL BF_* (models/blowfish.c, exact): BF_set_key
// reads the key bytes and writes the whole BF_KEY schedule;
// BF_cfb64_encrypt reads the input, the schedule and the 8-byte ivec and
// writes the output, the ivec and *num. Without RACY the key and the
// streams are shared under the lock: race-free (unknown before the model).
// With RACY main writes the key material and reads the schedule and the
// ciphertext without the lock: lockset reports them; explore, which runs
// the cipher, confirms the races on the key material and the schedule.
// CHECK-DAG: possible data race on 'key
// CHECK-DAG: possible data race on 'out
// CHECK-DAG: possible data race on 'secret
// CHECK: crace: verdict: possible-race
// expected-verdict: race-free
// expected-verdict(explore): race
#include <pthread.h>
typedef struct bf_key_st {
  unsigned int P[18];
  unsigned int S[1024];
} BF_KEY;
void BF_set_key(BF_KEY *, int, const unsigned char *);
void BF_cfb64_encrypt(const unsigned char *, unsigned char *, long,
                      const BF_KEY *, unsigned char *, int *, int);

BF_KEY key;
unsigned char secret[16], iv[8], in[32], out[32];
int num;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
  pthread_mutex_lock(&lock);
  BF_set_key(&key, sizeof secret, secret); // expected-race(explore)
  BF_cfb64_encrypt(in, out, sizeof in, &key, iv, &num, 1);
  pthread_mutex_unlock(&lock);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  unsigned c;
#ifdef RACY
  secret[0] = 7; // expected-race(explore)
  c = key.P[0] + out[0]; // expected-race(explore)
#else
  pthread_mutex_lock(&lock);
  secret[0] = 7;
  c = key.P[0] + out[0];
  pthread_mutex_unlock(&lock);
#endif
  pthread_join(t, 0);
  return (int)c;
}
