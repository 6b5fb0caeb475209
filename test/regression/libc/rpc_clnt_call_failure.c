// RUN: %crace --verify --engine=explore %s
// clntudp_create and clnt_call (glibc's): the client's operations are
// modelled, so the call runs; a call may fail (here, a timed-out one),
// and only then does the thread write g without the lock. The arguments
// and results go through xdr_string and xdr_bool on a model stream.
// expected-verdict: race
#include <pthread.h>
#include <string.h>
typedef int bool_t;
typedef struct XDR XDR;
typedef bool_t (*xdrproc_t)(XDR *, void *, ...);
struct timeval_ { long tv_sec, tv_usec; };
struct sockaddr_in_ { unsigned short sin_family, sin_port; unsigned sin_addr; char z[8]; };
typedef struct CLIENT CLIENT;
struct clnt_ops {
  int (*cl_call)(CLIENT *, unsigned long, xdrproc_t, char *, xdrproc_t, char *,
                 struct timeval_);
  void (*cl_abort)(void);
  void (*cl_geterr)(CLIENT *, void *);
  bool_t (*cl_freeres)(CLIENT *, xdrproc_t, char *);
  void (*cl_destroy)(CLIENT *);
  bool_t (*cl_control)(CLIENT *, int, char *);
};
struct CLIENT { void *cl_auth; struct clnt_ops *cl_ops; char *cl_private; };
extern CLIENT *clntudp_create(struct sockaddr_in_ *, unsigned long, unsigned long,
                              struct timeval_, int *);
extern bool_t xdr_string(XDR *, char **, unsigned);
extern bool_t xdr_bool(XDR *, bool_t *);
static bool_t xdr_domain(XDR *x, char **p) { return xdr_string(x, p, 64); }
int g;
void *t(void *a) {
  g = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  struct sockaddr_in_ addr;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = 2;
  addr.sin_port = 0x6f00;
  int sock = -1;
  struct timeval_ tv = {5, 0};
  CLIENT *c = clntudp_create(&addr, 100004, 2, tv, &sock);
  if (!c)
    return 0;
  char *dom = "example";
  bool_t res = 0;
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  int st = c->cl_ops->cl_call(c, 2, (xdrproc_t)xdr_domain, (char *)&dom,
                              (xdrproc_t)xdr_bool, (char *)&res, tv);
  if (st == 5)
    g = 2;                                               // expected-race
  c->cl_ops->cl_destroy(c);
  pthread_join(h, 0);
  return 0;
}
