// RUN: %crace --driver --verify --engine=kiss --not-concurrent=dev_write:dev_write %s -- -I %S/../drivers/Inputs
// (write against write races too; kiss reports one race per object, the
// first counterexample Z3 gives, so that pair is excluded here to make the
// read/write one the race to find)
// Issue 5, item 5: a driver checked by kiss with the KISS paper's harness
// (the default for kiss in driver mode): two threads, each calling one
// entry point chosen nondeterministically. read and write race on the
// driver's 'status'; kiss confirms it with an interleaving.
// RUN: %crace --driver --engine=kiss --list-entry-points %s -- -I %S/../drivers/Inputs | %FileCheck --check-prefix=LIST %s
// LIST: harness: 2 concurrent entry point(s) x 2 threads (dispatch: each thread calls one of them)
// LIST: assumption: driver harness (dispatch): 2 threads each call one of the entry points dev_read, dev_write
// With the harness constraint that read and write never run concurrently
// (and write never with itself), the race is gone: kiss finds none and, as
// always, does not claim race freedom.
// RUN: %not %crace --driver --engine=kiss --not-concurrent=dev_read:dev_write,dev_write:dev_write %s -- -I %S/../drivers/Inputs | %FileCheck --check-prefix=ON %s
// ON: crace: verdict: unknown
// ON: kiss: no race in the executions KISS explores
// The per-entry-point harness works for kiss too (which of the races on
// 'status' the checker shows first depends on the solver).
// RUN: %not %crace --driver --engine=kiss --harness=threads %s -- -I %S/../drivers/Inputs | %FileCheck --check-prefix=THREADS %s
// THREADS: error: data race on 'status' ({{read|write}} by thread 'entry point dev_{{read|write}}' / write by thread 'entry point dev_write')
// THREADS: crace: verdict: race
// expected-verdict: race
#include "kernel.h"
static int status;
static ssize_t dev_read(struct file *f, char __user *buf, size_t n, loff_t *pos) {
  return status; // races with the write; the solver may show either pair
}
static ssize_t dev_write(struct file *f, const char __user *buf, size_t n,
                         loff_t *pos) {
  status = (int)n;                         // expected-race(kiss)
  return n;
}
static const struct file_operations fops = {.read = dev_read, .write = dev_write};
static int dev_init(void) { return misc_register((void *)&fops); }
module_init(dev_init);
