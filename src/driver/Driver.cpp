//===- Driver.cpp - one crace run -----------------------------------------===//
#include "driver/Driver.h"
#include "driver/DriverMode.h"
#include "driver/Portfolio.h"
#include "driver/Watchdog.h"
#include "engines/Engine.h"
#include "frontend/DataModel.h"
#include "model/ProgramModel.h"
#include "report/Report.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <chrono>
#include <new>
#include <sys/resource.h>
#include <unistd.h>

using namespace llvm;

namespace crace {

using namespace driver;

namespace {

/// The SV-COMP answer printed last in --svcomp mode.
const char *SvCompAnswer = "UNKNOWN";

int finish(const DriverOptions &Opts, const Result &R) {
  if (Opts.Verify) {
    std::string Diff;
    raw_string_ostream OS(Diff);
    bool Ok = verifyExpectations(R, Opts.Frontend.Files, OS);
    if (!Ok) {
      errs() << Diff;
      errs() << "crace --verify: FAILED; crace's report was:\n";
      writeText(R, errs(), false, false);
      return ExitVerifyFailed;
    }
    outs() << "crace --verify: OK (" << verdictName(R.Program) << ", "
           << R.Findings.size() << " finding"
           << (R.Findings.size() == 1 ? "" : "s") << ")\n";
    return 0;
  }
  std::error_code EC;
  ToolOutputFile Out(Opts.OutputFile, EC, sys::fs::OF_Text);
  if (EC) {
    WithColor::error(errs(), "crace")
        << "cannot write '" << Opts.OutputFile << "': " << EC.message() << "\n";
    return ExitUsage;
  }
  if (Opts.Format == "json")
    writeJson(R, Out.os());
  else if (Opts.Format == "sarif")
    writeSarif(R, Out.os());
  else if (Opts.Format == "whoop")
    writeWhoop(R, Out.os(), Opts.Stats);
  else
    writeText(R, Out.os(), Opts.Color && Opts.OutputFile == "-", Opts.Stats);
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
        return ExitUsage;
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
        WithColor::error(errs(), "crace") << "cannot write '"
                                          << Opts.WitnessFile
                                          << "': " << WEC.message() << "\n";
        SvCompAnswer = "UNKNOWN";
        return ExitUsage;
      }
      writeSvCompWitness(R, Opts.Frontend.Files, Opts.Frontend.DataModel, W);
    }
  }
  switch (R.Program) {
  case Verdict::RaceFree:
    return ExitRaceFree;
  case Verdict::Race:
    return ExitRace;
  case Verdict::PossibleRace:
    return ExitPossibleRace;
  case Verdict::Unknown:
    return ExitUnknown;
  }
  llvm_unreachable("covered switch");
}

/// Checks that the SV-COMP property file names a property crace checks.
bool checkProperty(const std::string &File) {
  auto Buf = MemoryBuffer::getFile(File);
  if (!Buf) {
    WithColor::error(errs(), "crace") << "cannot read property file '" << File
                                      << "': " << Buf.getError().message()
                                      << "\n";
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

int runCraceOnce(const DriverOptions &Opts);

} // namespace

int runCrace(const DriverOptions &Opts) {
  HardStopSvComp = Opts.SvComp;
  if (Opts.SvComp && Opts.Verify) {
    WithColor::error(errs(), "crace") << "--svcomp and --verify exclude each other\n";
    return ExitUsage;
  }
  if (Opts.SvComp && Opts.PropertyFile.empty()) {
    WithColor::error(errs(), "crace") << "--svcomp needs --property FILE.prp\n";
    outs() << "UNKNOWN\n";
    return ExitUsage;
  }
  if (!Opts.SvComp && (!Opts.PropertyFile.empty() || !Opts.WitnessFile.empty())) {
    WithColor::error(errs(), "crace") << "--property and --witness need --svcomp\n";
    return ExitUsage;
  }
  if (Opts.SvComp && !checkProperty(Opts.PropertyFile)) {
    outs() << "UNKNOWN\n";
    return ExitUsage;
  }
  int Code = runCraceOnce(Opts);
  if (Opts.SvComp) {
    outs().flush();
    outs() << SvCompAnswer << "\n";
  }
  return Code;
}

namespace {

int runCraceOnce(const DriverOptions &Opts) {
  if (Opts.Format != "text" && Opts.Format != "json" &&
      Opts.Format != "sarif" && Opts.Format != "whoop") {
    WithColor::error(errs(), "crace")
        << "unknown --format '" << Opts.Format
        << "' (expected text, json, sarif or whoop)\n";
    return ExitUsage;
  }
  std::string EngineName = Opts.Engine == "auto" ? "lockset" : Opts.Engine;
  std::string ReplayText;
  if (!Opts.ReplayFile.empty()) {
    auto Buf = MemoryBuffer::getFile(Opts.ReplayFile);
    if (!Buf) {
      WithColor::error(errs(), "crace") << "cannot read trace '"
                                        << Opts.ReplayFile << "': "
                                        << Buf.getError().message() << "\n";
      return ExitUsage;
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
      return ExitUsage;
    }
    raw_string_ostream OS(ReplayText);
    OS << *Sched;
    if (Opts.Engine != "auto" && Opts.Engine != "explore") {
      WithColor::error(errs(), "crace")
          << "--replay needs the explore engine\n";
      return ExitUsage;
    }
    EngineName = "explore";
  }
  auto Kind = engineByName(EngineName);
  bool Portfolio = Opts.Engine == "auto" && ReplayText.empty();
  if (!Kind) {
    WithColor::error(errs(), "crace")
        << "unknown engine '" << Opts.Engine << "'; available: auto";
    for (const EngineInfo &I : allEngines())
      errs() << ", " << I.Name;
    errs() << "\n";
    return ExitUsage;
  }
  HardStopFormat = Opts.Verify ? "text" : Opts.Format;
  std::set_new_handler(outOfMemory);
  install_bad_alloc_error_handler(badAlloc);

  std::atomic<bool> Cancel{false};
  unsigned Timeout = Opts.TimeoutGiven ? Opts.TimeoutSeconds
                     : Portfolio       ? DefaultPortfolioTimeout
                                       : 0;
  Watchdog Dog(Opts, Timeout, Cancel);
  auto Started = std::chrono::steady_clock::now();

  Phase = "compiling";
  LLVMContext Ctx;
  auto FrontOptsOr = withDriverMode(Opts.Frontend, Opts.Engine, Opts.DriverMode);
  if (!FrontOptsOr) {
    WithColor::error(errs(), "crace") << toString(FrontOptsOr.takeError())
                                      << "\n";
    return ExitUsage;
  }
  FrontendOptions FrontOpts = std::move(*FrontOptsOr);
  auto ModOrErr = buildModule(FrontOpts, Ctx);
  // A program written for a 32-bit target (CIL-combined benchmarks:
  // `typedef unsigned int size_t;`) compiled for the default LP64 would
  // pass 32-bit sizes to the 64-bit allocation models, which then merge
  // every allocation into one heap object: it is compiled again as ILP32.
  // An explicit --data-model=LP64 is kept, with a warning.
  if (ModOrErr && !Cancel)
    if (auto Why = thirtyTwoBitSizeEvidence(**ModOrErr)) {
      if (FrontOpts.DataModel.empty()) {
        WithColor::warning(errs(), "crace")
            << *Why
            << ": the program was written for a 32-bit target; analysing "
               "it as ILP32 (give --data-model=ILP32 to say so, or "
               "--data-model=LP64 to keep 64 bits)\n";
        FrontOpts.DataModel = "ILP32";
        ModOrErr->reset();
        ModOrErr = buildModule(FrontOpts, Ctx);
      } else {
        WithColor::warning(errs(), "crace")
            << *Why
            << ": the program was written for a 32-bit target, but is "
               "analysed as LP64 (--data-model): its sizes and layouts may "
               "not be the ones it was written for\n";
      }
    }
  if (!ModOrErr) {
    int Code = ExitUsage;
    handleAllErrors(
        ModOrErr.takeError(),
        [&](const CompileError &E) {
          WithColor::error(errs(), "crace") << E.message() << "\n";
          Code = ExitCompile;
        },
        [&](const ErrorInfoBase &E) {
          WithColor::error(errs(), "crace") << E.message() << "\n";
          Code = StringRef(E.message()).starts_with("internal error")
                     ? ExitInternal
                     : ExitUsage;
        });
    return Code;
  }
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
    return 0;
  }
  if (!Opts.EmitLLVM.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(Opts.EmitLLVM, EC);
    if (EC) {
      WithColor::error(errs(), "crace")
          << "cannot write '" << Opts.EmitLLVM << "': " << EC.message() << "\n";
      return ExitUsage;
    }
    M->print(OS, nullptr);
  }
  auto FrontendDone = std::chrono::steady_clock::now();

  Result R;
  R.Engine = EngineName.c_str();
  double ModelSeconds = 0;
  if (!Cancel) {
    Phase = "building the program model";
    auto ModelStart = std::chrono::steady_clock::now();
    auto PM = ProgramModel::build(*M, &Cancel);
    ModelSeconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - ModelStart)
                       .count();
    if (PM && !Cancel) {
      EngineOptions EO = Opts.EngineOpts;
      EO.Replay = ReplayText;
      Dog.beginStage(0);
      EO.Cancelled = &Dog.StageCancel;
      EO.MaxFindings = Opts.MaxFindings;
      if (Opts.SvComp)
        EO.StopAtFirstRace = true;
      if (Portfolio) {
        R = runPortfolio(*PM, EO, Dog, Cancel);
      } else if (*Kind == EngineKind::Explore && EO.Pdp && EO.Replay.empty()) {
        // Property-driven pruning needs the static candidate pairs.
        Result Static = runEngine(EngineKind::Lockset, *PM, EO);
        EO.Static = &Static;
        R = runEngine(*Kind, *PM, EO);
        R.Stats.insert(R.Stats.begin(), Static.Stats.begin(),
                       Static.Stats.end());
      } else {
        R = runEngine(*Kind, *PM, EO);
      }
    }
  }
  Dog.reporting();
  if (Cancel) {
    // The run's limit stopped it: what was found so far is reported. A
    // confirmed race stays confirmed; possible races found by a sound
    // stage stay possible races; nothing else is claimed (no race-free).
    bool Confirmed = R.Program == Verdict::Race;
    for (const Finding &F : R.Findings)
      Confirmed |= F.Category == FindingCategory::DataRace &&
                   F.Kind == Verdict::Race;
    R.Program = Confirmed              ? Verdict::Race
                : hasDataRace(R)       ? Verdict::PossibleRace
                                       : Verdict::Unknown;
    R.Assumptions.clear();
    R.Reasons.insert(R.Reasons.begin(),
                     {Dog.Reason,
                      std::string("the run stopped while ") + Phase.load() +
                          (R.Findings.empty()
                               ? ""
                               : "; the findings made until then are "
                                 "reported")});
  }
  using Secs = std::chrono::duration<double>;
  R.Stats.insert(R.Stats.begin(),
                 {"frontend_seconds", Secs(FrontendDone - Started).count()});
  R.Stats.insert(R.Stats.begin() + 1, {"model_seconds", ModelSeconds});
  R.stat("total_seconds",
         Secs(std::chrono::steady_clock::now() - Started).count());
  struct rusage Usage;
  ::getrusage(RUSAGE_SELF, &Usage);
  R.stat("peak_rss_mb", double(Usage.ru_maxrss) / 1024.0);
  return finish(Opts, R);
}

} // namespace

} // namespace crace
