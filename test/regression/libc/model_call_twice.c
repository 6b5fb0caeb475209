// RUN: %crace --verify --engine=lockset %s
// RUN: sh -c '%crace --engine=lockset --format=sarif -o %t.sarif %s; test $? -eq 2'
// RUN: /usr/bin/python3 %S/../sarif/Inputs/check_sarif.py %t.sarif --rule possible-race
// RUN: %FileCheck %s < %t.sarif
// A model function that stays a call (memcmp) and is called from two
// places. Each call reads what it passes, at its own line and column
// (ProgramModel::accessesOf), rather than one access in memcmp's body that
// every call's buffer flows into: two results, each with the write first
// and the call it meets as the related location.
// CHECK: "locations": [
// CHECK: "startLine": [[@LINE+19]]
// CHECK: "relatedLocations": [
// CHECK-NEXT: {
// CHECK-NEXT: "id": 1,
// CHECK: "startColumn": 11,
// CHECK-NEXT: "startLine": [[@LINE+20]]
// CHECK: "locations": [
// CHECK: "startLine": [[@LINE+12]]
// CHECK: "relatedLocations": [
// CHECK-NEXT: {
// CHECK-NEXT: "id": 1,
// CHECK: "startColumn": 35,
// CHECK-NEXT: "startLine": [[@LINE+13]]
// expected-verdict: possible-race
#include <pthread.h>
#include <string.h>
char buf[8];
static void *w(void *a) {
  (void)a;
  buf[0] = 1; // expected-race
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  int r = memcmp(buf, "abc", 3) + memcmp(buf, "xyz", 3);
  pthread_join(t, 0);
  return r;
}
