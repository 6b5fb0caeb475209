//===- PointsToTest.cpp - unit tests of the points-to analysis ------------===//
#include "TestUtil.h"
#include "gtest/gtest.h"

#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

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

TEST(PointsToTest, VariableIndexGivesUnknownOffset) {
  Compiled C = compile(R"(
    int a[8];
    void set(int i) { a[i] = 1; a[3] = 2; }
    int main() { set(1); return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet Var = storeTarget(C, "set", 0);
  ASSERT_EQ(Var.size(), 1u);
  EXPECT_EQ(Var.begin()->Off, UnknownOffset);
  EXPECT_EQ(describeAll(C, storeTarget(C, "set", 1)), "a[3]");
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
  EXPECT_EQ(S.begin()->Off, UnknownOffset);
}

TEST(PointsToTest, IntegerCastToPointerIsUnknown) {
  Compiled C = compile(R"(
    int main() { *(volatile int *)0x1000 = 1; return 0; })");
  ASSERT_TRUE(C.PM) << C.Error;
  PtsSet S = storeTarget(C, "main", 0);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S.begin()->Obj, PointsTo::UnknownObj);
}
