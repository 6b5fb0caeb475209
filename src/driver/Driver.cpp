//===- Driver.cpp - one crace run -----------------------------------------===//
#include "driver/Driver.h"
#include "driver/DriverInternal.h"
#include "driver/DriverMode.h"
#include "driver/Portfolio.h"
#include "driver/ResultCache.h"
#include "driver/Watchdog.h"
#include "engines/Engine.h"
#include "frontend/DataModel.h"
#include "frontend/DiskCache.h"
#include "frontend/Frontend.h"
#include "frontend/Programs.h"
#include "model/ProgramModel.h"
#include "report/Report.h"
#include "report/Suppressions.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <chrono>
#include <new>
#include <optional>
#include <set>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace crace {

using namespace driver;

namespace {

/// The SV-COMP answer printed last in --svcomp mode.
const char *SvCompAnswer = "UNKNOWN";

RunOutcome finish(const DriverOptions &Opts, const Result &Given) {
  // --shard: the report says which part of the run it covers.
  std::optional<Result> Sharded;
  if (Opts.Shard.Count) {
    Sharded = Given;
    Sharded->Shard = Opts.Shard;
  }
  const Result &R = Sharded ? *Sharded : Given;
  if (Opts.Verify) {
    std::string Diff;
    raw_string_ostream OS(Diff);
    bool Ok = verifyExpectations(R, Opts.Frontend.Files, OS);
    if (!Ok) {
      errs() << Diff;
      errs() << "crace --verify: FAILED; crace's report was:\n";
      writeText(R, errs(), TextStyle{});
      return RunStatus::VerifyFailed;
    }
    outs() << "crace --verify: OK (" << verdictName(R.Program) << ", "
           << R.Findings.size() << " finding"
           << (R.Findings.size() == 1 ? "" : "s") << ")\n";
    return RunStatus::VerifyPassed;
  }
  std::error_code EC;
  ToolOutputFile Out(Opts.OutputFile, EC, sys::fs::OF_Text);
  if (EC) {
    WithColor::error(errs(), "crace")
        << "cannot write '" << Opts.OutputFile << "': " << EC.message() << "\n";
    return RunStatus::Usage;
  }
  writeReport(R, Out.os(), Opts.Format,
              {Opts.Color && Opts.OutputFile == "-", Opts.Stats, Opts.Group});
  Out.keep();
  if (!Opts.TraceOut.empty()) {
    const Finding *F = nullptr;
    for (const Finding &C : R.Findings)
      if (C.Kind == Verdict::Race && C.Category == FindingCategory::DataRace &&
          !C.Schedule.empty()) {
        F = &C;
        break;
      }
    if (!F) {
      WithColor::warning(errs(), "crace")
          << "no confirmed race with a schedule: nothing written to '"
          << Opts.TraceOut << "'\n";
    } else {
      std::error_code TEC;
      raw_fd_ostream T(Opts.TraceOut, TEC, sys::fs::OF_Text);
      if (TEC) {
        WithColor::error(errs(), "crace") << "cannot write '" << Opts.TraceOut
                                          << "': " << TEC.message() << "\n";
        return RunStatus::Usage;
      }
      auto Sched = json::parse(F->Schedule);
      json::Array Files;
      for (const std::string &File : Opts.Frontend.Files)
        Files.push_back(File);
      json::Object Doc{{"crace_trace", 1},
                       {"engine", F->Engine},
                       {"files", std::move(Files)},
                       {"data_model", Opts.Frontend.DataModel},
                       {"race", F->First.Variable + " at " +
                                    F->First.Loc.str() + " / " +
                                    F->Second.Loc.str()}};
      if (Sched)
        Doc["schedule"] = std::move(*Sched);
      else
        consumeError(Sched.takeError());
      T << formatv("{0:2}", json::Value(std::move(Doc))) << "\n";
    }
  }
  if (Opts.SvComp) {
    // TRUE only for a proof, FALSE only for a confirmed race.
    if (R.Program == Verdict::RaceFree)
      SvCompAnswer = "TRUE";
    else if (R.Program == Verdict::Race)
      SvCompAnswer = "FALSE";
    if (R.Program == Verdict::Race && !Opts.WitnessFile.empty()) {
      std::error_code WEC;
      raw_fd_ostream W(Opts.WitnessFile, WEC, sys::fs::OF_Text);
      if (WEC) {
        WithColor::error(errs(), "crace")
            << "cannot write '" << Opts.WitnessFile << "': " << WEC.message()
            << "\n";
        SvCompAnswer = "UNKNOWN";
        return RunStatus::Usage;
      }
      writeSvCompWitness(R, Opts.Frontend.Files, Opts.Frontend.DataModel, W);
    }
  }
  return RunOutcome(R.Program);
}

/// Checks that the SV-COMP property file names a property crace checks.
bool checkProperty(const std::string &File) {
  auto Buf = MemoryBuffer::getFile(File);
  if (!Buf) {
    WithColor::error(errs(), "crace")
        << "cannot read property file '" << File
        << "': " << Buf.getError().message() << "\n";
    return false;
  }
  StringRef Text = (*Buf)->getBuffer().trim();
  if (!Text.contains("data-race")) {
    WithColor::error(errs(), "crace")
        << "unsupported property in '" << File << "': '" << Text
        << "'; crace checks only no-data-race (CHECK( init(main()), LTL(G ! "
           "data-race) ))\n";
    return false;
  }
  return true;
}

RunOutcome runCraceOnce(const DriverOptions &Opts, Result *Collect);

/// The report of a shard that holds no program (--shard=K/N with K past
/// the programs): verdict unknown, never race-free, since it says nothing
/// about the programs; `crace merge` recomputes the verdict from the
/// shards' programs.
RunOutcome emptyShard(const DriverOptions &Opts) {
  Result R;
  R.Program = Verdict::Unknown;
  R.Engine = engineChoiceName(Opts.Engine).str();
  size_t N = Opts.Shard.Programs.size();
  R.reason(ReasonKind::Note,
           "shard " + std::to_string(Opts.Shard.Index) + "/" +
               std::to_string(Opts.Shard.Count) +
               " analyses no program (the run has " + std::to_string(N) +
               (N == 1 ? " program" : " programs") +
               "); 'crace merge' combines the shards' reports");
  return finish(Opts, R);
}

} // namespace

const char *statusName(RunStatus S) {
  switch (S) {
  case RunStatus::Verdict:
    return "verdict";
  case RunStatus::Usage:
    return "usage error";
  case RunStatus::Compile:
    return "compile error";
  case RunStatus::Internal:
    return "internal error";
  case RunStatus::VerifyPassed:
    return "verify passed";
  case RunStatus::VerifyFailed:
    return "verify failed";
  case RunStatus::Listed:
    return "entry points listed";
  }
  llvm_unreachable("covered switch");
}

RunStatus reportBuildError(Error Err, raw_ostream &OS) {
  RunStatus Status = RunStatus::Usage;
  handleAllErrors(
      std::move(Err),
      [&](const CompileError &E) {
        WithColor::error(OS, "crace") << E.message() << "\n";
        Status = RunStatus::Compile;
      },
      [&](const InternalError &E) {
        WithColor::error(OS, "crace") << E.message() << "\n";
        Status = RunStatus::Internal;
      },
      [&](const ErrorInfoBase &E) {
        WithColor::error(OS, "crace") << E.message() << "\n";
      });
  return Status;
}

RunOutcome runCrace(const DriverOptions &Opts) {
  if (!Opts.CacheDir.empty()) {
    // --cache-dir (DiskCache.h): without one that can be written, a
    // warning and no cache.
    std::unique_ptr<DiskCache> Disk = DiskCache::open(Opts.CacheDir, errs());
    DriverOptions With = Opts;
    With.CacheDir.clear();
    With.Frontend.Disk = Disk.get();
    RunOutcome Outcome = runCrace(With);
    if (Disk && Opts.Format == ReportFormat::Text)
      errs() << cacheNote(*Disk);
    return Outcome;
  }
  HardStopSvComp = Opts.SvComp;
  if (Opts.SvComp && Opts.Verify) {
    WithColor::error(errs(), "crace")
        << "--svcomp and --verify exclude each other\n";
    return RunStatus::Usage;
  }
  if (Opts.SvComp && Opts.PropertyFile.empty()) {
    WithColor::error(errs(), "crace") << "--svcomp needs --property FILE.prp\n";
    outs() << "UNKNOWN\n";
    return RunStatus::Usage;
  }
  if (!Opts.SvComp &&
      (!Opts.PropertyFile.empty() || !Opts.WitnessFile.empty())) {
    WithColor::error(errs(), "crace")
        << "--property and --witness need --svcomp\n";
    return RunStatus::Usage;
  }
  if (Opts.SvComp && !checkProperty(Opts.PropertyFile)) {
    outs() << "UNKNOWN\n";
    return RunStatus::Usage;
  }
  if (Opts.Shard.Count &&
      (Opts.Verify || Opts.SvComp || !Opts.ReplayFile.empty() ||
       !Opts.TraceOut.empty() || Opts.DriverMode.ListEntryPoints ||
       Opts.Format == ReportFormat::Whoop)) {
    WithColor::error(errs(), "crace")
        << "--shard writes a report for 'crace merge': it excludes --verify, "
           "--svcomp, --replay, --trace-out, --list-entry-points and "
           "--format=whoop\n";
    return RunStatus::Usage;
  }
  if (Opts.Shard.Count && !Opts.WholeDatabase) {
    // One program: shard 1 analyses it, the others nothing.
    DriverOptions One = Opts;
    One.Shard.Programs = {Opts.Frontend.Files.front()};
    return One.Shard.Index == 1 ? runCraceOnce(One, nullptr) : emptyShard(One);
  }
  RunOutcome Outcome =
      Opts.WholeDatabase ? runDatabase(Opts) : runCraceOnce(Opts, nullptr);
  if (Opts.SvComp) {
    outs().flush();
    outs() << SvCompAnswer << "\n";
  }
  return Outcome;
}

namespace {

/// The lines of the database's files other than the analysed ones that
/// may start an external function definition (not static, no ';'), each
/// file read once, for the hint of addProgramNotes; no verdict depends on
/// it.
class DefinitionLines {
public:
  explicit DefinitionLines(const DriverOptions &Opts) {
    std::set<std::string> Analysed;
    for (const std::string &F : Opts.Frontend.Files) {
      SmallString<256> A(F);
      sys::fs::make_absolute(A);
      Analysed.insert(std::string(A));
    }
    for (const std::string &File : Opts.DatabaseFiles) {
      if (Analysed.count(File))
        continue;
      auto Buf = MemoryBuffer::getFile(File, /*IsText=*/true);
      if (!Buf)
        continue;
      SmallVector<StringRef, 0> Lines;
      (*Buf)->getBuffer().split(Lines, '\n');
      for (StringRef L : Lines)
        if (!L.starts_with("static") && !L.contains(';'))
          Candidates.push_back({File, L.str()});
    }
  }
  /// The file with a line like the start of a definition of function Name
  /// ("int\nf(", "void *f(void) {"), or "".
  std::string definer(StringRef Name) const {
    Regex Def(
        ("^([A-Za-z_][A-Za-z0-9_ \t*]*[ \t*])?" + Name + "[ \t]*\\(").str());
    for (const auto &[File, Line] : Candidates)
      if (Def.match(Line))
        return File;
    return "";
  }

private:
  std::vector<std::pair<std::string, std::string>> Candidates;
};

/// Library mode: how the program was made (the front end's one line), or
/// "".
std::string libraryHarnessLine(const Module &M) {
  if (const NamedMDNode *N = M.getNamedMetadata("crace.library_harness"))
    if (N->getNumOperands())
      if (auto *S = dyn_cast<MDString>(N->getOperand(0)->getOperand(0)))
        return S->getString().str();
  return "";
}

/// Adds what the driver knows about the program's units to its result.
void addProgramNotes(const DriverOptions &Opts, Result &R) {
  if (R.Program == Verdict::RaceFree)
    R.Assumptions.insert(R.Assumptions.end(), Opts.ProgramAssumptions.begin(),
                         Opts.ProgramAssumptions.end());
  std::optional<DefinitionLines> Definitions; // read when first needed
  for (Reason &Each : R.Reasons) {
    std::string &Why = Each.Text;
    StringRef W = Why;
    size_t At = W.find("unknown external function '");
    if (At == StringRef::npos)
      continue;
    StringRef Name = W.drop_front(At + strlen("unknown external function '"))
                         .take_until([](char C) { return C == '\''; });
    auto It = Opts.DefinedElsewhere.find(Name.str());
    if (It != Opts.DefinedElsewhere.end())
      Why += " (defined in " + It->second +
             ", a unit of the compilation database not linked into this "
             "program)";
    else if (!Opts.DatabaseFiles.empty()) {
      if (!Definitions)
        Definitions.emplace(Opts);
      if (std::string F = Definitions->definer(Name); !F.empty())
        Why += " ('" + F +
               "' of the compilation database seems to define it: name it "
               "too, or give -p without files)";
    }
  }
}

/// With Collect, the result is handed over instead of reported (the
/// outcome then has its verdict).
RunOutcome runCraceOnce(const DriverOptions &Opts, Result *Collect) {
  (void)takeCounters(); // a program not analysed before counts for nothing
  // The engine the report names if none runs (the portfolio: lockset).
  EngineKind Kind = Opts.Engine.value_or(EngineKind::Lockset);
  std::string ReplayText;
  if (!Opts.ReplayFile.empty()) {
    auto Buf = MemoryBuffer::getFile(Opts.ReplayFile);
    if (!Buf) {
      WithColor::error(errs(), "crace")
          << "cannot read trace '" << Opts.ReplayFile
          << "': " << Buf.getError().message() << "\n";
      return RunStatus::Usage;
    }
    auto Doc = json::parse((*Buf)->getBuffer());
    const json::Object *O = Doc ? Doc->getAsObject() : nullptr;
    const json::Value *Sched = O ? O->get("schedule") : nullptr;
    if (!Doc || !O || !Sched || O->getInteger("crace_trace") != 1) {
      if (!Doc)
        consumeError(Doc.takeError());
      WithColor::error(errs(), "crace")
          << "'" << Opts.ReplayFile
          << "' is not a trace written by crace --trace-out\n";
      return RunStatus::Usage;
    }
    raw_string_ostream OS(ReplayText);
    OS << *Sched;
    if (Opts.Engine && *Opts.Engine != EngineKind::Explore) {
      WithColor::error(errs(), "crace")
          << "--replay needs the explore engine\n";
      return RunStatus::Usage;
    }
    Kind = EngineKind::Explore;
  }
  bool Portfolio = !Opts.Engine && ReplayText.empty();
  std::unique_ptr<SpecialCaseList> SuppressionList;
  if (!Opts.SuppressionsFile.empty()) {
    auto L = loadSuppressions(Opts.SuppressionsFile);
    if (!L) {
      WithColor::error(errs(), "crace") << toString(L.takeError()) << "\n";
      return RunStatus::Usage;
    }
    SuppressionList = std::move(*L);
  }
  std::set<std::string> Baseline;
  if (!Opts.BaselineFile.empty()) {
    auto B = loadBaseline(Opts.BaselineFile);
    if (!B) {
      WithColor::error(errs(), "crace") << toString(B.takeError()) << "\n";
      return RunStatus::Usage;
    }
    Baseline = std::move(*B);
  }
  HardStopFormat = Opts.Verify ? ReportFormat::Text : Opts.Format;
  std::set_new_handler(outOfMemory);
  install_bad_alloc_error_handler(badAlloc);

  std::atomic<bool> Cancel{false};
  unsigned Timeout = Opts.TimeoutGiven ? Opts.TimeoutSeconds
                     : Portfolio       ? DefaultPortfolioTimeout
                                       : 0;
  Watchdog Dog(Opts, Timeout, Cancel);
  auto Started = std::chrono::steady_clock::now();

  Phase = "compiling";
  // A build again (as ILP32, as a library) gets a fresh context: the
  // types of the first would stay in it and rename the second's.
  auto Ctx = std::make_unique<LLVMContext>();
  auto FrontOptsOr =
      withDriverMode(Opts.Frontend, Opts.Engine, Opts.DriverMode);
  if (FrontOptsOr && Opts.DriverMode.Driver)
    FrontOptsOr->Cache = nullptr; // driver mode compiles its own harness
  if (!FrontOptsOr) {
    WithColor::error(errs(), "crace")
        << toString(FrontOptsOr.takeError()) << "\n";
    return RunStatus::Usage;
  }
  FrontendOptions FrontOpts = std::move(*FrontOptsOr);
  // A program written for a 32-bit target (CIL-combined benchmarks:
  // `typedef unsigned int size_t;`) compiled for the default LP64 would
  // pass 32-bit sizes to the 64-bit allocation models, which then merge
  // every allocation into one heap object: it is compiled again as ILP32.
  // clang stops at the first such call it parses (ThirtyTwoBitProgram);
  // the module is checked for calls it cannot see. An explicit
  // --data-model=LP64 is kept, with a warning.
  FrontOpts.StopAtThirtyTwoBitSizes = true;
  auto ModOrErr = buildModule(FrontOpts, *Ctx);
  std::optional<std::string> Why;
  if (!ModOrErr) {
    Error E =
        handleErrors(ModOrErr.takeError(),
                     [&](const ThirtyTwoBitProgram &T) { Why = T.message(); });
    if (E)
      ModOrErr = std::move(E);
  } else if (!Cancel)
    Why = thirtyTwoBitSizeEvidence(**ModOrErr);
  if (Why) {
    if (FrontOpts.DataModel.empty()) {
      WithColor::warning(errs(), "crace")
          << *Why
          << ": the program was written for a 32-bit target; analysing "
             "it as ILP32 (give --data-model=ILP32 to say so, or "
             "--data-model=LP64 to keep 64 bits)\n";
      FrontOpts.DataModel = "ILP32";
      if (ModOrErr)
        ModOrErr->reset();
      Ctx = std::make_unique<LLVMContext>();
      ModOrErr = buildModule(FrontOpts, *Ctx);
    } else {
      WithColor::warning(errs(), "crace")
          << *Why
          << ": the program was written for a 32-bit target, but is "
             "analysed as LP64 (--data-model): its sizes and layouts may "
             "not be the ones it was written for\n";
    }
  }
  // A program without main is a library (docs/usage.md, "Libraries"):
  // library mode's harness runs its exported functions concurrently.
  if (ModOrErr && !Cancel && !FrontOpts.Driver.Enabled && !Opts.SvComp) {
    const Function *MainFn = (*ModOrErr)->getFunction("main");
    if (!MainFn || MainFn->isDeclaration()) {
      WithColor::note(errs(), "crace")
          << "no unit defines main: checking the input as a library, its "
             "exported functions called concurrently (--library; "
             "docs/usage.md, \"Libraries\")\n";
      FrontOpts.Driver.Enabled = FrontOpts.Driver.Library = true;
      FrontOpts.Cache = nullptr;
      ModOrErr->reset();
      Ctx = std::make_unique<LLVMContext>();
      ModOrErr = buildModule(FrontOpts, *Ctx);
    }
  }
  if (!ModOrErr)
    return reportBuildError(ModOrErr.takeError(), errs());
  std::unique_ptr<Module> M = std::move(*ModOrErr);
  if (Opts.DriverMode.ListEntryPoints) {
    if (const NamedMDNode *N = M->getNamedMetadata("crace.harness"))
      for (const MDNode *Op : N->operands())
        if (auto *S = dyn_cast<MDString>(Op->getOperand(0)))
          outs() << S->getString() << "\n";
    if (const NamedMDNode *N = M->getNamedMetadata("crace.assumptions"))
      for (const MDNode *Op : N->operands())
        if (auto *S = dyn_cast<MDString>(Op->getOperand(0)))
          outs() << "assumption: " << S->getString() << "\n";
    return RunStatus::Listed;
  }
  if (!Opts.EmitLLVM.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(Opts.EmitLLVM, EC);
    if (EC) {
      WithColor::error(errs(), "crace")
          << "cannot write '" << Opts.EmitLLVM << "': " << EC.message() << "\n";
      return RunStatus::Usage;
    }
    M->print(OS, nullptr);
  }
  auto FrontendDone = std::chrono::steady_clock::now();

  Result R;
  R.Engine = engineName(Kind).str();
  double ModelSeconds = 0;
  using Secs = std::chrono::duration<double>;
  // The user's suppressions and baseline.
  auto Settle = [&](Result &Res, const std::vector<std::string> &Assumed) {
    SuppressionSources Sup;
    Sup.List = SuppressionList.get();
    Sup.ListFile = Opts.SuppressionsFile;
    if (const NamedMDNode *N = M->getNamedMetadata("crace.no_sanitize_thread"))
      for (const MDNode *Op : N->operands())
        if (auto *S = dyn_cast<MDString>(Op->getOperand(0)))
          Sup.NoSanitizeThread.insert(S->getString().str());
    applySuppressions(Res, Sup, Opts.MaxFindings, Assumed);
    if (!Opts.BaselineFile.empty())
      applyBaseline(Res, Baseline, Opts.BaselineFile);
  };
  // The run's limit stopped it: what was found so far is reported. A
  // confirmed race stays confirmed; possible races found by a sound stage
  // stay possible races; nothing else is claimed (no race-free).
  auto Stopped = [&](Result &Res, const std::string &Why) {
    bool Confirmed = Res.Program == Verdict::Race;
    for (const Finding &F : Res.Findings)
      Confirmed |=
          F.Category == FindingCategory::DataRace && F.Kind == Verdict::Race;
    Res.Program = Confirmed          ? Verdict::Race
                  : hasDataRace(Res) ? Verdict::PossibleRace
                                     : Verdict::Unknown;
    Res.Assumptions.clear();
    Res.Reasons.insert(
        Res.Reasons.begin(),
        {{ReasonKind::Budget, Why},
         {ReasonKind::Budget,
          std::string("the run stopped while ") + Phase.load() +
              (Res.Findings.empty() ? ""
                                    : "; the findings made until then are "
                                      "reported")}});
  };
  auto Finish = [&](Result &Res) {
    Res.Stats.insert(Res.Stats.begin(), {"frontend_seconds",
                                         Secs(FrontendDone - Started).count()});
    Res.Stats.insert(Res.Stats.begin() + 1, {"model_seconds", ModelSeconds});
    if (Opts.DatabaseCompileSeconds >= 0 && !Collect)
      Res.Stats.insert(Res.Stats.begin(), {"database_compile_seconds",
                                           Opts.DatabaseCompileSeconds});
  };
  // --cache-dir: the result of an unchanged program under the same
  // options is reused (ResultCache.h).
  ResultCacheRun Cache(Opts, *M, Portfolio ? std::nullopt : std::optional(Kind),
                       Dog);
  Cache.beginAnalysis();
  if (Cache.reused() && !Cancel) {
    R = *Cache.reused();
  } else if (!Cancel) {
    Phase = "building the program model";
    auto ModelStart = std::chrono::steady_clock::now();
    auto PM = ProgramModel::build(*M, &Cancel);
    ModelSeconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - ModelStart)
                       .count();
    if (PM && !Cancel) {
      EngineOptions EO = Opts.EngineOpts;
      // Engines sit below the frontend: kiss's runtime is C compiled by it.
      if (!EO.CompileC)
        EO.CompileC = compileEmbeddedC;
      EO.Progress = &Dog.Counts;
      EO.Replay = ReplayText;
      Dog.beginStage(0);
      EO.Cancelled = &Dog.StageCancel;
      EO.MaxFindings = Opts.MaxFindings;
      if (Opts.SvComp)
        EO.StopAtFirstRace = true;
      if (Portfolio) {
        // A stage that does not stop at the time limit (a Z3 call that
        // ignores its interruption) ends in the watchdog's hard stop: it
        // reports what the stages before it published (one program only:
        // a database's programs are reported together).
        if (!Collect)
          Dog.setHardStopReport(
              [&, Assumed = PM->assumptions()](
                  const std::string &Why) -> std::optional<RunOutcome> {
                std::optional<Result> P = Dog.published();
                if (!P)
                  return std::nullopt;
                Settle(*P, Assumed);
                Stopped(*P, Why);
                Finish(*P);
                P->stat(
                    "total_seconds",
                    Secs(std::chrono::steady_clock::now() - Started).count());
                addProgramNotes(Opts, *P);
                P->Harness = libraryHarnessLine(*M);
                return finish(Opts, *P);
              });
        R = runPortfolio(*PM, EO, Dog, Cancel);
      } else if (Kind == EngineKind::Explore && EO.Pdp && EO.Replay.empty()) {
        // Property-driven pruning needs the static candidate pairs.
        Result Static = runEngine(EngineKind::Lockset, *PM, EO);
        EO.Static = &Static;
        R = runEngine(Kind, *PM, EO);
        R.Stats.insert(R.Stats.begin(), Static.Stats.begin(),
                       Static.Stats.end());
      } else {
        R = runEngine(Kind, *PM, EO);
      }
      Settle(R, PM->assumptions());
      Cache.endAnalysis(R, Cancel);
    }
  }
  if (!Dog.claimReport()) {
    // A hard stop at the time limit is writing the report and ends the
    // process.
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (Cancel)
    Stopped(R, Dog.Reason);
  Finish(R);
  Cache.finish(R, /*Units=*/!Collect);
  R.stat("total_seconds",
         Secs(std::chrono::steady_clock::now() - Started).count());
  struct rusage Usage;
  ::getrusage(RUSAGE_SELF, &Usage);
  R.stat("peak_rss_mb", double(Usage.ru_maxrss) / 1024.0);
  addProgramNotes(Opts, R);
  R.Harness = libraryHarnessLine(*M);
  if (Collect) {
    RunOutcome Collected(R.Program);
    *Collect = std::move(R);
    return Collected;
  }
  return finish(Opts, R);
}

} // namespace

RunOutcome driver::finishRun(const DriverOptions &Opts, const Result &R) {
  return finish(Opts, R);
}

RunOutcome driver::runOneProgram(const DriverOptions &Opts, Result *Collect) {
  return runCraceOnce(Opts, Collect);
}

RunOutcome driver::reportEmptyShard(const DriverOptions &Opts) {
  return emptyShard(Opts);
}

} // namespace crace
