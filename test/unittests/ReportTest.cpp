//===- ReportTest.cpp - unit tests of the finding helpers -----------------===//
#include "report/Finding.h"
#include "gtest/gtest.h"

using namespace crace;

namespace {

Finding make(std::string Variable, Verdict Kind = Verdict::PossibleRace,
             unsigned Line = 1) {
  Finding F;
  F.Kind = Kind;
  F.First.Variable = std::move(Variable);
  F.First.Loc.Line = Line;
  return F;
}

std::vector<std::string> variables(const Result &R) {
  std::vector<std::string> Out;
  for (const Finding &F : R.Findings)
    Out.push_back(F.First.Variable);
  return Out;
}

} // namespace

TEST(ReportTest, GroupsByVariableInOrderOfFirstFinding) {
  Result R;
  for (const char *V : {"b", "a", "b", "c", "a"})
    R.Findings.push_back(make(V));
  R.Findings.push_back(make("a", Verdict::Race));
  EXPECT_EQ(findingGroups(R), (std::vector<unsigned>{0, 1, 0, 2, 1, 3}));
}

TEST(ReportTest, CutSharesPlacesAmongVariablesAndKeepsOrder) {
  Result R;
  for (unsigned I = 0; I < 6; ++I)
    R.Findings.push_back(make("big", Verdict::PossibleRace, I));
  R.Findings.push_back(make("small"));
  R.Findings.push_back(make("late", Verdict::Race));
  R.Omitted = 2;
  cutFindings(R, 4);
  // The race first, then one place per variable, then big's second pair;
  // in the findings' original order.
  EXPECT_EQ(variables(R),
            (std::vector<std::string>{"big", "big", "small", "late"}));
  EXPECT_EQ(R.Findings[1].First.Loc.Line, 1u);
  EXPECT_EQ(R.Omitted, 2u + 4u);
}

TEST(ReportTest, CutKeepsEverythingUnderTheLimit) {
  Result R;
  R.Findings.push_back(make("x"));
  R.Findings.push_back(make("x"));
  cutFindings(R, 2);
  EXPECT_EQ(R.Findings.size(), 2u);
  cutFindings(R, 0);
  EXPECT_EQ(R.Findings.size(), 2u);
  EXPECT_EQ(R.Omitted, 0u);
}
