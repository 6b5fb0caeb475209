// RUN: sh -c '%crace --library %s 2> %t.err; test $? -eq 3'
// RUN: %FileCheck %s < %t.err
// RUN: sh -c '%crace %s 2> %t.auto; test $? -eq 3'
// RUN: %FileCheck %s < %t.auto
// A unit with neither main nor an exported function has nothing to run:
// a usage error (exit 3) that says what to give.
// CHECK: library mode: no entry points found (no function with external linkage is defined in the input files, and none is main); give them with --entry=f,g
static int x;
static void f(void) { x++; }
