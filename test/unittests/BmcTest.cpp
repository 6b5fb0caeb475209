//===- BmcTest.cpp - unit tests of the bmc core (sequential BMC on Z3) ----===//
//
// Small sequential C programs with known answers, compiled through crace's
// front end (so the C models are linked and inlined, as in real runs) and
// checked from main. Each expectation is exact: the status, and for Unsafe
// the counterexample's inputs; for Unknown the reason that must be given.
//
//===----------------------------------------------------------------------===//
#include "bmc/Bmc.h"
#include "TestUtil.h"
#include "smt/WorkMeter.h"
#include "gtest/gtest.h"

#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/Instructions.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace crace;
using namespace crace::test;

namespace {

const char *Prelude = R"C(
void reach_error(void);
void abort(void);
void exit(int);
int __VERIFIER_nondet_int(void);
unsigned __VERIFIER_nondet_uint(void);
void __VERIFIER_assume(int);
void *malloc(unsigned long);
void *calloc(unsigned long, unsigned long);
void free(void *);
void *memcpy(void *, const void *, unsigned long);
void *memset(void *, int, unsigned long);
void __crace_bmc_fail(void);
)C";

/// A compiled program and its checker (the result points into the module).
struct Run {
  Compiled C;
  std::unique_ptr<bmc::Checker> K;
  bmc::Result R;
  std::string Text;
};

std::unique_ptr<Run> runBmc(const std::string &Code, bmc::Options O = {}) {
  auto X = std::make_unique<Run>();
  X->C = compile(std::string(Prelude) + Code);
  if (!X->C.M) {
    X->Text = "compile failed: " + X->C.Error;
    return X;
  }
  auto K = bmc::Checker::create(*X->C.M, "main", O);
  if (!K) {
    X->Text = llvm::toString(K.takeError());
    return X;
  }
  X->K = std::move(*K);
  X->R = X->K->check();
  X->Text = bmc::Checker::describe(X->R);
  if (getenv("CRACE_BMC_VERBOSE"))
    fprintf(stderr, "%s", X->Text.c_str());
  return X;
}

bool hasReason(const bmc::Result &R, const std::string &Part) {
  for (const std::string &S : R.Reasons)
    if (S.find(Part) != std::string::npos)
      return true;
  return false;
}

std::vector<int64_t> inputs(const bmc::Result &R) {
  std::vector<int64_t> V;
  if (R.Cex)
    for (const bmc::NondetValue &N : R.Cex->Inputs)
      V.push_back(N.Value.getSExtValue());
  return V;
}

#define EXPECT_STATUS(X, St) EXPECT_EQ((X)->R.S, bmc::Status::St) << (X)->Text

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

TEST(BmcArith, IncrementNeverEqualsSelf) {
  auto X = runBmc(R"C(
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x + 1;
  if (y == x) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
  EXPECT_FALSE(X->R.Assumptions.empty());
}

TEST(BmcArith, NondetBitsHasOnlyItsBits) {
  // __crace_nondet_bits(3) is 0..7 (explore draws it so): 8 is unreachable,
  // 7 is reachable.
  auto Safe = runBmc(R"C(
unsigned __crace_nondet_bits(int);
int main(void) {
  unsigned v = __crace_nondet_bits(3);
  if (v > 7) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Safe, Safe);
  auto Unsafe = runBmc(R"C(
unsigned __crace_nondet_bits(int);
int main(void) {
  unsigned v = __crace_nondet_bits(3);
  if (v == 7) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Unsafe, Unsafe);
}

TEST(BmcArith, UnsignedOverflowWraps) {
  auto X = runBmc(R"C(
int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  if (x + 1u < x) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unsafe);
  ASSERT_TRUE(X->R.Cex);
  ASSERT_EQ(X->R.Cex->Inputs.size(), 1u);
  EXPECT_TRUE(X->R.Cex->Inputs[0].Value.isAllOnes()) << X->Text;
}

TEST(BmcArith, SignedUnsignedCompare) {
  // -1 converted to unsigned is the largest value: the branch is taken.
  auto X = runBmc(R"C(
int main(void) {
  int a = -1; unsigned b = 1;
  if (a > b) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unsafe);
  auto Y = runBmc(R"C(
int main(void) {
  int a = __VERIFIER_nondet_int();
  __VERIFIER_assume(a < 0);
  if (a > 1) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Y, Safe);
}

TEST(BmcArith, DivisionAndRemainderFindUniqueInput) {
  auto X = runBmc(R"C(
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 0 && x < 200);
  if (x / 7 == 13 && x % 7 == 6) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unsafe);
  EXPECT_EQ(inputs(X->R), std::vector<int64_t>{97}) << X->Text;
  auto Y = runBmc(R"C(
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 0 && x < 100);
  if (x / 7 > 14) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Y, Safe);
}

TEST(BmcArith, DivisionByZeroIsUnknownNotSafe) {
  auto X = runBmc(R"C(
int main(void) {
  int d = __VERIFIER_nondet_int();
  int r = 10 / d;
  if (r == 100) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "division by zero")) << X->Text;
  auto Y = runBmc(R"C(
int main(void) {
  int d = __VERIFIER_nondet_int();
  __VERIFIER_assume(d > 0);
  int r = 10 / d;
  if (r == 100) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Y, Safe);
}

TEST(BmcArith, OversizedShiftIsUnknown) {
  auto X = runBmc(R"C(
int main(void) {
  unsigned s = __VERIFIER_nondet_uint();
  unsigned v = 1u << s;
  if (v == 0) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "shift")) << X->Text;
  auto Y = runBmc(R"C(
int main(void) {
  unsigned s = __VERIFIER_nondet_uint();
  __VERIFIER_assume(s < 32);
  if ((1u << s) == 0) reach_error();
  if ((1u << s) == 0x80000000u && s != 31) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Y, Safe);
}

TEST(BmcArith, AssumeRestrictsAndAbortEndsPath) {
  auto X = runBmc(R"C(
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x == 5);
  if (x != 5) reach_error();
  int y = __VERIFIER_nondet_int();
  if (y == 3) abort();
  if (y == 3) reach_error();
  if (y == 4) exit(0);
  if (y == 4) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
}

TEST(BmcArith, SwitchAndSelect) {
  auto X = runBmc(R"C(
int main(void) {
  int x = __VERIFIER_nondet_int(), r;
  switch (x) { case 1: r = 10; break; case 2: r = 20; break; case 7: r = 70; break; default: r = 0; }
  int m = x > 3 ? x : 3;
  if (r == 70 && m == 7) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unsafe);
  EXPECT_EQ(inputs(X->R), std::vector<int64_t>{7}) << X->Text;
}

TEST(BmcArith, AllWidthsWrap) {
  auto X = runBmc(R"C(
int main(void) {
  unsigned char c = 250; c += 10;
  signed char sc = 127; sc++;
  unsigned short us = 0; us--;
  long long ll = 0x7fffffffffffffffLL; ll = (long long)((unsigned long long)ll + 1);
  unsigned __int128 w = (unsigned __int128)__VERIFIER_nondet_uint() << 100;
  _Bool b = 5;
  if (c != 4 || sc != -128 || us != 65535 || ll >= 0 || (w >> 100) > 0xffffffffu || b != 1)
    reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
  // 2^31 * 2 wraps to 0 in 32 bits but not in 64.
  auto Y = runBmc(R"C(
int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  unsigned long long y = x;
  if (x != 0 && x * 2u == 0 && y * 2 != 0) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Y, Unsafe);
  EXPECT_EQ(inputs(Y->R), std::vector<int64_t>{INT32_MIN}) << Y->Text;
}

//===----------------------------------------------------------------------===//
// Memory: arrays, structs, pointers, heap
//===----------------------------------------------------------------------===//

TEST(BmcMemory, ArrayFilledByLoop) {
  const char *Code = R"C(
int main(void) {
  int a[10];
  for (int i = 0; i < 10; i++) a[i] = i * i;
  if (a[7] != 49) reach_error();
  return 0;
})C";
  bmc::Options O;
  O.Unwind = 10;
  auto X = runBmc(Code, O);
  EXPECT_STATUS(X, Safe);
  // Bound too small: never Safe.
  O.Unwind = 5;
  auto Y = runBmc(Code, O);
  EXPECT_STATUS(Y, Unknown);
  EXPECT_TRUE(hasReason(Y->R, "unwinding bound 5 reached at")) << Y->Text;
}

TEST(BmcMemory, SymbolicIndex) {
  auto X = runBmc(R"C(
int a[4] = {1, 2, 3, 4};
int main(void) {
  unsigned i = __VERIFIER_nondet_uint();
  __VERIFIER_assume(i < 4);
  if (a[i] == 3) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unsafe);
  EXPECT_EQ(inputs(X->R), std::vector<int64_t>{2}) << X->Text;
}

TEST(BmcMemory, OutOfBoundsIsUnknown) {
  auto X = runBmc(R"C(
int main(void) {
  int a[4];
  unsigned i = __VERIFIER_nondet_uint();
  if (i <= 4) a[i] = 1;
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "invalid write")) << X->Text;
  auto Y = runBmc(R"C(
int main(void) {
  int a[4];
  unsigned i = __VERIFIER_nondet_uint();
  if (i < 4) a[i] = 1;
  return 0;
})C");
  EXPECT_STATUS(Y, Safe);
}

TEST(BmcMemory, StructFields) {
  const char *Code = R"C(
struct S { int a; char b; long c; struct { short x, y; } in; };
struct S g = {1, 2, 3, {4, 5}};
int main(void) {
  struct S s = g;
  s.c += s.a + s.in.y;
  s.b = (char)300;
  if (s.c != 9 || s.b != 44 || s.in.x != 4) reach_error();
  if (s.c == 9 && %s) __crace_bmc_fail();
  return 0;
})C";
  char Buf[1024];
  snprintf(Buf, sizeof Buf, Code, "0");
  auto X = runBmc(Buf);
  EXPECT_STATUS(X, Safe);
  snprintf(Buf, sizeof Buf, Code, "g.in.y == 5");
  auto Y = runBmc(Buf);
  EXPECT_STATUS(Y, Unsafe);
}

TEST(BmcMemory, PointerAliasing) {
  const char *Code = R"C(
int main(void) {
  int x = 0, y = 0;
  int *p = __VERIFIER_nondet_int() ? &x : &y;
  int **pp = &p;
  **pp = 5;
  if (%s) reach_error();
  return 0;
})C";
  char Buf[1024];
  snprintf(Buf, sizeof Buf, Code, "x == 5 && y == 5");
  auto X = runBmc(Buf);
  EXPECT_STATUS(X, Safe);
  snprintf(Buf, sizeof Buf, Code, "y == 5");
  auto Y = runBmc(Buf);
  EXPECT_STATUS(Y, Unsafe);
  EXPECT_EQ(inputs(Y->R), std::vector<int64_t>{0}) << Y->Text;
}

TEST(BmcMemory, HeapObjects) {
  auto X = runBmc(R"C(
int main(void) {
  int *p = malloc(3 * sizeof(int));
  int *q = malloc(sizeof(int));
  p[0] = 1; p[1] = 2; p[2] = p[0] + p[1];
  *q = 7;
  if (p[2] != 3 || *q != 7 || p == q) reach_error();
  free(p);
  free(q);
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
}

TEST(BmcMemory, CallocIsZeroed) {
  auto X = runBmc(R"C(
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n < 5);
  int *p = calloc(n, sizeof(int));
  if (p[n - 1] != 0) reach_error();
  free(p);
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
}

TEST(BmcMemory, UseAfterFreeAndDoubleFree) {
  auto X = runBmc(R"C(
int main(void) {
  int *p = malloc(sizeof(int));
  *p = 1;
  free(p);
  if (*p == 1) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "invalid read")) << X->Text;
  auto Y = runBmc(R"C(
int main(void) {
  int *p = malloc(sizeof(int));
  free(p);
  if (__VERIFIER_nondet_int()) free(p);
  return 0;
})C");
  EXPECT_STATUS(Y, Unknown);
  EXPECT_TRUE(hasReason(Y->R, "invalid free")) << Y->Text;
}

TEST(BmcMemory, NullDereference) {
  auto X = runBmc(R"C(
int x;
int main(void) {
  int *p = 0;
  if (__VERIFIER_nondet_int()) p = &x;
  *p = 1;
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "invalid write")) << X->Text;
}

TEST(BmcMemory, DanglingStackPointer) {
  auto X = runBmc(R"C(
int *f(void) { int local = 3; int *p = &local; return p; }
int main(void) {
  int *p = f();
  if (*p == 3) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "invalid read")) << X->Text;
}

TEST(BmcMemory, MemcpyMemset) {
  const char *Code = R"C(
int main(void) {
  int a[4] = {1, 2, 3, 4}, b[4];
  unsigned n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 4);
  memcpy(b, a, sizeof a);
  memset(a, 0, n * sizeof(int));
  if (%s) reach_error();
  return 0;
})C";
  char Buf[1024];
  snprintf(Buf, sizeof Buf, Code,
           "b[2] != 3 || (n == 4 && a[3] != 0) || (n < 2 && a[1] != 2)");
  auto X = runBmc(Buf);
  EXPECT_STATUS(X, Safe);
  snprintf(Buf, sizeof Buf, Code, "a[2] == 0 && a[3] == 4");
  auto Y = runBmc(Buf);
  EXPECT_STATUS(Y, Unsafe);
  EXPECT_EQ(inputs(Y->R), std::vector<int64_t>{3}) << Y->Text;
}

TEST(BmcMemory, AddressValuesAreNotGuessed) {
  // Where objects lie is not ours to choose: comparisons that depend on it
  // must not decide a verdict either way.
  auto X = runBmc(R"C(
int a, b;
int main(void) {
  if (&a < &b) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "comparison of addresses")) << X->Text;
  auto Y = runBmc(R"C(
int main(void) {
  int *p = malloc(4);
  if ((unsigned long)p > 4294967295UL) abort();
  reach_error();
  return 0;
})C");
  EXPECT_STATUS(Y, Unknown);
  // An address passed on as an integer (SV-COMP's assume_abort_if_not(p)).
  auto W = runBmc(R"C(
static void assume_abort_if_not(int c) { if (!c) abort(); }
int main(void) {
  int *p = malloc(4);
  assume_abort_if_not((long)p);
  reach_error();
  return 0;
})C");
  EXPECT_STATUS(W, Unknown);
  EXPECT_TRUE(hasReason(W->R, "address")) << W->Text;
  // Within one object, pointer order is exact.
  auto Z = runBmc(R"C(
int main(void) {
  int arr[4], n = 0;
  for (int *p = arr; p < arr + 4; p++) n++;
  unsigned long d = (unsigned long)(arr + 3) - (unsigned long)arr;
  if (n != 4 || d != 12 || ((unsigned long)arr & 3) != 0) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Z, Safe);
}

TEST(BmcMemory, SameObjectIntrinsic) {
  // __crace_bmc_same_object(p, q): the object ids are equal (the KISS
  // transform's guard of its overlap check). Exact for globals, stack and
  // heap objects, and for two objects of one allocation site.
  const char *Decl = "_Bool __crace_bmc_same_object(void *, void *);\n";
  auto X = runBmc(std::string(Decl) + R"C(
int a[4], b;
int main(void) {
  int l[2];
  int *p[2];
  for (int i = 0; i < 2; i++)
    p[i] = malloc(8);
  if (!__crace_bmc_same_object(&a[0], &a[3]) ||
      __crace_bmc_same_object(&a[0], &b) ||
      !__crace_bmc_same_object(l, &l[1]) ||
      __crace_bmc_same_object(l, &a[0]) ||
      !__crace_bmc_same_object(p[0], (char *)p[0] + 4) ||
      __crace_bmc_same_object(p[0], p[1]) ||
      __crace_bmc_same_object(p[1], 0))
    reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
  // Guarded by it, ordering two addresses is exact: the comparison's
  // arbitrary outcome for different objects is on no path, so the verdict
  // is Safe (not Unknown) ...
  const char *Guarded = R"C(
int main(void) {
  char *p = malloc(8), *q = malloc(8);
  char *r = __VERIFIER_nondet_int() ? p + 2 : q;
  if (__crace_bmc_same_object(p, r) && r < p) reach_error();
  return 0;
})C";
  auto Y = runBmc(std::string(Decl) + Guarded);
  EXPECT_STATUS(Y, Safe);
  // ... and a real order in one object is found, with no havoc.
  auto Z = runBmc(std::string(Decl) + R"C(
int main(void) {
  char *p = malloc(8), *q = malloc(8);
  char *r = __VERIFIER_nondet_int() ? p + 2 : q;
  if (__crace_bmc_same_object(p, r) && p < r) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Z, Unsafe);
  EXPECT_EQ(inputs(Z->R).size(), 1u) << Z->Text;
  EXPECT_NE(inputs(Z->R)[0], 0) << Z->Text;
  // Unguarded, the same comparison stays arbitrary: Unknown.
  auto U = runBmc(R"C(
int main(void) {
  char *p = malloc(8), *q = malloc(8);
  char *r = __VERIFIER_nondet_int() ? p + 2 : q;
  if (r < p) reach_error();
  return 0;
})C");
  EXPECT_STATUS(U, Unknown);
  EXPECT_TRUE(hasReason(U->R, "comparison of addresses")) << U->Text;
}

TEST(BmcMemory, GlobalPointerInitialisers) {
  auto X = runBmc(R"C(
int g[3] = {5, 6, 7};
int *gp = &g[1];
struct T { int *p; const char *s; } t = {&g[2], "hi"};
int main(void) {
  if (*gp != 6 || *t.p != 7 || t.s[1] != 'i' || t.s[2] != 0) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
}

TEST(BmcMemory, ReallocKeepsContents) {
  auto X = runBmc(R"C(
void *realloc(void *, unsigned long);
int main(void) {
  int *p = malloc(2 * sizeof(int));
  p[0] = 1; p[1] = 2;
  p = realloc(p, 4 * sizeof(int));
  p[3] = 4;
  if (p[0] + p[1] + p[3] != 7) reach_error();
  free(p);
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
}

TEST(BmcMemory, StringsAndAtomics) {
  auto X = runBmc(R"C(
int g;
int main(void) {
  char s[] = "abc";
  int old = __atomic_fetch_add(&g, 5, __ATOMIC_SEQ_CST);
  int ok = __sync_bool_compare_and_swap(&g, 5, 9);
  int bad = __sync_bool_compare_and_swap(&g, 5, 1);
  if (s[3] != 0 || s[1] != 'b' || old != 0 || !ok || bad || g != 9) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
}

//===----------------------------------------------------------------------===//
// Calls, recursion, function pointers
//===----------------------------------------------------------------------===//

TEST(BmcCalls, InlinedCalls) {
  auto X = runBmc(R"C(
static int sq(int x) { return x * x; }
static void set(int *p, int v) { *p = v; }
int main(void) {
  int y;
  set(&y, sq(3));
  if (y != 9) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
}

TEST(BmcCalls, RecursionWithinAndBeyondBound) {
  const char *Code = R"C(
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int main(void) {
  if (fact(%d) != %d) reach_error();
  return 0;
})C";
  char Buf[1024];
  snprintf(Buf, sizeof Buf, Code, 4, 24);
  auto X = runBmc(Buf);
  EXPECT_STATUS(X, Safe);
  snprintf(Buf, sizeof Buf, Code, 4, 25);
  auto Y = runBmc(Buf);
  EXPECT_STATUS(Y, Unsafe);
  snprintf(Buf, sizeof Buf, Code, 10, 3628800);
  auto Z = runBmc(Buf);
  EXPECT_STATUS(Z, Unknown);
  EXPECT_TRUE(hasReason(Z->R, "recursion bound 4 reached in 'fact'"))
      << Z->Text;
}

TEST(BmcCalls, FunctionPointers) {
  const char *Code = R"C(
int inc(int x) { return x + 1; }
int dbl(int x) { return 2 * x; }
int main(void) {
  int (*f)(int) = __VERIFIER_nondet_int() ? inc : dbl;
  if (f(5) == %d) reach_error();
  return 0;
})C";
  char Buf[1024];
  snprintf(Buf, sizeof Buf, Code, 7);
  auto X = runBmc(Buf);
  EXPECT_STATUS(X, Safe);
  snprintf(Buf, sizeof Buf, Code, 10);
  auto Y = runBmc(Buf);
  EXPECT_STATUS(Y, Unsafe);
  EXPECT_EQ(inputs(Y->R), std::vector<int64_t>{0}) << Y->Text;
}

TEST(BmcCalls, StructsByValue) {
  auto X = runBmc(R"C(
struct P { long a, b, c; };
static struct P mk(int x) { struct P p = {x, 2 * x, 3 * x}; return p; }
static long sum(struct P p) { p.a = 0; return p.b + p.c; }
int main(void) {
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v > -1000 && v < 1000);
  struct P p = mk(v);
  long s = sum(p);
  if (s != 5 * p.a || p.a != p.b - p.a) reach_error();
  if (s == 50) __crace_bmc_fail();
  return 0;
})C");
  EXPECT_STATUS(X, Unsafe);
  ASSERT_TRUE(X->R.Cex);
  EXPECT_EQ(inputs(X->R), std::vector<int64_t>{10}) << X->Text;
  EXPECT_EQ(X->R.Cex->FailureCall->getCalledFunction()->getName(),
            "__crace_bmc_fail");
}

TEST(BmcCalls, FunctionPointerTable) {
  auto X = runBmc(R"C(
struct ops { int (*get)(void); void (*put)(int *, int); };
static int get1(void) { return 1; }
static void put1(int *p, int v) { *p = v + 100; }
struct ops O = {get1, put1};
int main(void) {
  int v = 0;
  O.put(&v, O.get());
  if (v != 101) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Safe);
}

//===----------------------------------------------------------------------===//
// Loops, depth, counterexamples
//===----------------------------------------------------------------------===//

TEST(BmcLoops, BugAtDepth) {
  bmc::Options O;
  O.Unwind = 20;
  auto X = runBmc(R"C(
int main(void) {
  int s = 0;
  for (int i = 0; i < 20; i++) {
    s += i;
    if (i == 17 && __VERIFIER_nondet_int()) { if (s == 153) reach_error(); }
  }
  return 0;
})C",
                  O);
  EXPECT_STATUS(X, Unsafe);
  std::vector<int64_t> In = inputs(X->R);
  ASSERT_EQ(In.size(), 1u) << X->Text;
  EXPECT_NE(In[0], 0);
  // The same bug with a bound that stops before it: unknown, not safe.
  O.Unwind = 10;
  auto Y = runBmc(R"C(
int main(void) {
  int s = 0;
  for (int i = 0; i < 20; i++) {
    s += i;
    if (i == 17 && __VERIFIER_nondet_int()) { if (s == 153) reach_error(); }
  }
  return 0;
})C",
                  O);
  EXPECT_STATUS(Y, Unknown);
}

TEST(BmcLoops, NondetLoopCounterexample) {
  auto X = runBmc(R"C(
int main(void) {
  int n = 0;
  while (__VERIFIER_nondet_int()) n++;
  if (n == 3) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unsafe);
  std::vector<int64_t> In = inputs(X->R);
  ASSERT_EQ(In.size(), 4u) << X->Text;
  EXPECT_NE(In[0], 0);
  EXPECT_NE(In[1], 0);
  EXPECT_NE(In[2], 0);
  EXPECT_EQ(In[3], 0);
}

TEST(BmcLoops, UnboundedLoopWithoutFailureIsUnknown) {
  auto X = runBmc(R"C(
int main(void) {
  int n = 0;
  while (__VERIFIER_nondet_int()) n++;
  return n;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "unwinding bound 8 reached")) << X->Text;
}

TEST(BmcLoops, NestedLoopsAndBreak) {
  bmc::Options O;
  O.Unwind = 5;
  auto X = runBmc(R"C(
int main(void) {
  int c = 0;
  for (int i = 0; i < 4; i++) {
    for (int j = 0; j < 5; j++) {
      if (j > i) break;
      c++;
    }
  }
  if (c != 10) reach_error();
  return 0;
})C",
                  O);
  EXPECT_STATUS(X, Safe);
}

TEST(BmcCex, InputsPathAndFailureCall) {
  const char *Code = R"C(
static int check(int a, int b) { return a == 42 && b == a * 3 - 1; }
int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (check(a, b))
    reach_error();
  return 0;
})C";
  auto X = runBmc(Code);
  ASSERT_EQ(X->R.S, bmc::Status::Unsafe) << X->Text;
  ASSERT_TRUE(X->R.Cex);
  const bmc::Counterexample &C = *X->R.Cex;
  EXPECT_EQ(inputs(X->R), (std::vector<int64_t>{42, 125})) << X->Text;
  EXPECT_EQ(C.Inputs[0].Name, "__crace_nondet_int");
  ASSERT_TRUE(C.FailureCall);
  // The failure is the (inlined model of) the reach_error call in main.
  unsigned Line = 0;
  {
    std::string Src = std::string(Prelude) + Code;
    Line = 1 + unsigned(std::count(Src.begin(),
                                   Src.begin() + Src.find("    reach_error();"),
                                   '\n'));
  }
  EXPECT_EQ(C.FailureCall->getDebugLoc().getLine(), Line);
  EXPECT_NE(C.FailureLocation.find(":" + std::to_string(Line)),
            std::string::npos)
      << C.FailureLocation;
  ASSERT_FALSE(C.Steps.empty());
  EXPECT_EQ(C.Steps.front().Block->getParent()->getName(), "main");
  bool InCheck = false;
  for (const bmc::TraceStep &S : C.Steps)
    if (S.Block->getParent()->getName() == "check") {
      InCheck = true;
      ASSERT_EQ(S.CallStack.size(), 1u);
      EXPECT_EQ(S.CallStack[0]->getFunction()->getName(), "main");
    }
  EXPECT_TRUE(InCheck);
  EXPECT_EQ(C.Steps.back().Block, C.FailureCall->getParent());
}

//===----------------------------------------------------------------------===//
// Differential: programs whose result was computed by a native run
// (gcc -O0, x86-64); the checker must prove exactly that value and refute
// any other.
//===----------------------------------------------------------------------===//

const char *Diff1 = R"C(
struct pt { short x; long y; unsigned char tag[3]; };
union u { unsigned int i; unsigned char b[4]; };
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static long mix(long a, long b) { return (a * 31) ^ (b >> 3) ^ (a << 7); }
static int cmpf(int a, int b) { return a - b; }
static int negf(int a, int b) { return b - a; }
unsigned long compute(void) {
  struct pt ps[4];
  for (int i = 0; i < 4; i++) { ps[i].x = (short)(i * 20000); ps[i].y = -i * 123456789L; ps[i].tag[i % 3] = (unsigned char)(i * 77); ps[i].tag[(i+1)%3] = 1; ps[i].tag[(i+2)%3] = 2; }
  struct pt q; __builtin_memcpy(&q, &ps[3], sizeof q);
  union u v; v.i = 0x11223344u;
  unsigned long h = 0;
  h = mix(h, q.x); h = mix(h, q.y); h = mix(h, q.tag[0] + q.tag[1] * 3);
  h = mix(h, v.b[0] * 1000 + v.b[3]);
  h = mix(h, fib(7));
  int (*fs[2])(int, int) = {cmpf, negf};
  for (int i = 0; i < 2; i++) h = mix(h, fs[i](5, 9));
  int sd = -17 / 5, sm = -17 % 5; unsigned ud = 4000000000u / 7u;
  h = mix(h, sd); h = mix(h, sm); h = mix(h, ud);
  signed char c = (signed char)200; h = mix(h, c); h = mix(h, (unsigned char)c);
  long long big = 0x123456789abcdefLL * 0x10001LL; h = mix(h, big);
  h = mix(h, (long)(-5) >> 1); h = mix(h, (unsigned)(-5) >> 1);
  char s[] = "hello world"; int cnt = 0; for (char *p = s; *p; p++) if (*p == 'o') cnt++;
  h = mix(h, cnt);
  int arr[5] = {5, 3, 9, 1, 7};
  for (int i = 0; i < 5; i++) for (int j = 0; j + 1 < 5 - i; j++) if (arr[j] > arr[j+1]) { int t = arr[j]; arr[j] = arr[j+1]; arr[j+1] = t; }
  for (int i = 0; i < 5; i++) h = mix(h, arr[i]);
  switch (h % 4) { case 0: h += 1; break; case 1: h += 10; break; case 2: h += 100; break; default: h += 1000; }
  __builtin_memset(arr, 0xff, 2 * sizeof(int)); h = mix(h, arr[0]); h = mix(h, arr[2]);
  unsigned __int128 w = (unsigned __int128)h * h; h = mix(h, (long)(w >> 64));
  h = mix(h, __builtin_popcountl(h)); h = mix(h, __builtin_clzl(h | 1)); h = mix(h, __builtin_ctzl(h | 0x100));
  h = mix(h, __builtin_bswap32((unsigned)h));
  h = mix(h, h > 0x8000000000000000UL ? 1 : 2);
  return h;
}
)C";

const char *Diff2 = R"C(
void *realloc(void *, unsigned long);
struct node { int v; struct node *next; };
struct ops { int (*f)(int); const char *name; };
static int twice(int x) { return 2 * x; }
static int sq(int x) { return x * x; }
struct ops table[2] = {{twice, "twice"}, {sq, "sq"}};
int grid[3][4];
static struct node *push(struct node *h, int v) { struct node *n = malloc(sizeof *n); n->v = v; n->next = h; return n; }
static void rev(struct node **h) { struct node *p = 0, *c = *h; while (c) { struct node *nx = c->next; c->next = p; p = c; c = nx; } *h = p; }
unsigned long compute(void) {
  unsigned long h = 7;
  struct node *l = 0;
  for (int i = 0; i < 6; i++) l = push(l, i * i - 3);
  rev(&l);
  for (struct node *p = l; p; p = p->next) h = h * 131 + (unsigned)p->v;
  while (l) { struct node *n = l->next; free(l); l = n; }
  for (int i = 0; i < 3; i++) for (int j = 0; j < 4; j++) grid[i][j] = i * 10 + j;
  int *flat = &grid[0][0];
  for (int k = 0; k < 12; k += 5) h = h * 31 + flat[k];
  for (int i = 0; i < 2; i++) h = h * 17 + table[i].f(i + 3) + table[i].name[1];
  short s = -300; unsigned short us = 65000; signed char sc = -7;
  h = h * 3 + (s * us) + (sc >> 1) + (unsigned)(sc << 2);
  int *a = malloc(2 * sizeof(int)); a[0] = 11; a[1] = 22;
  a = realloc(a, 5 * sizeof(int)); a[4] = 44; h = h * 7 + a[0] + a[1] + a[4]; free(a);
  int x = 0, n = 0;
  do { x += 3; n++; } while (x < 20);
  h = h * 5 + n;
  int sum = 0, i = 0;
again:
  sum += i; i++;
  if (i < 5) goto again;
  h = h * 11 + sum;
  switch (sum) { case 10: h += 1; /* fallthrough */ case 11: h += 2; break; default: h += 4; }
  unsigned u = 3; for (int k = 0; k < 4; k++) u -= 2; h = h * 13 + u;
  int y = (h & 1) ? (int)(h % 1000) : -(int)(h % 777);
  h = h * 19 + (unsigned long)(long)y;
  struct node tmp = {5, 0}, cp; cp = tmp; cp.v++; h = h * 23 + tmp.v + cp.v;
  return h;
}
)C";

void expectNativeResult(const char *Program, const char *Value) {
  bmc::Options O;
  O.Unwind = 16;
  O.RecursionBound = 8;
  for (int Delta : {0, 1}) {
    std::string Main = std::string(Program) +
                       "int main(void) { if (compute() != " + Value + " + " +
                       std::to_string(Delta) + ") reach_error(); return 0; }";
    auto X = runBmc(Main, O);
    EXPECT_EQ(X->R.S, Delta ? bmc::Status::Unsafe : bmc::Status::Safe)
        << "delta " << Delta << ": " << X->Text;
  }
}

TEST(BmcDifferential, ArithmeticStructsUnionsRecursionBuiltins) {
  expectNativeResult(Diff1, "13892055412675368151UL");
}

TEST(BmcDifferential, ListsHeapArraysControlFlow) {
  expectNativeResult(Diff2, "2524208852556054231UL");
}

//===----------------------------------------------------------------------===//
// Several failure sites, configuration
//===----------------------------------------------------------------------===//

TEST(BmcSites, QueriesPerFailureSite) {
  Compiled C = compile(std::string(Prelude) + R"C(
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 1 && x == 2) __crace_bmc_fail();
  if (x > 10) __crace_bmc_fail();
  if (x > 20 && x < 22) __crace_bmc_fail();
  return 0;
})C");
  ASSERT_TRUE(C.M) << C.Error;
  // Both solving modes: push/pop on one solver, and fresh solvers.
  for (bool Incremental : {true, false}) {
    bmc::Options O;
    O.Incremental = Incremental;
    auto K = bmc::Checker::create(*C.M, "main", O);
    ASSERT_TRUE(bool(K));
    std::vector<const llvm::CallBase *> Sites = (*K)->failureSites();
    ASSERT_EQ(Sites.size(), 3u);
    auto Line = [](const llvm::CallBase &CB) {
      return CB.getDebugLoc().getLine();
    };
    std::vector<bmc::Status> Got;
    std::vector<unsigned> Lines;
    for (const llvm::CallBase *S : Sites) {
      unsigned L = Line(*S);
      Lines.push_back(L);
      bmc::Result R =
          (*K)->check([&](const llvm::CallBase &CB) { return Line(CB) == L; });
      Got.push_back(R.S);
      if (R.S == bmc::Status::Unsafe) {
        ASSERT_TRUE(R.Cex);
        EXPECT_EQ(Line(*R.Cex->FailureCall), L);
        int64_t V = R.Cex->Inputs.at(0).Value.getSExtValue();
        EXPECT_TRUE(L == Lines[0] + 1 ? V > 10 : V == 21) << V;
      }
    }
    EXPECT_EQ(Got,
              (std::vector<bmc::Status>{bmc::Status::Safe, bmc::Status::Unsafe,
                                        bmc::Status::Unsafe}));
    EXPECT_GE((*K)->stats().Queries, 3u);
  }
}

TEST(BmcSites, ConfigurableFailureAndNondetFunctions) {
  const char *Code = R"C(
void my_fail(void);
int get_input(void);
int main(void) {
  int v = get_input();
  if (v == 12345) my_fail();
  return 0;
})C";
  bmc::Options O;
  O.FailureFunctions = {"my_fail"};
  O.IsNondet = [](llvm::StringRef N) { return N == "get_input"; };
  auto X = runBmc(Code, O);
  EXPECT_STATUS(X, Unsafe);
  EXPECT_EQ(inputs(X->R), std::vector<int64_t>{12345}) << X->Text;
  // Without the configuration both are unknown external functions.
  auto Y = runBmc(Code);
  EXPECT_STATUS(Y, Unknown);
  EXPECT_TRUE(hasReason(Y->R, "external function 'get_input'")) << Y->Text;
  // reach_error is not a failure when not listed.
  bmc::Options O2;
  O2.FailureFunctions = {"__crace_bmc_fail"};
  auto Z = runBmc(R"C(
int main(void) { reach_error(); return 0; })C",
                  O2);
  EXPECT_STATUS(Z, Safe);
}

TEST(BmcSites, CancelledIsUnknown) {
  std::atomic<bool> Stop{true};
  bmc::Options O;
  O.Cancel = &Stop;
  auto X = runBmc(R"C(
int main(void) { if (__VERIFIER_nondet_int()) reach_error(); return 0; })C",
                  O);
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "cancelled")) << X->Text;
}

//===----------------------------------------------------------------------===//
// Unsupported and over-approximated constructs
//===----------------------------------------------------------------------===//
// Work budget
//===----------------------------------------------------------------------===//

/// Library writes of a symbolic size after merged paths: each is a lambda
/// over the memory before it, and Z3's abstraction visits the nested
/// bodies again each time. The encoder charges those nodes to the budget.
const char *NestedWrites = R"C(
int main(void) {
  char buf[64];
  memset(buf, 1, sizeof buf);
  for (int k = 0; k < 6; k++) {
    unsigned n = __VERIFIER_nondet_uint();
    __VERIFIER_assume(n <= 64);
    if (__VERIFIER_nondet_int())
      memset(buf, k, n);
    else
      memset(buf + 1, k + 1, n / 2);
  }
  if (buf[63] == 42) reach_error();
  return 0;
})C";

TEST(BmcWork, TermWorkIsChargedAndStopsTheEncoding) {
  bmc::Options Free;
  WorkMeter Big(uint64_t(1) << 40, nullptr);
  Free.Work = &Big;
  auto X = runBmc(NestedWrites, Free);
  EXPECT_STATUS(X, Safe);
  // The nested lambdas' nodes were counted, beyond the steps.
  EXPECT_GT(Big.chargedUnits(), 0u) << X->Text;
  // A budget that the steps alone fit in but the terms do not: Unknown,
  // with the work-budget reason, never Safe.
  uint64_t Limit = Big.steps() * StepCost + Big.chargedUnits() / 2;
  bmc::Options Small;
  WorkMeter W1(Limit, nullptr);
  Small.Work = &W1;
  auto Y = runBmc(NestedWrites, Small);
  EXPECT_STATUS(Y, Unknown);
  EXPECT_TRUE(hasReason(Y->R, WorkBudgetRanOut)) << Y->Text;
  // Identical input, identical count.
  WorkMeter W2(Limit, nullptr);
  Small.Work = &W2;
  auto Z = runBmc(NestedWrites, Small);
  EXPECT_EQ(W1.chargedUnits(), W2.chargedUnits());
  EXPECT_EQ(W1.steps(), W2.steps());
}

//===----------------------------------------------------------------------===//

TEST(BmcUnsupported, InlineAsmIsUnknown) {
  auto X = runBmc(R"C(
int main(void) {
  int x = 0;
  __asm__ volatile("movl $1, %0" : "=r"(x));
  if (x == 1) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "inline assembly")) << X->Text;
}

TEST(BmcUnsupported, FloatingPointIsOverApproximated) {
  // The failure is reachable only through a havocked float result: not a
  // confirmed counterexample.
  auto X = runBmc(R"C(
int main(void) {
  double d = __VERIFIER_nondet_int();
  if (d * 2.0 == 3.0) reach_error();
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "over-approximated")) << X->Text;
  // A failure reached before any float operation is still confirmed.
  auto Y = runBmc(R"C(
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == 3) reach_error();
  double d = x;
  if (d > 0.5) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Y, Unsafe);
  EXPECT_EQ(inputs(Y->R), std::vector<int64_t>{3}) << Y->Text;
  // And floats that do not matter do not prevent a proof.
  auto Z = runBmc(R"C(
int main(void) {
  double d = 1.5 * __VERIFIER_nondet_int();
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 0);
  if (x < 0 && d > 0) reach_error();
  return 0;
})C");
  EXPECT_STATUS(Z, Safe);
}

TEST(BmcUnsupported, IrreducibleLoopIsUnknown) {
  auto X = runBmc(R"C(
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x) goto inside;
  while (x < 10) {
    x++;
  inside:
    x += 2;
  }
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "irreducible")) << X->Text;
}

TEST(BmcUnsupported, LibraryResultsAreOverApproximated) {
  const char *Code = R"C(
int printf(const char *, ...);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int n = printf("%%d\n", x);
  if (%s) reach_error();
  return 0;
})C";
  char Buf[1024];
  snprintf(Buf, sizeof Buf, Code, "n == 2");
  auto X = runBmc(Buf);
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "result of 'printf'")) << X->Text;
  snprintf(Buf, sizeof Buf, Code, "x != x");
  auto Y = runBmc(Buf);
  EXPECT_STATUS(Y, Safe);
}

TEST(BmcUnsupported, ThreadsAreUnknown) {
  auto X = runBmc(R"C(
typedef unsigned long pthread_t;
int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
void *worker(void *a) { return 0; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  return 0;
})C");
  EXPECT_STATUS(X, Unknown);
  EXPECT_TRUE(hasReason(X->R, "sequential programs")) << X->Text;
}

TEST(BmcUnsupported, MissingEntryIsAnError) {
  Compiled C = compile("int f(void) { return 0; }");
  ASSERT_TRUE(C.M) << C.Error;
  auto K = bmc::Checker::create(*C.M, "main");
  EXPECT_FALSE(bool(K));
  llvm::consumeError(K.takeError());
}

} // namespace
