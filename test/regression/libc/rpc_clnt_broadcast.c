// RUN: %crace --verify --engine=explore %s
// RUN: %crace --verify --engine=lockset %s
// clnt_broadcast (glibc's): the arguments are encoded by the program's xdr
// routine, a reply's results are decoded by xdr_bool from input and
// eachresult runs on them; a TRUE from it ends the broadcast with
// RPC_SUCCESS. Only then does main write g without the lock (before: no
// model, explore stopped main at the call).
// expected-verdict: race
// expected-verdict(lockset): possible-race
#include <pthread.h>
typedef int bool_t;
typedef struct XDR XDR;
typedef bool_t (*xdrproc_t)(XDR *, void *, ...);
struct sockaddr_in_ { unsigned short sin_family, sin_port; unsigned sin_addr; char z[8]; };
typedef bool_t (*resultproc_t)(char *, struct sockaddr_in_ *);
extern int clnt_broadcast(unsigned long, unsigned long, unsigned long, xdrproc_t, char *,
                          xdrproc_t, char *, resultproc_t);
extern bool_t xdr_string(XDR *, char **, unsigned);
extern bool_t xdr_bool(XDR *, bool_t *);
static bool_t xdr_domain(XDR *x, char **p) { return xdr_string(x, p, 64); }
int g, answers;
static bool_t each(char *out, struct sockaddr_in_ *addr) {
  answers++;
  return *(bool_t *)out;
}
void *t(void *a) {
  g = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  char *dom = "example";
  bool_t out = 0;
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int st = clnt_broadcast(100004, 2, 2, (xdrproc_t)xdr_domain, (char *)&dom,
                          (xdrproc_t)xdr_bool, (char *)&out, each);
  if (st == 0 && out && answers > 0)
    g = 2;                                               // expected-race
  pthread_join(h, 0);
  return 0;
}
