// RUN: %crace --verify --engine=lockset %s
// RUN: %crace --verify --engine=explore --all-races %s
// strict_aliasing_types.c with the accesses C lets alias: a plain 'int'
// lvalue may access the 'int' member of any struct, a union member access
// may access any of its members (clang tags it as 'char', which aliases
// everything), and a member of a struct that contains 'struct A' at that
// offset is a member of that 'struct A'. Each of these races with the
// unlocked write to 'ga.y'.
// expected-verdict(lockset): possible-race
// expected-verdict(explore): race
#include <pthread.h>
struct A {
  int x;
  int y;
};
struct Outer {
  struct A a;
  int z;
};
union U {
  struct A a;
  long long l;
};
struct A ga;
struct Outer go;
union U gu;
void *writer(void *arg) {
  ga.y = 1;  // expected-race
  go.a.y = 1; // expected-race
  gu.a.y = 1; // expected-race
  return 0;
}
void *through_int(void *arg) {
  int *p = &ga.y;
  *p = 2; // expected-race
  return 0;
}
void *through_outer(void *arg) {
  struct Outer *o = &go;
  o->a.y = 3; // expected-race
  return 0;
}
void *through_union(void *arg) {
  union U *u = &gu;
  u->l = 4; // expected-race
  return 0;
}
int main(void) {
  pthread_t t[4];
  pthread_create(&t[0], 0, writer, 0);
  pthread_create(&t[1], 0, through_int, 0);
  pthread_create(&t[2], 0, through_outer, 0);
  pthread_create(&t[3], 0, through_union, 0);
  for (int i = 0; i < 4; i++)
    pthread_join(t[i], 0);
  return 0;
}
