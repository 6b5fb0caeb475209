// RUN: %not %crace --engine=lockset --format=json %s | %FileCheck %s
// RUN: %crace --engine=lockset --format=json %S/mutex_protected.c | %FileCheck --check-prefix=FREE %s
// The JSON report (schema in docs/output.md).
#include <pthread.h>
int x;
void *w(void *p) { x = 1; return 0; }
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, w, 0);
  return x;
}
// CHECK: "verdict": "possible-race"
// CHECK: "engine": "lockset"
// CHECK: "findings": [
// CHECK: "verdict": "possible-race"
// CHECK: "accesses": [
// CHECK: "file": "{{.*}}output_json.c"
// CHECK-NEXT: "line": 6
// CHECK-NEXT: "column": 22
// CHECK-NEXT: "kind": "write"
// CHECK: "thread": "w"
// CHECK-NEXT: "variable": "x"
// CHECK: "kind": "read"
// CHECK: "thread": "main"
// CHECK: "stats": {
// FREE: "verdict": "race-free"
// FREE: "assumptions": [
// FREE-NEXT: "sequential consistency
