// RUN: %not %crace --engine=kiss --emit-sequential - %s | %FileCheck %s
// RUN: %not %crace --engine=kiss --kiss-target=y --emit-sequential %t.ll %s
// RUN: llvm-as %t.ll -o /dev/null
// RUN: %FileCheck --check-prefix=ONE %s < %t.ll
// The sequential program of the KISS transform: raise, ts, one access
// variable per target, schedule() and RAISE before visible operations,
// checks before the accesses that may touch a target, thread creation as
// put-or-run, locks as a table, main running the original main first.
// CHECK: ; KISS sequential program (crace), ts size 0; targets: x y
// CHECK-DAG: @__kiss_raise = internal global i1 false
// CHECK-DAG: @__kiss_ts_used = internal global [0 x i1] zeroinitializer
// CHECK-DAG: @__kiss_access.x = internal global i8 0
// CHECK-DAG: @__kiss_access.y = internal global i8 0
// CHECK-LABEL: define {{.*}}ptr @t(
// CHECK-DAG: call void @__kiss_schedule()
// CHECK-DAG: call void @__kiss_lock(
// CHECK-DAG: call void @__crace_bmc_fail()
// CHECK-DAG: store i8 3, ptr @__kiss_access.x
// CHECK-DAG: call void @__kiss_unlock(
// CHECK-DAG: store i1 true, ptr @__kiss_raise
// CHECK-LABEL: define internal i32 @__kiss_main(
// CHECK-DAG: call void @__kiss_create(
// CHECK-DAG: load i1, ptr @__kiss_raise
// CHECK-DAG: call void @__crace_bmc_fail()
// CHECK-DAG: store i8 1, ptr @__kiss_access.y
// CHECK-DAG: call void @__kiss_join(
// CHECK-LABEL: define internal void @__kiss_schedule()
// CHECK: call void @__kiss_run(
// CHECK-LABEL: define i32 @main(
// CHECK: call i32 @__kiss_main(
// CHECK: call void @__kiss_schedule()
// ONE: targets: y
// ONE-NOT: @__kiss_access.x
// ONE: @__kiss_access.y
#include <pthread.h>
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x, y;
void helper(void) { x = 2; }
void *t(void *p) {
  pthread_mutex_lock(&m);
  x = 1;
  y = 1;
  pthread_mutex_unlock(&m);
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  helper();
  int v = y;
  pthread_join(h, 0);
  return v;
}
