//===- Database.cpp - every program of a compilation database -----------===//
//
// -p BUILD_DIR without files: the database's units compiled once
// (frontend/Programs.h), its programs found, then each analysed (in this
// process one after the other, or a process each, --jobs at a time:
// ProgramProcesses.h) and their results combined into one report.
//
//===----------------------------------------------------------------------===//
#include "driver/DriverInternal.h"
#include "driver/ProgramProcesses.h"
#include "driver/Watchdog.h"
#include "frontend/DiskCache.h"
#include "frontend/Programs.h"
#include "report/Report.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include <chrono>

using namespace llvm;

namespace crace::driver {

namespace {

std::string unitsOf(const ProgramSpec &P) {
  return std::to_string(P.Commands.size()) +
         (P.Commands.size() == 1 ? " unit" : " units");
}

} // namespace

RunOutcome runDatabase(const DriverOptions &Given) {
  DriverOptions Opts = Given;
  Phase = "compiling the database's units";
  auto CompileStart = std::chrono::steady_clock::now();
  auto Found =
      findPrograms(*Opts.Frontend.Database, Opts.Frontend,
                   sys::Process::StandardErrIsDisplayed() ? &errs() : nullptr);
  double CompileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - CompileStart)
                              .count();
  if (!Found) {
    WithColor::error(errs(), "crace") << toString(Found.takeError()) << "\n";
    return RunStatus::Internal;
  }
  for (const std::string &S : Found->Skipped)
    WithColor::warning(errs(), "crace") << "not analysed: " << S << "\n";
  std::vector<const ProgramSpec *> Chosen;
  for (const ProgramSpec &P : Found->Programs)
    if (Opts.Program.empty() || P.Name == Opts.Program ||
        P.MainFile == Opts.Program ||
        StringRef(P.MainFile).ends_with("/" + Opts.Program))
      Chosen.push_back(&P);
  if (!Opts.Program.empty() && Chosen.empty()) {
    WithColor::error(errs(), "crace")
        << "--program: no program '" << Opts.Program
        << "' in the compilation database";
    if (Found->Programs.empty())
      errs() << " (no unit defines main)";
    else
      for (size_t I = 0; I < Found->Programs.size(); ++I)
        errs() << (I ? ", " : "; its programs: ") << Found->Programs[I].Name;
    errs() << "\n";
    return RunStatus::Usage;
  }
  if (Chosen.empty()) {
    // No main: every file as one unit set, as before (the engines say that
    // a program without main has nothing to analyse).
    DriverOptions One = Opts;
    One.WholeDatabase = false;
    if (Opts.Shard.Count) {
      One.Shard.Programs = {Opts.Frontend.Files.front()};
      if (One.Shard.Index != 1)
        return reportEmptyShard(One);
    }
    auto Db = oneCommandPerFile(*Opts.Frontend.Database, Opts.Frontend.Files);
    One.Frontend.Database = Db.get();
    return runOneProgram(One, nullptr);
  }
  bool Several = Chosen.size() > 1;
  if (Several &&
      (Opts.Format == ReportFormat::Whoop || Opts.Verify || Opts.SvComp ||
       !Opts.TraceOut.empty() || !Opts.ReplayFile.empty() ||
       !Opts.EmitLLVM.empty() || Opts.DriverMode.ListEntryPoints)) {
    WithColor::error(errs(), "crace")
        << "the compilation database holds " << Chosen.size()
        << " programs; choose one with --program (";
    for (size_t I = 0; I < Chosen.size(); ++I)
      errs() << (I ? ", " : "") << Chosen[I]->Name;
    errs() << ") for this output or option\n";
    return RunStatus::Usage;
  }
  if (Opts.Shard.Count) {
    // --shard=K/N: the programs whose index I has I % N == K-1; a run of
    // one program is analysed by shard 1 alone.
    for (const ProgramSpec *P : Chosen)
      Opts.Shard.Programs.push_back(P->Name);
    std::vector<const ProgramSpec *> Mine;
    for (size_t I = 0; I < Chosen.size(); ++I)
      if (I % Opts.Shard.Count == Opts.Shard.Index - 1)
        Mine.push_back(Chosen[I]);
    if (Mine.empty())
      return reportEmptyShard(Opts);
    Chosen = std::move(Mine);
  }
  unsigned Total = Opts.TimeoutGiven ? Opts.TimeoutSeconds
                   : !Opts.Engine    ? DefaultPortfolioTimeout
                                     : 0;
  // A program not analysed is named by the tool's exit code of its
  // outcome.
  auto Code = [&](RunOutcome O) -> std::string {
    if (!Opts.ExitCodeOf)
      return statusName(O.Status);
    return "exit code " + std::to_string(Opts.ExitCodeOf(O));
  };
  auto Start = std::chrono::steady_clock::now();
  std::vector<std::pair<const ProgramSpec *, Result>> Runs;
  // A program not analysed, and why (the outcome's exit code).
  std::vector<std::pair<const ProgramSpec *, std::string>> Failed;
  std::optional<RunOutcome> FirstFailure;
  auto Header = [&](size_t I) {
    const ProgramSpec &P = *Chosen[I];
    errs() << "crace: program " << I + 1 << "/" << Chosen.size() << " '"
           << P.Name << "' (" << unitsOf(P) << ", main in " << P.MainFile
           << ")\n";
  };
  auto Fail = [&](const ProgramSpec &P, RunOutcome O, std::string Why) {
    Failed.push_back({&P, std::move(Why)});
    if (!FirstFailure)
      FirstFailure = O;
  };
  bool InProcesses = Several && Opts.DatabaseJobs > 1 &&
                     !Opts.SelfExe.empty() && Opts.Frontend.Disk &&
                     !Opts.Shard.Count;
  if (InProcesses) {
    // A process per program, --jobs at a time (ProgramProcesses.h), each
    // within the database's limit divided by its programs: the share the
    // work budgets derive from one after the other too (WorkBasisSeconds).
    std::vector<std::string> Names;
    for (const ProgramSpec *P : Chosen)
      Names.push_back(P->Name);
    analyseInProcesses(Opts, Names,
                       Total ? std::max<unsigned>(1, Total / Chosen.size()) : 0,
                       [&](size_t I, ProgramProcess &PP) {
                         Header(I);
                         // The process's own header names it as program 1/1.
                         StringRef Err = PP.Stderr;
                         if (Err.starts_with("crace: program 1/1 '"))
                           Err = Err.split('\n').second;
                         errs() << Err;
                         if (PP.R)
                           Runs.push_back({Chosen[I], std::move(*PP.R)});
                         else
                           Fail(*Chosen[I],
                                PP.NotAnalysed == "it does not compile or link"
                                    ? RunStatus::Compile
                                    : RunStatus::Internal,
                                PP.NotAnalysed);
                       });
  }
  for (size_t I = 0; !InProcesses && I < Chosen.size(); ++I) {
    const ProgramSpec &P = *Chosen[I];
    DriverOptions One = Opts;
    One.WholeDatabase = false;
    if (Several)
      One.Shard = ShardInfo();
    CommandListDatabase Db(P.Commands);
    One.Frontend.Database = &Db;
    One.Frontend.Files = Db.getAllFiles();
    // main's unit first: it names the module and the default argv[0].
    llvm::erase(One.Frontend.Files, P.MainFile);
    One.Frontend.Files.insert(One.Frontend.Files.begin(), P.MainFile);
    One.Frontend.Cache = &P.Cache;
    One.ProgramAssumptions = Found->Assumptions;
    One.DefinedElsewhere = P.DefinedElsewhere;
    One.DatabaseCompileSeconds = CompileSeconds;
    if (Total) {
      // An equal share of what is left; time a program does not use goes
      // to the next ones.
      double Used = std::chrono::duration<double>(
                        std::chrono::steady_clock::now() - Start)
                        .count();
      double Left = std::max(1.0, Total - Used);
      One.TimeoutSeconds = unsigned(std::max(1.0, Left / (Chosen.size() - I)));
      One.TimeoutGiven = true;
      One.WorkBasisSeconds =
          std::max<unsigned>(1, unsigned(Total / Chosen.size()));
    }
    if (!Several)
      return runOneProgram(One, nullptr);
    Header(I);
    Result R;
    RunOutcome Outcome = runOneProgram(One, &R);
    if (Outcome.Status != RunStatus::Verdict)
      Fail(P, Outcome,
           Outcome.Status == RunStatus::Compile ? "it does not compile or link"
                                                : Code(Outcome));
    else
      Runs.push_back({&P, std::move(R)});
  }
  // A shard writes its report also when none of its programs could be
  // analysed, so that `crace merge` finds every shard.
  if (Runs.empty() && !Opts.Shard.Count)
    return *FirstFailure;
  // One report for all programs (report/Finding.h, combinePrograms).
  std::vector<ProgramRun> Programs;
  for (auto &[P, R] : Runs)
    Programs.push_back({P->Name, P->MainFile, std::move(R), ""});
  for (auto &[P, Why] : Failed)
    Programs.push_back(
        {P->Name, P->MainFile, std::nullopt,
         "program '" + P->Name + "' was not analysed (" + Why + ")"});
  if (Opts.Format == ReportFormat::Text) {
    std::error_code EC;
    ToolOutputFile Out(Opts.OutputFile, EC, sys::fs::OF_Text);
    if (EC) {
      WithColor::error(errs(), "crace") << "cannot write '" << Opts.OutputFile
                                        << "': " << EC.message() << "\n";
      return RunStatus::Usage;
    }
    bool Color = Opts.Color && Opts.OutputFile == "-";
    for (size_t I = 0; I < Runs.size(); ++I) {
      const ProgramSpec &P = *Runs[I].first;
      Out.os() << "== program '" << P.Name << "' (" << unitsOf(P)
               << ", main in " << P.MainFile << ")\n";
      writeText(*Programs[I].R, Out.os(), {Color, Opts.Stats, Opts.Group});
      Out.os() << "\n";
    }
    Out.os() << "crace: " << Programs.size()
             << " programs in the compilation database:\n";
    for (const ProgramRun &P : Programs)
      if (P.R)
        Out.os() << "  " << P.Name << ": " << verdictName(P.R->Program) << " ("
                 << P.R->Findings.size() << " finding"
                 << (P.R->Findings.size() == 1 ? "" : "s") << ")\n";
    for (auto &[P, Why] : Failed)
      Out.os() << "  " << P->Name << ": not analysed (" << Why << ")\n";
    Verdict V = programsVerdict(Programs);
    Out.os() << "crace: verdict: " << verdictName(V)
             << " (the worst over the programs)\n";
    Out.keep();
    return RunOutcome(V);
  }
  // JSON and SARIF: the findings of every program, each naming its
  // program, and the programs' verdicts.
  Result All =
      combinePrograms(std::move(Programs), engineChoiceName(Opts.Engine).str());
  All.Stats.insert(All.Stats.begin(),
                   {"database_compile_seconds", CompileSeconds});
  if (const DiskCache *Disk = Opts.Frontend.Disk)
    All.Stats.insert(All.Stats.begin() + 1,
                     {{"cache_units_reused", Disk->UnitsReused.load()},
                      {"cache_units_compiled", Disk->UnitsCompiled.load()}});
  if (InProcesses)
    All.stat("jobs_program_processes", Chosen.size());
  return finishRun(Opts, All);
}

} // namespace crace::driver
