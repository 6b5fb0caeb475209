#!/usr/bin/env python3
"""Writes a racy program with N unprotected writes in a thread created in a
loop: about N*N/2 conflicting pairs, enough to hit the pairing bound."""
import sys

n = int(sys.argv[1])
print("#include <pthread.h>\nint x;\nvoid *w(void *a) {")
for i in range(n):
    print(f"  x = {i};")
print("  return 0;\n}")
print("int main(void) {\n  pthread_t t[2];")
print("  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);")
print("  return 0;\n}")
