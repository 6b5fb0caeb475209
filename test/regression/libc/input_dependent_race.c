// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// RUN: %not %crace --engine=explore --stats %s 2>&1 | %FileCheck %s
// CHECK-DAG: verdict: race
// CHECK-DAG: guided_runs {{ *}}{{[1-9]}}
// The race happens only for some input: read() and fgets() fill their
// buffers with input, never with what the buffers held before, so no engine
// may call the program race-free. explore samples the bytes, then edits
// the bytes its byte tests compared ('g', 'o', 'o', 'k') and confirms both
// races. (Before comparison-guided inputs: unknown, inputs sampled.)
// expected-verdict(lockset): possible-race
// expected-verdict: race
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
int x;
void *t(void *a) {
  x = 1;                                                 // expected-race
  return 0;
}
int main(void) {
  char cmd[16] = {0}, line[16] = {0};
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  if (read(0, cmd, sizeof cmd) > 2 && cmd[0] == 'g' && cmd[1] == 'o')
    x = 2;                                               // expected-race
  if (fgets(line, sizeof line, stdin) && line[0] == 'o' && line[1] == 'k')
    x = 3;                                               // expected-race
  pthread_join(h, 0);
  return 0;
}
