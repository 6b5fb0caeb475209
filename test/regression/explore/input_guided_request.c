// RUN: %crace --verify --engine=explore %s
// RUN: %not %crace --engine=explore --format=json %s | %FileCheck %s
// A server thread only counts a request that spells "GET /<path> HTTP/1.0"
// and ends in an empty line, as knot's parser does: strstr for "\r\n",
// strchr for the blanks, strcmp for the method and protocol, a test of the
// path's first byte. Sampled socket bytes never do. Comparison-guided
// inputs edit the bytes read where a comparison failed (inserting, or
// replacing, what it compared them with, and lengthening the read) until
// the count is reached; its unlocked read by main then races. (Before:
// unknown, "nondeterministic inputs were sampled".)
// expected-verdict: race
// CHECK: "guided_runs": {{[1-9]}}
#include <pthread.h>
#include <string.h>
#include <unistd.h>
int served;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static char *get_line(int fd, char *buf, int *used, int *valid) {
  for (;;) {
    buf[*valid] = 0;
    char *start = buf + *used, *nl = strstr(start, "\r\n");
    if (nl) {
      *nl = 0;
      *used = (int)(nl - buf) + 2;
      return start;
    }
    if (*valid >= 255)
      return 0;
    long n = read(fd, buf + *valid, 255 - *valid);
    if (n <= 0)
      return 0;
    *valid += (int)n;
  }
}
void *client(void *arg) {
  int fd = (int)(long)arg, used = 0, valid = 0;
  char buf[256], path[64];
  char *line = get_line(fd, buf, &used, &valid);
  if (!line)
    return 0;
  char *url = strchr(line, ' ');
  if (!url)
    return 0;
  *url++ = 0;
  char *proto = strchr(url, ' ');
  if (!proto)
    return 0;
  *proto++ = 0;
  if (strcmp(line, "GET") != 0 || strcmp(proto, "HTTP/1.0") != 0)
    return 0;
  if (strlen(url) >= sizeof path)
    return 0;
  strcpy(path, url);
  char *end = get_line(fd, buf, &used, &valid);
  if (!end || end[0] != 0)
    return 0;
  if (path[0] != '/')
    return 0;
  pthread_mutex_lock(&m);
  served++;                                         // expected-race
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, client, (void *)3L);
  int seen = served;                                // expected-race
  pthread_join(t, 0);
  return seen;
}
