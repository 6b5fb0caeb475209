// RUN: %crace --entry=handler_a,handler_b --verify --engine=lockset %s -- -I %S/Inputs
// RUN: %crace --entry=handler_a,handler_b --list-entry-points %s -- -I %S/Inputs | %FileCheck %s
// RUN: %not %crace --entry=nosuch %s -- -I %S/Inputs 2>&1 | %FileCheck --check-prefix=BAD %s
// Entry points given on the command line (no ops structure).
// CHECK: entry point handler_a [entry]: --entry
// CHECK: entry point handler_b [entry]: --entry
// BAD: --entry: no function 'nosuch'
// expected-verdict: possible-race
#include "kernel.h"
int shared_a, shared_b;
static spinlock_t lock;
void handler_a(void) {
  spin_lock(&lock);
  shared_a++;
  spin_unlock(&lock);
  shared_b = 1;                            // expected-race
}
void handler_b(void) {
  spin_lock(&lock);
  shared_a--;
  spin_unlock(&lock);
}
void helper(void) { shared_a = 0; }
