// RUN: %not %crace --engine=kiss --kiss-yields=all --kiss-target=x --emit-sequential %t.ll %s
// RUN: %FileCheck --check-prefix=T %s < %t.ll
// RUN: %FileCheck --check-prefix=M %s < %t.ll
// RUN: %FileCheck --check-prefix=RUN0 %s < %t.ll
// RUN: %not %crace --engine=kiss --kiss-yields=all --kiss-max=1 --kiss-target=x --emit-sequential %t1.ll %s
// RUN: %FileCheck --check-prefix=TS %s < %t1.ll
// --kiss-yields=all: schedule points before every visible instruction.
// The order of the KISS structures in the emitted program (emit_sequential.c
// checks that they exist): schedule() and the nondeterministic RAISE right
// before each visible instruction, the race check (failure) and the record
// of the pending access between them, RAISE as `raise = true; return`,
// `if (raise) return` right after a call that may raise, and thread
// creation as a put into ts (--kiss-max=1) or a run at once (ts size 0).
//
// The thread: schedule() first, then choose to check the access of x...
// T-LABEL: define {{.*}}ptr @t(
// T-NOT: {{load|store|call i|br }}
// T: call void @__kiss_schedule()
// T-NEXT: %[[GO:[0-9]+]] = call i1 @__kiss_nondet()
// T-NEXT: br i1 %[[GO]], label %[[CHECK:[0-9]+]], label %[[NEXT:[0-9]+]]
// ... the write of x is reached only through the RAISE choice below ...
// T: {{^}}[[OP:[0-9]+]]:
// T-NEXT: store i32 1, ptr @x
// T-NEXT: ret ptr null
// ... the check reads the recorded access of x ...
// T: {{^}}[[CHECK]]:
// T-NEXT: load i8, ptr @__kiss_access.x
// ... RAISE or go on to the write ...
// T: {{^}}[[NEXT]]:
// T: call i1 @__kiss_nondet()
// T: br i1 %{{[0-9]+}}, label %[[RAISE:[0-9]+]], label %[[OP]]
// ... a conflict is the race (then the thread stops) ...
// T: call void @__crace_bmc_fail()
// T-NEXT: br label %[[RAISE]]
// ... otherwise the write is recorded (present | write) and the thread stops
// at it ...
// T: store i8 3, ptr @__kiss_access.x
// T: br label %[[RAISE]]
// T: {{^}}[[RAISE]]:
// T-NEXT: store i1 true, ptr @__kiss_raise
// T-NEXT: ret ptr undef
// T-NEXT: }
//
// main's body: schedule() and RAISE before the creation, the creation is a
// call of __kiss_create, `if (raise) return` right after helper() (it has a
// visible access), the read of x recorded as a read.
// M-LABEL: define internal i32 @__kiss_main(
// M: call void @__kiss_schedule()
// M: br i1 %{{[0-9]+}}, label %[[RAISE:[0-9]+]], label %[[C:[0-9]+]]
// M: {{^}}[[C]]:
// M-NEXT: call void @__kiss_create(ptr {{.*}}, ptr {{.*}}@t, ptr
// M-NEXT: call void @__kiss_schedule()
// M: call void @helper()
// M-NEXT: %[[R:[0-9]+]] = load i1, ptr @__kiss_raise
// M-NEXT: br i1 %[[R]], label %[[RAISE]], label
// M: call void @__kiss_schedule()
// M: load i32, ptr @x
// M: call void @__kiss_join(
// M: {{^}}[[RAISE]]:
// M-NEXT: store i1 true, ptr @__kiss_raise
// M-NEXT: ret i32 undef
// M: store i8 1, ptr @__kiss_access.x
//
// ts size 0: creation runs the thread at once.
// RUN0-LABEL: define internal void @__kiss_create(
// RUN0-SAME: ptr %{{[0-9]+}}, ptr %[[FN:[0-9]+]], ptr %[[ARG:[0-9]+]])
// RUN0-NOT: @__kiss_ts_fn
// RUN0: call void @__kiss_run(ptr %[[FN]], ptr %[[ARG]],
// RUN0-NEXT: ret void
// RUN0-NEXT: }
//
// ts size 1: creation puts (routine, argument, id) into the free slot (slot
// 0's address is the table's own), and runs the thread at once only when ts
// is full.
// TS-LABEL: define internal void @__kiss_create(
// TS-SAME: ptr %{{[0-9]+}}, ptr %[[FN:[0-9]+]], ptr %[[ARG:[0-9]+]])
// TS: %[[USED:[0-9]+]] = load i1, ptr @__kiss_ts_used
// TS-NEXT: br i1 %[[USED]], label %[[FULL:[0-9]+]], label %[[PUT:[0-9]+]]
// TS: {{^}}[[PUT]]:
// TS-NEXT: store i1 true, ptr @__kiss_ts_used
// TS-NEXT: store ptr %[[FN]], ptr @__kiss_ts_fn
// TS-NEXT: store ptr %[[ARG]], ptr @__kiss_ts_arg
// TS-NEXT: store i{{[0-9]+}} %{{[0-9]+}}, ptr @__kiss_ts_id
// TS: {{^}}[[FULL]]:
// TS-NEXT: call void @__kiss_run(ptr %[[FN]], ptr %[[ARG]],
// TS: ret void
// TS-NEXT: }
#include <pthread.h>
int x, y;
void helper(void) { y = 2; }
void *t(void *p) {
  x = 1;
  return 0;
}
int main(void) {
  pthread_t h;
  pthread_create(&h, 0, t, 0);
  helper();
  int v = x;
  pthread_join(h, 0);
  return v;
}
