//===- WorkMeterTest.cpp - deterministic work budgets ---------------------===//
#include "smt/WorkMeter.h"
#include "smt/WorkBudget.h"

#include <gtest/gtest.h>

using namespace crace;

namespace {

/// A query that takes Z3 some work: factor a 64-bit product.
z3::check_result factor(z3::context &C, WorkMeter &W, uint64_t PerQuery) {
  z3::expr X = C.bv_const("x", 64), Y = C.bv_const("y", 64);
  z3::solver S(C);
  // As smt::Solver's Z3 core does before each check.
  z3::params P(C);
  P.set("rlimit", W.queryLimit(PerQuery));
  S.set(P);
  S.add(X * Y == C.bv_val(uint64_t(1234567891011ull), 64) &&
        z3::ugt(X, C.bv_val(1, 64)) && z3::ugt(Y, C.bv_val(1, 64)));
  z3::check_result R = S.check();
  W.poll();
  return R;
}

TEST(WorkMeter, StepsOnly) {
  WorkMeter W(10 * StepCost, nullptr);
  for (unsigned I = 0; I < 9; ++I)
    EXPECT_FALSE(W.step());
  EXPECT_TRUE(W.step());
  EXPECT_TRUE(W.exhausted());
  EXPECT_EQ(W.used(), 10 * StepCost);
  EXPECT_EQ(W.steps(), 10u);
}

TEST(WorkMeter, NoLimitNeverRunsOut) {
  WorkMeter W(0, nullptr);
  EXPECT_FALSE(W.step(1'000'000));
  EXPECT_EQ(W.queryLimit(0), 0u); // no budget, no cap: Z3's "no limit"
  EXPECT_EQ(W.queryLimit(77), 77u);
}

TEST(WorkMeter, QueryLimitIsWhatIsLeft) {
  WorkMeter W(1000, nullptr);
  EXPECT_EQ(W.queryLimit(0), 1000u);
  EXPECT_EQ(W.queryLimit(300), 300u);
  W.step(10); // 10 * StepCost units spent
  EXPECT_EQ(W.queryLimit(0), 1000u - 10 * StepCost);
  W.step(100);
  EXPECT_TRUE(W.exhausted());
  EXPECT_EQ(W.queryLimit(0), 1u); // never 0 ("no limit") while a budget is set
}

TEST(WorkMeter, SecondsAtTheCalibratedRate) {
  EXPECT_EQ(unitsForSeconds(10), 10 * UnitsPerSecond);
  EXPECT_EQ(unitsForSeconds(0), 0u);
  EXPECT_EQ(unitsForSeconds(0.5), UnitsPerSecond / 2);
}

// Z3's work counts, and a budget that runs out inside a check stops it
// there: the check answers unknown, the meter says the budget is spent.
TEST(WorkMeter, Z3WorkCountsAndStopsAQuery) {
  z3::context C;
  WorkMeter W(5000, &C);
  EXPECT_EQ(factor(C, W, 0), z3::unknown);
  EXPECT_TRUE(W.exhausted());
  EXPECT_GE(W.z3Units(), 5000u);
}

// The same work gives the same count, run after run: what a budget lets a
// stage do does not depend on the machine.
TEST(WorkMeter, SameWorkSameCount) {
  uint64_t Used[2];
  for (uint64_t &U : Used) {
    z3::context C;
    WorkMeter W(0, &C);
    W.step(3);
    EXPECT_EQ(factor(C, W, 200000), z3::unknown); // its own cap ends it
    EXPECT_FALSE(W.exhausted());
    U = W.used();
    EXPECT_GT(W.z3Units(), 200000u - 10);
  }
  EXPECT_EQ(Used[0], Used[1]);
}

} // namespace
