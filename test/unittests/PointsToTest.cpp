//===- PointsToTest.cpp - unit tests of the points-to analysis ------------===//
#include "TestUtil.h"
#include "gtest/gtest.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include <set>

using namespace crace;
using namespace crace::test;

namespace {

/// Points-to set of the pointer operand of the N-th store in function Fn.
PtsSet storeTarget(const Compiled &C, llvm::StringRef Fn, unsigned N) {
  const llvm::Function *F = C.M->getFunction(Fn);
  for (const llvm::Instruction &I : llvm::instructions(*F))
    if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
      if (N-- == 0)
        return C.PM->pointsTo().pointsTo(S->getPointerOperand());
  return {};
}

std::string describeAll(const Compiled &C, const PtsSet &S) {
  std::string Out;
  for (Loc L : S)
    Out += (Out.empty() ? "" : ",") + C.PM->describe(L);
  return Out;
}

} // namespace

TEST(PointsToTest, FieldOffsetsThroughPointers) {
  Compiled C = compile(R"(
    struct S { int a; int b; } s, t;
    void set(struct S *p) { p->b = 1; }
    int main() { set(&s); set(&t); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  EXPECT_EQ(describeAll(C, storeTarget(C, "set", 0)), "s.b,t.b");
}

TEST(PointsToTest, VariableIndexStaysInItsArray) {
  Compiled C = compile(R"(
    int a[8];
    struct T { long n; int *v[4]; int k; } t;
    void set(int i) { a[i] = 1; a[3] = 2; t.v[i] = 0; }
    int main() { set(1); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet Var = storeTarget(C, "set", 0);
  ASSERT_EQ(Var.size(), 1u);
  EXPECT_EQ(Var.begin()->Off, 0);
  EXPECT_EQ(Var.begin()->Stride, 4u);
  EXPECT_EQ(Var.begin()->Count, 8u);
  EXPECT_EQ(describeAll(C, Var), "a[*]");
  EXPECT_EQ(describeAll(C, storeTarget(C, "set", 1)), "a[3]");
  // An element of the member array: not 't.n' nor 't.k'.
  PtsSet Member = storeTarget(C, "set", 2);
  ASSERT_EQ(Member.size(), 1u);
  EXPECT_EQ(describeAll(C, Member), "t.v[*]");
  Loc N{Member.begin()->Obj, 0}, K{Member.begin()->Obj, 8 + 4 * 8};
  EXPECT_FALSE(mayOverlap(*Member.begin(), 8, N, 8));
  EXPECT_FALSE(mayOverlap(*Member.begin(), 8, K, 4));
  EXPECT_TRUE(mayOverlap(*Member.begin(), 8, {N.Obj, 8 + 8 * 3}, 4));
}

TEST(PointsToTest, RowIndexMayReachTheNextRows) {
  // C programs index a 2-D array as one: m[0][i] and (&m[0][0])[i] reach
  // every row, and m[i][2] is column 2 of each row; none reaches 'k'.
  Compiled C = compile(R"(
    struct G { int m[4][4]; int k; } g;
    void set(int i) {
      g.m[0][i] = 1;
      int *p = &g.m[0][0];
      p[i] = 2;
      g.m[i][2] = 3;
    }
    int main() { set(1); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  for (unsigned N : {0u, 1u}) {
    PtsSet S = storeTarget(C, "set", N);
    ASSERT_EQ(S.size(), 1u) << N;
    EXPECT_EQ(S.begin()->Off, 0) << N;
    EXPECT_EQ(S.begin()->Stride, 4u) << N;
    EXPECT_EQ(S.begin()->Count, 16u) << N;
  }
  PtsSet Column = storeTarget(C, "set", 2);
  ASSERT_EQ(Column.size(), 1u);
  EXPECT_EQ(Column.begin()->Off, 8);
  EXPECT_EQ(Column.begin()->Stride, 16u);
  EXPECT_EQ(Column.begin()->Count, 4u);
  EXPECT_FALSE(mayOverlap(*Column.begin(), 4, {Column.begin()->Obj, 64}, 4));
}

TEST(PointsToTest, MemcpyKeepsEachPointerAtItsDistance) {
  // memcpy moves what each pointer field holds to the same distance from
  // the destination: one field for a constant length, the rest of the
  // object for a varying one, and nothing before the source.
  Compiled C = compile(R"(
    #include <string.h>
    struct T { int *a; int *b; int *c; } s, d, s2, d2;
    int x, y, z;
    void use(void) { *d.a = 1; *d.b = 2; *d.c = 3; *d2.a = 4; *d2.b = 5; *d2.c = 6; }
    int main(int argc, char **argv) {
      s.a = &x; s.b = &y; s.c = &z;
      s2 = s;
      memcpy(&d.b, &s.b, sizeof(int *));
      memcpy(&d2.b, &s2.b, (unsigned long)argc * sizeof(int *));
      use();
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 0)), "");
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 1)), "y");
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 2)), "");
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 3)), "");
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 4)), "y");
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 5)), "z");
}

TEST(PointsToTest, TrailingArrayOfHeapBlockIsAnyOffset) {
  // A struct's last array member may reach past its length in a larger
  // heap block (a "struct hack"): its elements are any offset there.
  Compiled C = compile(R"(
    #include <stdlib.h>
    struct msg { int len; char data[4]; };
    void put(struct msg *m, int i) { m->data[i] = 1; }
    int main() { struct msg *m = malloc(sizeof *m + 60); put(m, 40); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet S = storeTarget(C, "put", 0);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_TRUE(S.begin()->anywhere());
}

TEST(PointsToTest, ElementsOfARunTimeSizedBlock) {
  // A block of argc elements: a[i] is at the same offset in some element,
  // with no last one (UnboundedCount), so a[i].sum stays apart from the
  // other fields.
  Compiled C = compile(R"(
    #include <stdlib.h>
    struct task { int id; char done; long sum; };
    void put(struct task *a, int i) { a[i].sum = 1; }
    int main(int argc, char **argv) {
      struct task *a = malloc(argc * sizeof *a);
      put(a, argc - 1);
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet S = storeTarget(C, "put", 0);
  ASSERT_EQ(S.size(), 1u);
  const Loc &L = *S.begin();
  EXPECT_EQ(L.Off, 8);
  EXPECT_EQ(L.Stride, 16u);
  EXPECT_EQ(L.Count, UnboundedCount);
  EXPECT_TRUE(L.covers(8 + 16 * 100000));
  EXPECT_FALSE(mayOverlap(L, 8, {L.Obj, 4, 16, UnboundedCount}, 1));
  EXPECT_TRUE(mayOverlap(L, 8, {L.Obj, 16 * 7 + 8}, 1));
}

TEST(PointsToTest, StridedOverlap) {
  // Elements 8 bytes apart at 4, 12, 20 (4 bytes each) against bytes.
  Loc A{1, 4, 8, 3};
  EXPECT_TRUE(mayOverlap(A, 4, {1, 12}, 1));
  EXPECT_FALSE(mayOverlap(A, 4, {1, 8}, 4));
  EXPECT_TRUE(mayOverlap(A, 4, {1, 6}, 4));
  EXPECT_FALSE(mayOverlap(A, 4, {1, 24}, 4));
  EXPECT_FALSE(mayOverlap(A, 4, {1, 0}, 4));
  EXPECT_TRUE(mayOverlap(A, 4, {1, 0}, 0)); // unknown size
  EXPECT_FALSE(mayOverlap(A, 4, {2, 4}, 4));
  EXPECT_TRUE(mayOverlap(A, 4, {PointsTo::UnknownObj, 0}, 4));
  // Two strided sets: 4 + 8k against 8 + 16j never meet with 4 bytes.
  EXPECT_FALSE(mayOverlap(A, 4, {1, 8, 16, 2}, 4));
  EXPECT_TRUE(mayOverlap(A, 4, {1, 12, 16, 2}, 4));
  // Accesses of two sizes: 8 bytes at 0 + 16k meet a byte at 4 + 16j (the
  // same element), in both orders.
  EXPECT_TRUE(mayOverlap({1, 0, 16, 4}, 8, {1, 4, 16, 4}, 1));
  EXPECT_TRUE(mayOverlap({1, 4, 16, 4}, 1, {1, 0, 16, 4}, 8));
  EXPECT_TRUE(mayShareOffset(A, {1, 20}));
  EXPECT_FALSE(mayShareOffset(A, {1, 16}));
}

// mayOverlap against every pair of offsets the two locations stand for:
// it may say "may overlap" where they do not (the bounds of two strides
// are not followed), never the reverse.
TEST(PointsToTest, StridedOverlapNeverMissesAPair) {
  uint64_t Seed = 7;
  auto Next = [&](uint64_t N) {
    Seed = Seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (Seed >> 33) % N;
  };
  const uint32_t Strides[] = {0, 3, 4, 6, 8, 16};
  auto Draw = [&] {
    Loc L{1, int64_t(Next(50)) - 10};
    L.Stride = Strides[Next(6)];
    L.Count = L.Stride ? uint32_t(2 + Next(4)) : 0;
    return L;
  };
  auto Offsets = [](const Loc &L) {
    std::vector<int64_t> Out;
    for (uint32_t K = 0; K < (L.Stride ? L.Count : 1); ++K)
      Out.push_back(L.Off + int64_t(K) * L.Stride);
    return Out;
  };
  for (int I = 0; I < 20000; ++I) {
    Loc A = Draw(), B = Draw();
    uint64_t SA = 1 + Next(12), SB = 1 + Next(12);
    bool Meet = false;
    for (int64_t X : Offsets(A))
      for (int64_t Y : Offsets(B))
        Meet |= X < Y + int64_t(SB) && Y < X + int64_t(SA);
    if (Meet)
      ASSERT_TRUE(mayOverlap(A, SA, B, SB))
          << A.Off << "+" << A.Stride << "x" << A.Count << " (" << SA
          << " bytes) / " << B.Off << "+" << B.Stride << "x" << B.Count << " ("
          << SB << " bytes)";
  }
}

TEST(PointsToTest, PointersThroughMemoryAndHeap) {
  Compiled C = compile(R"(
    #include <stdlib.h>
    int **pp;
    void use(void) { **pp = 3; }
    int main() { int *p = malloc(4); pp = malloc(sizeof(int *)); *pp = p; use(); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet S = storeTarget(C, "use", 0);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(C.PM->pointsTo().object(S.begin()->Obj).Kind, ObjKind::Heap);
}

TEST(PointsToTest, PointerIncrementLoopTerminates) {
  Compiled C = compile(R"(
    int a[1000];
    int main() { for (int *p = a; p < a + 1000; p++) *p = 0; return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet S = storeTarget(C, "main", 0);
  ASSERT_EQ(S.size(), 1u);
  // The offsets p steps through become the array's elements.
  EXPECT_EQ(S.begin()->Off, 0);
  EXPECT_EQ(S.begin()->Stride, 4u);
  EXPECT_EQ(S.begin()->Count, 1000u);
}

TEST(PointsToTest, IntegerCastToPointerIsUnknown) {
  Compiled C = compile(R"(
    int main() { *(volatile int *)0x1000 = 1; return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet S = storeTarget(C, "main", 0);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S.begin()->Obj, PointsTo::UnknownObj);
}

namespace {

/// The abstract object of global or function Name.
uint32_t objectNamed(const Compiled &C, llvm::StringRef Name) {
  const llvm::Value *V = C.M->getNamedValue(Name);
  return V ? C.PM->pointsTo().objectOf(V) : PointsTo::UnknownObj;
}

/// The objects written by the store of the constant K in Fn.
std::set<uint32_t> objectsStoredWith(const Compiled &C, llvm::StringRef Fn,
                                     int64_t K) {
  std::set<uint32_t> Out;
  for (const llvm::Instruction &I : llvm::instructions(*C.M->getFunction(Fn)))
    if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
      if (auto *V = llvm::dyn_cast<llvm::ConstantInt>(S->getValueOperand());
          V && V->getSExtValue() == K)
        for (Loc L : C.PM->pointsTo().pointsTo(S->getPointerOperand()))
          Out.insert(L.Obj);
  return Out;
}

} // namespace

TEST(PointsToTest, UnknownPointersReachOnlyEscapedObjects) {
  // 'kept' is pointed to from a static global but never handed out;
  // 'given' goes to a function without a body, which is the program's own
  // (not declared in a system header), so it may also name 'named'
  // (external linkage).
  Compiled C = compile(R"(
    static int kept, given;
    static int *kp = &kept;
    int named;
    void hand(int *p);
    int *back(void);
    int main() { *kp = 1; hand(&given); *back() = 2; return named; })");
  ASSERT_TRUE(C.PM) << C.Error;
  const PointsTo &PT = C.PM->pointsTo();
  EXPECT_FALSE(PT.reachableByUnknown(objectNamed(C, "kept")));
  EXPECT_TRUE(PT.reachableByUnknown(objectNamed(C, "given")));
  EXPECT_TRUE(PT.reachableByUnknown(objectNamed(C, "named")));
}

TEST(PointsToTest, LibraryCodeCannotNameGlobals) {
  // getfsent has no body or model but is declared in a system header.
  Compiled C = compile(R"(
    #include <fstab.h>
    int named;
    int main() { struct fstab *f = getfsent(); if (f) f->fs_freq = 1; return named; })");
  ASSERT_TRUE(C.PM) << C.Error;
  EXPECT_FALSE(C.PM->pointsTo().reachableByUnknown(objectNamed(C, "named")));
}

TEST(PointsToTest, FreshResultCalledThroughPointerIsClonedPerCall) {
  // my_alloc only returns its block, so each call through 'fn' is its own
  // object; zalloc writes into its block, so its calls share one.
  Compiled C = compile(R"(
    #include <stdlib.h>
    #include <string.h>
    static void *my_alloc(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }
    static void *zalloc(size_t n) { void *p = malloc(n); if (p) memset(p, 0, n); return p; }
    void *(*fn)(size_t) = my_alloc;
    void *(*zfn)(size_t) = zalloc;
    int main() {
      int *a = fn(4), *b = fn(4), *c = zfn(4), *d = zfn(4);
      *a = 1; *b = 2; if (c && d) { *c = 3; *d = 4; }
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  std::set<uint32_t> A = objectsStoredWith(C, "main", 1),
                     B = objectsStoredWith(C, "main", 2),
                     Z1 = objectsStoredWith(C, "main", 3),
                     Z2 = objectsStoredWith(C, "main", 4);
  ASSERT_EQ(A.size(), 1u);
  ASSERT_EQ(B.size(), 1u);
  EXPECT_NE(*A.begin(), *B.begin());
  EXPECT_FALSE(Z1.empty());
  EXPECT_EQ(Z1, Z2);
}

TEST(PointsToTest, ArgumentResultsFollowEachCallsArguments) {
  // 'skip' returns its argument moved forward; 'field' returns a member
  // of its argument; 'other' returns what it loads, so its calls share
  // one result.
  Compiled C = compile(R"(
    struct P { int x; int y; } p1, p2;
    char a[8], b[8];
    int *g;
    __attribute__((noinline)) char *skip(char *s) { while (*s == ' ') s++; return s; }
    __attribute__((noinline)) int *field(struct P *p) { return &p->y; }
    __attribute__((noinline)) int *other(struct P *p) { return g; }
    int main() {
      g = &p1.x;
      *skip(a) = 1; *skip(b) = 2;
      *field(&p1) = 3; *field(&p2) = 4;
      *other(&p1) = 5; *other(&p2) = 6;
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  const PointsTo &PTA = C.PM->pointsTo();
  auto Only = [&](int64_t K) {
    std::set<uint32_t> S = objectsStoredWith(C, "main", K);
    return S.size() == 1 ? *S.begin() : PointsTo::UnknownObj;
  };
  EXPECT_EQ(Only(1), PTA.objectOf(C.M->getNamedGlobal("a")));
  EXPECT_EQ(Only(2), PTA.objectOf(C.M->getNamedGlobal("b")));
  auto Target = [&](int64_t K) {
    for (const llvm::Instruction &I :
         llvm::instructions(*C.M->getFunction("main")))
      if (auto *S = llvm::dyn_cast<llvm::StoreInst>(&I))
        if (auto *V = llvm::dyn_cast<llvm::ConstantInt>(S->getValueOperand());
            V && V->getSExtValue() == K)
          return describeAll(C, PTA.pointsTo(S->getPointerOperand()));
    return std::string("(no store)");
  };
  EXPECT_EQ(Target(3), "p1.y");
  EXPECT_EQ(Target(4), "p2.y");
  EXPECT_EQ(Target(5), "p1.x");
  EXPECT_EQ(Target(6), "p1.x");
}

TEST(PointsToTest, CopyLengthBoundedByItsRange) {
  // A varying length with a bound (`1 + (c[0] & 7)`, at most 8) copies no
  // further: the pointer after the 8-byte label is not moved. An unbounded
  // one copies to the source's end.
  Compiled C = compile(R"(
    #include <string.h>
    struct L { unsigned char c[8]; };
    struct T { struct L lab; int *p; } s, d, d2;
    int x;
    void use(void) { *d.p = 1; *d2.p = 2; }
    int main(int argc, char **argv) {
      s.p = &x;
      memcpy(&d.lab, &s.lab, 1u + (s.lab.c[0] & 7u));
      memcpy(&d2.lab, &s.lab, (unsigned)argc);
      use();
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 0)), "");
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 1)), "x");
}

TEST(PointsToTest, CopyFromArrayMemberStaysInIt) {
  // A copy from and to an array member (mDNS copying one record's name
  // into another's, in one block) stays in the arrays: the two spans are
  // apart, so the copy is not one that shifts pointers through the object.
  Compiled C = compile(R"(
    #include <string.h>
    struct R { char name[8]; int *p; };
    struct Set { struct R a, b; } g;
    int x, y;
    void use(void) { *g.b.p = 1; }
    void copy(struct Set *s, unsigned n) {
      memcpy(s->b.name, s->a.name, n);
      s->b.name[7] = 0;
    }
    int main(int argc, char **argv) {
      g.a.p = &x;
      g.b.p = &y;
      copy(&g, (unsigned)argc);
      use();
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 0)), "y");
}

TEST(PointsToTest, CopyEndsWithTheSourceObject) {
  // A copy of unknown length through pointers that name no array reads no
  // byte past the end of the source object: from c.name, 16 bytes at
  // most, to a.name, so the spans are apart and `after` lands where it
  // would (b.p), not at every offset from a.name on (c.p among them).
  Compiled C = compile(R"(
    #include <string.h>
    struct R { int *p; char name[8]; };
    struct Set { struct R a, b, c; int *after; } g;
    int y, z;
    void use(void) { *g.c.p = 1; }
    void copy(char *d, const char *s, unsigned n) { memcpy(d, s, n); }
    int main(int argc, char **argv) {
      g.c.p = &y;
      g.after = &z;
      copy(g.a.name, g.c.name, (unsigned)argc);
      copy(g.a.name, g.c.name, (unsigned)argc + 1);
      use();
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 0)), "y");
}

TEST(PointsToTest, HeapBlockOfOneStructHasItsType) {
  // A block of exactly sizeof(struct M), indexed as one, has no room for
  // a "struct hack": an index into its last member stays there. A larger
  // block (a struct hack's) has no type: any offset.
  Compiled C = compile(R"(
    #include <stdlib.h>
    struct M { int count; char buf[8]; };
    void put(struct M *m, int i) { m->buf[i] = 0; }
    int main(int argc, char **argv) {
      struct M *m = malloc(sizeof *m);
      m->count = 0;
      put(m, argc);
      struct M *big = malloc(sizeof *big + 16);
      big->count = 0;
      put(big, argc);
      return 0;
    })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet S = storeTarget(C, "put", 0);
  ASSERT_EQ(S.size(), 2u);
  const Loc &Typed = *S.begin(), &Untyped = *std::next(S.begin());
  EXPECT_EQ(Typed.Off, 4);
  EXPECT_EQ(Typed.Stride, 1u);
  EXPECT_EQ(Typed.Count, 8u);
  EXPECT_TRUE(Untyped.anywhere());
}

TEST(PointsToTest, UnionIsItsBytes) {
  // A union's IR type shows one member (int w[4]); a byte walk inside it
  // stays in the union's 16 bytes, not in the struct's other fields.
  Compiled C = compile(R"(
    union U { int w[4]; unsigned char b[16]; };
    struct S { int *p; union U u; int k; } g;
    void put(unsigned char *q, int i) { q[i] = 0; }
    int main(int argc, char **argv) { put(&g.u.b[1], argc); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet S = storeTarget(C, "put", 0);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S.begin()->Off, 8);
  EXPECT_EQ(S.begin()->Stride, 1u);
  EXPECT_EQ(S.begin()->Count, 16u);
}

TEST(PointsToTest, ArgumentResultIsWhereTheCalleeReturns) {
  // at() returns its argument moved by a varying amount: each call gets
  // what at() returns inside that call's own objects (an element of
  // t.name), not any offset of them.
  Compiled C = compile(R"(
    struct T { int k; char name[8]; int j; } t;
    char u[4];
    char *at(char *s, int n) { return s + n; }
    void use(int n) { *at(t.name, n) = 0; *at(u, n) = 0; }
    int main(int argc, char **argv) { use(argc); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet S = storeTarget(C, "use", 0);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(describeAll(C, S), "t.name[*]");
  EXPECT_EQ(S.begin()->Count, 8u);
  EXPECT_EQ(describeAll(C, storeTarget(C, "use", 1)), "u[*]");
}

TEST(PointsToTest, StepsOutsideArraysStayInTheirObject) {
  // p + i from a member in no array: the offsets of the object a whole
  // number of ints away. From inside an array of other elements, with a
  // step of a known multiple (2 * i ints: 8 bytes): those 8 bytes apart.
  Compiled C = compile(R"(
    struct P { int a; int b; int *p; int c; } g;
    struct Q { char tag[8]; int x; int y; } h;
    void put(int i) {
      int *q = &g.b;
      q[i] = 1;
      int *w = (int *)h.tag;
      w[2 * i] = 2;
    }
    int main(int argc, char **argv) { put(argc); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet One = storeTarget(C, "put", 0);
  ASSERT_EQ(One.size(), 1u);
  EXPECT_EQ(One.begin()->Off, 0);
  EXPECT_EQ(One.begin()->Stride, 4u);
  EXPECT_EQ(One.begin()->Count, 6u);
  PtsSet Residue = storeTarget(C, "put", 1);
  ASSERT_EQ(Residue.size(), 1u);
  EXPECT_EQ(Residue.begin()->Off, 0);
  EXPECT_EQ(Residue.begin()->Stride, 8u);
  EXPECT_EQ(Residue.begin()->Count, 2u);
  EXPECT_FALSE(mayOverlap(*Residue.begin(), 4, {Residue.begin()->Obj, 12}, 4));
}

TEST(PointsToTest, MayHoldStructAtWalksMembersAndElements) {
  Compiled C = compile(R"(
    struct list_head { struct list_head *next, *prev; };
    struct task { struct list_head list; int n; };
    struct holder { int id; struct task t[2]; } h;
    union any { struct task t; long l; } u;
    struct queue { struct list_head head; int *owner; } q;
    char pool[64];
    int main() { h.id = u.l = q.owner != 0; return pool[0]; })");
  ASSERT_TRUE(C.PM) << C.Error;
  const llvm::DataLayout &DL = C.M->getDataLayout();
  auto *Task =
      llvm::StructType::getTypeByName(C.M->getContext(), "struct.task");
  ASSERT_TRUE(Task);
  auto TypeOf = [&](const char *G) {
    return C.M->getNamedGlobal(G)->getValueType();
  };
  uint64_t TaskSize = DL.getTypeAllocSize(Task);
  // h.t[0] and h.t[1] start at 8 and 8 + sizeof(struct task); nothing
  // else in h is a task.
  EXPECT_TRUE(mayHoldStructAt(DL, TypeOf("h"), 8, Task));
  EXPECT_TRUE(mayHoldStructAt(DL, TypeOf("h"), 8 + TaskSize, Task));
  EXPECT_FALSE(mayHoldStructAt(DL, TypeOf("h"), 0, Task));
  EXPECT_FALSE(mayHoldStructAt(DL, TypeOf("h"), 16, Task));
  EXPECT_FALSE(mayHoldStructAt(DL, TypeOf("h"), -8, Task));
  EXPECT_FALSE(mayHoldStructAt(DL, TypeOf("h"), 8 + 2 * TaskSize, Task));
  // A list head, and the queue around one, hold no task.
  EXPECT_FALSE(mayHoldStructAt(DL, TypeOf("q"), 0, Task));
  // A union, or bytes, may hold anything.
  EXPECT_TRUE(mayHoldStructAt(DL, TypeOf("u"), 0, Task));
  EXPECT_TRUE(mayHoldStructAt(DL, TypeOf("pool"), 16, Task));
}

TEST(PointsToTest, OwnAddressStoredLandsAtItsOwnObject) {
  // One store of `p->head = &p->sentinel` for two pools (the loop keeps
  // the initialiser from being inlined): each head points to its own
  // sentinel only, while a store of another pointer still reaches both.
  Compiled C = compile(R"(
    struct P { int *head; int sentinel; int *other; } a, b;
    int x;
    void init(struct P *p, int n) {
      p->head = &p->sentinel;
      p->other = &x;
      for (int i = 0; i < n; i++)
        p->sentinel += i;
    }
    int main() { init(&a, 1); init(&b, 2); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  const PointsTo &PT = C.PM->pointsTo();
  const llvm::Module &M = *C.M;
  uint32_t A = PT.objectOf(M.getNamedGlobal("a"));
  uint32_t B = PT.objectOf(M.getNamedGlobal("b"));
  EXPECT_EQ(describeAll(C, PT.contents(A)), "x,a.sentinel");
  EXPECT_EQ(describeAll(C, PT.contents(B)), "x,b.sentinel");
}

TEST(PointsToTest, AsmYieldsNumbersOnlyForArithmeticInstructions) {
  llvm::LLVMContext Ctx;
  auto *I64 = llvm::Type::getInt64Ty(Ctx);
  auto *Fn = llvm::FunctionType::get(I64, {I64}, false);
  auto Asm = [&](const char *Text) {
    return llvm::InlineAsm::get(Fn, Text, "=r,0", false);
  };
  // memcached's crc32c_hw, one and three instructions per statement.
  EXPECT_TRUE(asmYieldsNumbers(*Asm("crc32b\t($1), $0")));
  EXPECT_TRUE(asmYieldsNumbers(*Asm(
      "crc32q\t($3), $0\n\tcrc32q\t8192($3), $1\n\tcrc32q\t16384($3), $2")));
  EXPECT_TRUE(asmYieldsNumbers(*Asm("bswap $0")));
  // One instruction off the list (shl) in any statement is enough to
  // decline; so is an address computation, a move or a load.
  EXPECT_FALSE(asmYieldsNumbers(*Asm("rdtsc; shl $$32, %rdx")));
  EXPECT_FALSE(asmYieldsNumbers(*Asm("lea 8($1), $0")));
  EXPECT_FALSE(asmYieldsNumbers(*Asm("mov $1, $0")));
  EXPECT_FALSE(asmYieldsNumbers(*Asm("crc32b ($1), $0\n\tmov ($0), $0")));
  EXPECT_FALSE(asmYieldsNumbers(*Asm("")));
}
