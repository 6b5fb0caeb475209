//===- ReportTest.cpp - unit tests of the finding helpers -----------------===//
#include "report/Finding.h"
#include "report/Suppressions.h"
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

// Suppressing every finding of a complete search proves race freedom: the
// engine's over-approximation reason goes, whatever its wording; a reason
// of another kind stays, even if it speaks of over-approximation.
TEST(ReportTest, SuppressingEveryFindingDropsOverapproximationByKind) {
  Result R;
  R.Program = Verdict::PossibleRace;
  R.CandidatesComplete = true;
  Finding F = make("x");
  F.First.Loc.Function = "f";
  R.Findings.push_back(F);
  R.reason(ReasonKind::Overapproximation,
           "some engine cannot tell whether its pairs are reachable");
  R.reason(ReasonKind::Note, "this note over-approximates nothing");
  SuppressionSources S;
  S.NoSanitizeThread.insert("f");
  applySuppressions(R, S, 0, {"an assumption"});
  EXPECT_EQ(R.Program, Verdict::RaceFree);
  EXPECT_TRUE(R.Findings.empty());
  ASSERT_EQ(R.Reasons.size(), 1u);
  EXPECT_EQ(R.Reasons[0].Kind, ReasonKind::Note);
  EXPECT_EQ(R.Reasons[0].Text, "this note over-approximates nothing");
}

// While a finding remains, the over-approximation reason stays and the
// note on the suppressed ones is added.
TEST(ReportTest, SuppressingSomeFindingsKeepsOverapproximation) {
  Result R;
  R.Program = Verdict::PossibleRace;
  R.CandidatesComplete = true;
  Finding F = make("x");
  F.First.Loc.Function = "f";
  R.Findings.push_back(F);
  R.Findings.push_back(make("y"));
  R.reason(ReasonKind::Overapproximation, "pairs may be unreachable");
  SuppressionSources S;
  S.NoSanitizeThread.insert("f");
  applySuppressions(R, S, 0, {});
  EXPECT_EQ(R.Program, Verdict::PossibleRace);
  ASSERT_EQ(R.Reasons.size(), 2u);
  EXPECT_EQ(R.Reasons[0].Kind, ReasonKind::Overapproximation);
  EXPECT_EQ(R.Reasons[1].Kind, ReasonKind::Note);
  EXPECT_EQ(R.reasonTexts()[1],
            "1 finding was suppressed as an intended race: 1 by "
            "no_sanitize(\"thread\") on 'f'");
}
