#!/usr/bin/env python3
"""Writes a C program whose pointer chain g0 <- g1 <- ... <- gN is listed
backwards, so crace's points-to fixpoint needs about N passes: a slow input
for the time-limit tests."""
import sys

n = int(sys.argv[1])
print("#include <pthread.h>")
print("int target;")
for i in range(n + 1):
    print(f"int *g{i};")
for i in range(n):
    print(f"void f{i}(void) {{ g{i} = g{i + 1}; }}")
print("void *w(void *a) {")
for i in range(n):
    print(f"  f{i}();")
print("  *g0 = 1;\n  return 0;\n}")
print("int main(void) {")
print(f"  g{n} = &target;")
print("  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n  target = 2;\n  return 0;\n}")
