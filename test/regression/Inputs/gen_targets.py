#!/usr/bin/env python3
"""Writes a program whose thread makes N accesses through a pointer that may
point to any of M globals: whoop's encoding of the thread takes long (N x M
targets per copy). A slow input for the whoop budget tests.

  gen_targets.py N M"""
import sys

n, m = int(sys.argv[1]), int(sys.argv[2])
print("#include <pthread.h>")
print("extern int __VERIFIER_nondet_int(void);")
for i in range(m):
    print(f"int g{i}[4];")
print(f"int *tab[{m}] = {{" + ", ".join(f"g{i}" for i in range(m)) + "};")
print("void *t(void *a) {\n  int k = __VERIFIER_nondet_int();\n  int *p = tab[k];")
for i in range(n):
    print(f"  p[{i % 4}] += {i};")
print("  return 0;\n}")
print("int main(void) {\n  pthread_t a, b;")
print("  pthread_create(&a, 0, t, 0);\n  pthread_create(&b, 0, t, 0);")
print("  pthread_join(a, 0);\n  pthread_join(b, 0);\n  return 0;\n}")
