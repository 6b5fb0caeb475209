//===- OptionsTest.cpp - typed --format and --engine reach their targets --===//
#include "driver/Driver.h"
#include "driver/DriverMode.h"
#include "engines/Engine.h"
#include "report/Report.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <functional>
#include <set>

using namespace crace;

namespace {

Result sampleResult() {
  Result R;
  R.Program = Verdict::PossibleRace;
  R.Engine = "lockset";
  Finding F;
  F.Kind = Verdict::PossibleRace;
  F.Engine = "lockset";
  F.First.Variable = F.Second.Variable = "x";
  F.First.Loc.File = F.Second.Loc.File = "a.c";
  F.First.Loc.Line = 3;
  F.Second.Loc.Line = 7;
  R.Findings.push_back(F);
  // A second pair on x: --group=variable shows the two as one.
  F.First.Loc.Line = 4;
  F.Second.Loc.Line = 8;
  R.Findings.push_back(F);
  R.reason(ReasonKind::Failure, "a reason");
  R.Stats.push_back({"pairs", 1});
  return R;
}

std::string written(const std::function<void(llvm::raw_ostream &)> &Write) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Write(OS);
  return S;
}

} // namespace

// Each format reaches its own writer, with the style's parts it reads:
// the five reports differ, so a format mapped to another's writer fails.
TEST(OptionsTest, EachFormatReachesItsWriter) {
  Result R = sampleResult();
  TextStyle S{/*Color=*/false, /*Stats=*/true, /*Group=*/false};
  auto Via = [&](ReportFormat F) {
    return written([&](llvm::raw_ostream &OS) { writeReport(R, OS, F, S); });
  };
  std::string Text = written([&](auto &OS) { writeText(R, OS, S); });
  std::string Json = written([&](auto &OS) { writeJson(R, OS); });
  std::string Sarif = written([&](auto &OS) { writeSarif(R, OS); });
  std::string Html = written([&](auto &OS) { writeHtml(R, OS, false); });
  std::string Whoop = written([&](auto &OS) { writeWhoop(R, OS, true); });
  EXPECT_EQ(Via(ReportFormat::Text), Text);
  EXPECT_EQ(Via(ReportFormat::Json), Json);
  EXPECT_EQ(Via(ReportFormat::Sarif), Sarif);
  EXPECT_EQ(Via(ReportFormat::Html), Html);
  EXPECT_EQ(Via(ReportFormat::Whoop), Whoop);
  EXPECT_EQ(std::set<std::string>({Text, Json, Sarif, Html, Whoop}).size(), 5u);
  // The style's Stats and Group reach the text, whoop and HTML writers.
  EXPECT_NE(Via(ReportFormat::Whoop),
            written([&](auto &OS) { writeWhoop(R, OS, false); }));
  EXPECT_NE(Via(ReportFormat::Html),
            written([&](auto &OS) { writeHtml(R, OS, true); }));
}

// The names are the registry's (Engines.def) both ways; the portfolio is
// `auto`.
TEST(OptionsTest, EngineNamesComeFromTheRegistry) {
  std::set<std::string> Names;
  for (const EngineInfo &I : allEngines()) {
    EXPECT_EQ(engineName(I.Kind), I.Name);
    EXPECT_EQ(engineByName(engineName(I.Kind)), I.Kind);
    EXPECT_EQ(engineChoiceName(I.Kind), I.Name);
    Names.insert(I.Name.str());
  }
  EXPECT_EQ(Names.size(), allEngines().size());
  EXPECT_FALSE(Names.count(PortfolioName));
  EXPECT_EQ(engineChoiceName(std::nullopt), "auto");
}

// --harness=auto: kiss, and only kiss, gets the dispatch harness.
TEST(OptionsTest, OnlyKissPicksTheDispatchHarness) {
  FrontendOptions In;
  DriverModeOptions DM;
  DM.Driver = true;
  auto Dispatch = [&](std::optional<EngineKind> E) {
    auto Out = driver::withDriverMode(In, E, DM);
    EXPECT_TRUE(bool(Out));
    return Out && Out->Driver.Dispatch;
  };
  EXPECT_FALSE(Dispatch(std::nullopt));
  for (const EngineInfo &I : allEngines())
    EXPECT_EQ(Dispatch(I.Kind), I.Kind == EngineKind::Kiss) << I.Name.str();
  DM.HarnessForm = "threads";
  DM.HarnessFormGiven = true;
  EXPECT_FALSE(Dispatch(EngineKind::Kiss));
}

// A run with DriverOptions::Engine set to an engine runs that engine, and
// Format::Json writes JSON: the report names the engine that ran.
TEST(OptionsTest, EngineGivenAsEnumIsTheOneThatRuns) {
  llvm::SmallString<128> Src, Out;
  int FD;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("crace-opts", "c", FD, Src));
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << "#include <pthread.h>\n"
          "int x;\n"
          "void *t(void *a) { x++; return 0; }\n"
          "int main(void) {\n"
          "  pthread_t a, b;\n"
          "  pthread_create(&a, 0, t, 0);\n"
          "  pthread_create(&b, 0, t, 0);\n"
          "  pthread_join(a, 0);\n"
          "  pthread_join(b, 0);\n"
          "  return x;\n"
          "}\n";
  }
  ASSERT_FALSE(
      llvm::sys::fs::createTemporaryFile("crace-opts", "json", FD, Out));
  ::close(FD);
  clang::tooling::FixedCompilationDatabase DB(".", {});
  for (const EngineInfo &I : allEngines()) {
    DriverOptions Opts;
    Opts.Frontend.Files = {Src.str().str()};
    Opts.Frontend.Database = &DB;
    Opts.Engine = I.Kind;
    Opts.Format = ReportFormat::Json;
    Opts.OutputFile = Out.str().str();
    Opts.EngineOpts.StopAtFirstRace = true;
    RunOutcome O = runCrace(Opts);
    EXPECT_EQ(O.Status, RunStatus::Verdict) << I.Name.str();
    auto Buf = llvm::MemoryBuffer::getFile(Out);
    ASSERT_TRUE(bool(Buf));
    auto Doc = llvm::json::parse((*Buf)->getBuffer());
    ASSERT_TRUE(bool(Doc)) << llvm::toString(Doc.takeError());
    const llvm::json::Object *Obj = Doc->getAsObject();
    ASSERT_TRUE(Obj);
    EXPECT_EQ(Obj->getString("engine"), I.Name) << I.Name.str();
  }
  llvm::sys::fs::remove(Src);
  llvm::sys::fs::remove(Out);
}
