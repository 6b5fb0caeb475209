// RUN: %crace --verify --engine=lockset %s
// RUN: sh -c '%crace --engine=lockset --format=sarif -o %t.sarif %s; test $? -eq 2'
// RUN: /usr/bin/python3 %S/../sarif/Inputs/check_sarif.py %t.sarif --rule possible-race
// RUN: %FileCheck %s < %t.sarif
// A model function that stays a call (memcmp) and is called from two
// places: its access has no line, only the function is known. SARIF names
// it as a logical location and puts the access that has a line first (code
// scanning shows a result at its first location).
// CHECK: "locations": [
// CHECK: "startLine": [[@LINE+14]]
// CHECK: "relatedLocations": [
// CHECK-NEXT: {
// CHECK-NEXT: "id": 1,
// CHECK-NEXT: "logicalLocations": [
// CHECK-NEXT: {
// CHECK-NEXT: "kind": "function",
// CHECK-NEXT: "name": "memcmp"
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
