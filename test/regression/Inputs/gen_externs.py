#!/usr/bin/env python3
"""Writes a racy program whose N functions, called by a thread, each call an
external function crace has no model for: the reasons list N unknown
externals, each with its call site, in an order that must not depend on
where the functions happen to be in memory."""
import sys

n = int(sys.argv[1])
print("#include <pthread.h>")
print("int x;")
for i in range(n):
    print(f"extern void ext{i}(void);")
    print(f"void f{i}(void) {{ ext{i}(); x = {i}; }}")
print("void *t(void *a) {")
for i in range(n):
    print(f"  f{i}();")
print("  return 0;\n}")
print("int main(void) {\n  pthread_t h;\n  pthread_create(&h, 0, t, 0);")
print("  x = -1;\n  pthread_join(h, 0);\n  return 0;\n}")
