//===- InputClassesTest.cpp - inputs only compared with constants ---------===//

#include "engines/explore/InputClasses.h"
#include "TestUtil.h"
#include "model/SyncAPI.h"

#include "llvm/IR/InstIterator.h"

#include "gtest/gtest.h"

using namespace crace;
using namespace crace::explore;
using namespace llvm;

namespace {

/// The __crace_nondet_int calls of function F, in order.
std::vector<const CallBase *> nondetCalls(const Module &M, StringRef F) {
  std::vector<const CallBase *> R;
  for (const Instruction &I : instructions(*M.getFunction(F)))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (callIntrinsic(*CB) == crace::Intrinsic::NondetInt)
        R.push_back(CB);
  return R;
}

// Each input's classes: the cut points of its comparisons (K and K+1, and
// INT_MIN for a signed order or an extension); an input stored, or used
// in arithmetic, is not classified.
TEST(InputClassesTest, ClassesAreCutByTheComparedConstants) {
  auto C = test::compile(R"(
    int __VERIFIER_nondet_int(void);
    int g;
    void f(void) {
      int a = __VERIFIER_nondet_int();
      if (a > 0)
        if (a < 10)
          g = 1;
      int b = __VERIFIER_nondet_int();
      g = b;
      int c = __VERIFIER_nondet_int();
      switch (c) { case 3: g = 2; break; case 7: g = 3; break; }
      long long d = __VERIFIER_nondet_int();
      if (d == -1)
        g = 4;
      unsigned e = __VERIFIER_nondet_int();
      if (e)
        g = 5;
      int h = __VERIFIER_nondet_int();
      if (h + 1 == 3)
        g = 6;
    }
    int main(void) { f(); return 0; }
  )");
  ASSERT_TRUE(C.Error.empty()) << C.Error;
  auto Calls = nondetCalls(*C.M, "f");
  ASSERT_EQ(Calls.size(), 6u);
  InputClasses IC(*C.M);
  using V = std::vector<uint64_t>;
  ASSERT_NE(IC.lookup(Calls[0]), nullptr);
  EXPECT_EQ(*IC.lookup(Calls[0]), (V{0, 1, 10, 11, 0x80000000u}));
  EXPECT_EQ(IC.lookup(Calls[1]), nullptr); // stored to g
  ASSERT_NE(IC.lookup(Calls[2]), nullptr);
  EXPECT_EQ(*IC.lookup(Calls[2]), (V{0, 3, 4, 7, 8}));
  ASSERT_NE(IC.lookup(Calls[3]), nullptr);
  EXPECT_EQ(*IC.lookup(Calls[3]), (V{0, 0x80000000u, 0xffffffffu}));
  ASSERT_NE(IC.lookup(Calls[4]), nullptr);
  EXPECT_EQ(*IC.lookup(Calls[4]), (V{0, 1}));
  EXPECT_EQ(IC.lookup(Calls[5]), nullptr); // arithmetic
}

// More classes than allowed: left to sampling.
TEST(InputClassesTest, TooManyClassesAreNotClassified) {
  auto C = test::compile(R"(
    int __VERIFIER_nondet_int(void);
    int g;
    int main(void) {
      int a = __VERIFIER_nondet_int();
      switch (a) { case 1: g = 1; break; case 5: g = 2; break;
                   case 9: g = 3; break; case 13: g = 4; break; }
      return 0;
    }
  )");
  ASSERT_TRUE(C.Error.empty()) << C.Error;
  auto Calls = nondetCalls(*C.M, "main");
  ASSERT_EQ(Calls.size(), 1u);
  EXPECT_NE(InputClasses(*C.M, 9).lookup(Calls[0]), nullptr);
  EXPECT_EQ(InputClasses(*C.M, 8).lookup(Calls[0]), nullptr);
}

// An input used as an index after `assume_abort_if_not(0 <= i && i < 4)`:
// each of the four values it may have there is a class of its own; the
// same index without the assumption, or with a range of 17 values, is not
// classified.
TEST(InputClassesTest, AnIndexLimitedByAnAssumptionIsEnumerated) {
  auto C = test::compile(R"(
    int __VERIFIER_nondet_int(void);
    void abort(void);
    void assume_abort_if_not(int cond) { if (!cond) abort(); }
    int cells[32];
    void f(void) {
      int i = __VERIFIER_nondet_int();
      assume_abort_if_not(0 <= i && i < 4);
      cells[i] = 1;
      int j = __VERIFIER_nondet_int();
      cells[j] = 2;
      int k = __VERIFIER_nondet_int();
      if (k >= 3 && k <= 19)
        cells[k] = 3;
      int l = __VERIFIER_nondet_int();
      if (l > 5)
        return;
      if (l >= 2)
        cells[l] = 4;
    }
    int main(void) { f(); return 0; }
  )");
  ASSERT_TRUE(C.Error.empty()) << C.Error;
  auto Calls = nondetCalls(*C.M, "f");
  ASSERT_EQ(Calls.size(), 4u);
  InputClasses IC(*C.M);
  using V = std::vector<uint64_t>;
  ASSERT_NE(IC.lookup(Calls[0]), nullptr);
  EXPECT_EQ(*IC.lookup(Calls[0]), (V{0, 1, 2, 3, 4, 5, 0x80000000u}));
  EXPECT_EQ(IC.lookup(Calls[1]), nullptr);
  EXPECT_EQ(IC.lookup(Calls[2]), nullptr);
  ASSERT_NE(IC.lookup(Calls[3]), nullptr);
  EXPECT_EQ(*IC.lookup(Calls[3]), (V{0, 2, 3, 4, 5, 6, 0x80000000u}));
}

} // namespace
