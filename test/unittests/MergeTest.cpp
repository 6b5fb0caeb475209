//===- MergeTest.cpp - crace merge of --shard reports ---------------------===//
#include "driver/Driver.h"
#include "gtest/gtest.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace crace;

namespace {

Result program(Verdict V, const std::string &Variable, unsigned Findings) {
  Result R;
  R.Program = V;
  R.Engine = "lockset";
  for (unsigned I = 0; I < Findings; ++I) {
    Finding F;
    F.Engine = "lockset";
    F.First.Variable = F.Second.Variable = Variable;
    F.First.Loc = {"/nonexistent/p.c", 10 + I, 3, ""};
    F.Second.Loc = {"/nonexistent/p.c", 20 + I, 5, ""};
    F.First.Thread = "worker";
    F.Second.Thread = "main";
    R.Findings.push_back(F);
  }
  if (V == Verdict::RaceFree)
    R.Assumptions.push_back("each unit defining main is a program");
  else
    R.reason(ReasonKind::Overapproximation, "the lockset engine cannot tell");
  R.stat("thread_templates", 2);
  R.stat("findings", Findings);
  return R;
}

/// The run of Programs as one report, or as shard K/N of it.
std::string report(const std::vector<ProgramRun> &All, unsigned K = 0,
                   unsigned N = 0) {
  std::vector<ProgramRun> Mine;
  ShardInfo Shard;
  for (size_t I = 0; I < All.size(); ++I) {
    Shard.Programs.push_back(All[I].Name);
    if (!N || I % N == K - 1)
      Mine.push_back(All[I]);
  }
  Result R = combinePrograms(Mine, "lockset");
  R.Stats.insert(R.Stats.begin(), {"database_compile_seconds", 0.5});
  if (N) {
    Shard.Index = K;
    Shard.Count = N;
    R.Shard = Shard;
  }
  std::string S;
  llvm::raw_string_ostream OS(S);
  writeJson(R, OS);
  return S;
}

std::string tempFile(const std::string &Text) {
  llvm::SmallString<128> Path;
  int FD;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("shard", "json", FD, Path));
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  return Path.str().str();
}

/// Merges the shards of All (N of them, given in reverse order) and
/// returns the merged JSON report and its outcome.
std::pair<std::string, RunOutcome> merge(const std::vector<ProgramRun> &All,
                                         unsigned N) {
  MergeOptions Opts;
  for (unsigned K = N; K >= 1; --K)
    Opts.Inputs.push_back(tempFile(report(All, K, N)));
  Opts.OutputFile = tempFile("");
  RunOutcome O = runMerge(Opts);
  auto Buf = llvm::MemoryBuffer::getFile(Opts.OutputFile);
  std::string Out = Buf ? (*Buf)->getBuffer().str() : "";
  for (const std::string &F : Opts.Inputs)
    llvm::sys::fs::remove(F);
  llvm::sys::fs::remove(Opts.OutputFile);
  return {Out, O};
}

} // namespace

TEST(MergeTest, ShardsOfRaceFreeProgramsKeepTheirAssumptions) {
  std::vector<ProgramRun> All = {
      {"a", "/src/a.c", program(Verdict::RaceFree, "", 0), ""},
      {"b", "/src/b.c", program(Verdict::RaceFree, "", 0), ""},
      {"c", "/src/c.c", program(Verdict::RaceFree, "", 0), ""}};
  for (unsigned N : {1u, 2u, 3u, 5u}) {
    auto [Merged, Outcome] = merge(All, N);
    EXPECT_EQ(Merged, report(All)) << N << " shards";
    EXPECT_EQ(Outcome.V, Verdict::RaceFree);
  }
}

TEST(MergeTest, AProgramNotAnalysedAndFindingsInSeveralShards) {
  std::vector<ProgramRun> All = {
      {"a", "/src/a.c", program(Verdict::PossibleRace, "x", 2), ""},
      {"b", "/src/b.c", std::nullopt,
       "program 'b' was not analysed (it does not compile or link)"},
      {"c", "/src/c.c", program(Verdict::RaceFree, "", 0), ""},
      {"d", "/src/d.c", program(Verdict::PossibleRace, "x", 1), ""}};
  for (unsigned N : {2u, 3u, 4u}) {
    auto [Merged, Outcome] = merge(All, N);
    EXPECT_EQ(Merged, report(All)) << N << " shards";
    EXPECT_EQ(Outcome.V, Verdict::PossibleRace);
  }
}

TEST(MergeTest, ParsesItsArguments) {
  std::string Errors;
  llvm::raw_string_ostream OS(Errors);
  const char *Good[] = {"a.json", "-o", "out.sarif", "--format=sarif",
                        "b.json"};
  std::optional<MergeOptions> Opts = parseMergeArgs(Good, OS);
  ASSERT_TRUE(Opts.has_value());
  EXPECT_EQ(Opts->Inputs, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_EQ(Opts->OutputFile, "out.sarif");
  EXPECT_EQ(Opts->Format, ReportFormat::Sarif);
  const char *NoFile[] = {"-o"};
  EXPECT_FALSE(parseMergeArgs(NoFile, OS).has_value());
  const char *Unknown[] = {"a.json", "--stats"};
  EXPECT_FALSE(parseMergeArgs(Unknown, OS).has_value());
  EXPECT_FALSE(parseMergeArgs({}, OS).has_value());
  EXPECT_NE(Errors.find("unknown option '--stats'"), std::string::npos);
}
