// RUN: %crace --verify --engine=lockset %s 2>&1 | %FileCheck %s
// RUN: %crace --verify --engine=explore --all-races %s
// Without main the input is a library: library mode's harness calls its
// exported functions concurrently, so handler races with itself.
// CHECK: no unit defines main: checking the input as a library
// expected-verdict: race
// expected-verdict(lockset): possible-race
int x;
void handler(void) { x++; } // expected-race
