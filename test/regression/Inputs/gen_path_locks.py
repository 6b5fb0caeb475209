#!/usr/bin/env python3
"""Writes a program whose thread updates N globals under a lock it takes only
on some paths (`if (c) lock; if (c) g_i++; ...`): the lockset engine reports
N possible races, whoop refutes them one pair query each (path-sensitive
locks). A whoop stage cut in its pair checks keeps the pairs not yet
refuted: where it stops decides the findings.

  gen_path_locks.py N"""
import sys

n = int(sys.argv[1])
print("#include <pthread.h>")
print("extern int __VERIFIER_nondet_int(void);")
print("pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;")
for i in range(n):
    print(f"int g{i};")
print("void *t(void *a) {\n  int c = __VERIFIER_nondet_int();")
print("  if (c) pthread_mutex_lock(&m);")
for i in range(n):
    print(f"  if (c) g{i} += {i};")
print("  if (c) pthread_mutex_unlock(&m);")
print("  return 0;\n}")
print("int main(void) {\n  pthread_t a, b;")
print("  pthread_create(&a, 0, t, 0);\n  pthread_create(&b, 0, t, 0);")
print("  pthread_join(a, 0);\n  pthread_join(b, 0);\n  return 0;\n}")
