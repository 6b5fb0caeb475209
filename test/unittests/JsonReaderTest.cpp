//===- JsonReaderTest.cpp - a JSON report read back (crace merge) ---------===//
#include "report/Report.h"
#include "gtest/gtest.h"

using namespace crace;

namespace {

AccessInfo access(std::string Thread, unsigned Line, AccessKind K,
                  std::vector<std::string> Locks = {}) {
  AccessInfo A;
  A.Thread = std::move(Thread);
  A.Kind = K;
  A.Size = 4;
  A.Loc.File = "/nonexistent/crace/prog.c";
  A.Loc.Line = Line;
  A.Loc.Column = 7;
  A.Variable = "counter";
  A.Locks = std::move(Locks);
  return A;
}

/// A report with a confirmed race and its trace, a possible race, a
/// deadlock, reasons, statistics out of alphabetical order, counters, the
/// programs of a database and a shard.
Result sample() {
  Result R;
  R.Program = Verdict::Race;
  R.Engine = "auto";
  R.Omitted = 3;
  Finding Race;
  Race.Kind = Verdict::Race;
  Race.Engine = "explore";
  Race.Program = "racy";
  Race.First = access("worker", 9, AccessKind::Write);
  Race.Second = access("main", 15, AccessKind::Read, {"m", "rw (read)"});
  Race.Second.Atomic = true;
  for (unsigned I = 0; I < 3; ++I) {
    TraceStep S;
    S.Thread = I == 1 ? "worker" : "main";
    S.ThreadId = I == 1 ? 1 : 0;
    S.Loc.File = "/nonexistent/crace/prog.c";
    S.Loc.Line = 10 + I;
    S.Loc.Column = 3;
    S.Action = "about to write \"counter\"";
    Race.Trace.push_back(S);
  }
  R.Findings.push_back(Race);
  Finding Possible;
  Possible.Engine = "lockset";
  Possible.Program = "tool";
  Possible.Concurrency = "'worker' and 'main' may run at the same time";
  Possible.First = access("worker", 20, AccessKind::Write);
  Possible.Second = access("worker", 20, AccessKind::Write);
  R.Findings.push_back(Possible);
  Finding Deadlock = Possible;
  Deadlock.Category = FindingCategory::Deadlock;
  Deadlock.Kind = Verdict::Race;
  R.Findings.push_back(Deadlock);
  R.Programs = {{"racy", "/src/racy.c", "race", 1},
                {"tool", "/src/tool.c", "possible-race", 2},
                {"broken", "/src/broken.c", "not analysed", 0}};
  R.reason(ReasonKind::Failure,
           "program 'broken' was not analysed (it does not compile or link)");
  R.reason(ReasonKind::Note, "tool: the lockset engine over-approximates");
  R.stat("database_compile_seconds", 0.25);
  R.stat("racy.total_seconds", 1.5);
  R.stat("racy.findings", 1);
  R.stat("tool.abstract_objects", 12);
  R.Counters.push_back({"racy.crace-model", "NumPasses", "", 4});
  R.Counters.push_back({"racy.crace-analysis", "NumPairs", "", 9});
  R.Shard = {2, 3, {"broken", "racy", "tool"}};
  return R;
}

std::string json(const Result &R) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeJson(R, OS);
  return S;
}

} // namespace

TEST(JsonReaderTest, RoundTripsAReport) {
  Result R = sample();
  std::string Text = json(R);
  llvm::Expected<Result> Back = readJson(Text);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(json(*Back), Text);
  EXPECT_EQ(Back->Program, Verdict::Race);
  EXPECT_EQ(Back->Omitted, 3u);
  ASSERT_EQ(Back->Findings.size(), 3u);
  const Finding &F = Back->Findings[0];
  EXPECT_EQ(F.Kind, Verdict::Race);
  EXPECT_EQ(F.Program, "racy");
  EXPECT_EQ(F.Second.Locks, (std::vector<std::string>{"m", "rw (read)"}));
  EXPECT_TRUE(F.Second.Atomic);
  EXPECT_EQ(F.Second.Kind, AccessKind::Read);
  ASSERT_EQ(F.Trace.size(), 3u);
  EXPECT_EQ(F.Trace[1].ThreadId, 1u);
  EXPECT_EQ(F.Trace[2].Action, "about to write \"counter\"");
  EXPECT_EQ(racingSteps(F), racingSteps(R.Findings[0]));
  EXPECT_EQ(Back->Findings[1].Concurrency, R.Findings[1].Concurrency);
  EXPECT_EQ(Back->Findings[2].Category, FindingCategory::Deadlock);
  EXPECT_EQ(Back->reasonTexts(), R.reasonTexts());
  EXPECT_EQ(Back->Reasons[0].Kind, ReasonKind::Failure);
  // Statistics and counters keep their order, not the alphabet's.
  EXPECT_EQ(Back->Stats, R.Stats);
  ASSERT_EQ(Back->Counters.size(), 2u);
  EXPECT_EQ(Back->Counters[1].Group, "racy.crace-analysis");
  EXPECT_EQ(Back->Counters[1].Name, "NumPairs");
  EXPECT_EQ(Back->Counters[1].Value, 9u);
  ASSERT_EQ(Back->Programs.size(), 3u);
  EXPECT_EQ(Back->Programs[2].Verdict, "not analysed");
  EXPECT_EQ(Back->Shard.Index, 2u);
  EXPECT_EQ(Back->Shard.Count, 3u);
  EXPECT_EQ(Back->Shard.Programs, R.Shard.Programs);
}

TEST(JsonReaderTest, CombiningTheSplitProgramsGivesTheSameReport) {
  // combinePrograms is what -p and crace merge share: its report, read
  // back, writes the same document.
  std::vector<ProgramRun> Runs(2);
  Runs[0] = {"a", "/src/a.c", sample(), ""};
  Runs[0].R->Programs.clear();
  Runs[0].R->Shard = ShardInfo();
  for (Finding &F : Runs[0].R->Findings)
    F.Program.clear();
  Runs[1] = {"b", "/src/b.c", std::nullopt, "program 'b' was not analysed"};
  Result All = combinePrograms(Runs, "auto");
  EXPECT_EQ(All.Program, Verdict::Race);
  ASSERT_EQ(All.Programs.size(), 2u);
  EXPECT_EQ(All.Programs[0].Findings, 3u);
  EXPECT_EQ(All.Programs[1].Verdict, "not analysed");
  EXPECT_EQ(All.Stats.front().first, "a.database_compile_seconds");
  std::string Text = json(All);
  llvm::Expected<Result> Back = readJson(Text);
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(json(*Back), Text);
}

TEST(JsonReaderTest, RejectsWhatIsNotAReport) {
  for (const char *Text :
       {"", "[1, 2]", "{\"verdict\": \"race\"}",
        "{\"crace_version\": \"0\", \"schema_version\": 1, \"verdict\": "
        "\"maybe\"}",
        "{\"crace_version\": \"0\", \"schema_version\": 1, \"verdict\": "
        "\"race\", \"findings\": [{\"verdict\": \"race\"}]}"}) {
    llvm::Expected<Result> R = readJson(Text);
    EXPECT_FALSE(bool(R)) << Text;
    if (!R)
      llvm::consumeError(R.takeError());
  }
}
