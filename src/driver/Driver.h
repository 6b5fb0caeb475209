//===- Driver.h - one crace run: options, budgets, pipeline, exit code ----===//
#pragma once

#include "engines/Engine.h"
#include "frontend/Frontend.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>

namespace crace {

/// Documented in docs/usage.md; only the tool maps results to these.
enum ExitCode : int {
  ExitRaceFree = 0,
  ExitRace = 1,
  ExitPossibleRace = 2,
  ExitUsage = 3,
  ExitCompile = 4,
  ExitInternal = 5,
  /// A budget ran out or crace met what it cannot analyse, and nothing
  /// was found: the reasons are printed.
  ExitUnknown = 6,
  // --verify: 0 when every expectation holds, else:
  ExitVerifyFailed = 1,
};

/// The default --timeout of --engine=auto (docs/usage.md), in seconds.
constexpr unsigned DefaultPortfolioTimeout = 300;

/// Driver mode as given on the command line (docs/usage.md, "Drivers").
struct DriverModeOptions {
  bool Driver = false;                    ///< --driver
  bool Library = false;                   ///< --library
  std::vector<std::string> Entries;       ///< --entry
  bool NoInitExitOrder = false;           ///< --no-init-exit-order
  bool NoRtnl = false;                    ///< --no-rtnl
  bool NoIrqLock = false;                 ///< --no-irq-lock
  unsigned EntryInstances = 2;            ///< --entry-instances
  bool ListEntryPoints = false;           ///< --list-entry-points
  std::vector<std::string> NotConcurrent; ///< --not-concurrent (f:g)
  std::string HarnessConfig;              ///< --harness-config
  std::string HarnessForm = "auto";       ///< --harness
  bool HarnessFormGiven = false;          ///< --harness was given
  bool DistinctParams = false;            ///< --distinct-params
};

struct DriverOptions {
  FrontendOptions Frontend;
  DriverModeOptions DriverMode;
  std::string Engine = "auto";
  std::string Format = "text";
  std::string OutputFile = "-";
  std::string EmitLLVM;
  /// --timeout: the wall-clock budget of the whole run (0: none). When
  /// not given (TimeoutGiven false), --engine=auto gets
  /// DefaultPortfolioTimeout and the single engines none.
  unsigned TimeoutSeconds = 0;
  bool TimeoutGiven = false;
  unsigned MemLimitMB = 0;
  unsigned MaxFindings = 0;
  /// Engine bounds (explore); Cancelled/MaxFindings are set by the driver.
  EngineOptions EngineOpts;
  bool Verify = false;
  bool Stats = false;
  /// --progress: progress lines on stderr also when it is not a terminal.
  bool ProgressLines = false;
  bool Color = false;
  /// --group=variable: the text report prints the possible races on one
  /// variable as one diagnostic.
  bool Group = true;
  /// Write the first confirmed race's schedule here (explore).
  std::string TraceOut;
  /// Replay a schedule written by --trace-out instead of searching.
  std::string ReplayFile;
  /// SV-COMP mode: the last line of stdout is TRUE, FALSE or UNKNOWN.
  bool SvComp = false;
  std::string PropertyFile;
  std::string WitnessFile;
  /// --suppressions: a special-case list of intended races.
  std::string SuppressionsFile;
  /// --baseline: report only findings not in this earlier report.
  std::string BaselineFile;
  /// -p without files: the whole compilation database, one program at a
  /// time (frontend/Programs.h).
  bool WholeDatabase = false;
  /// --program: analyse only this program of the database (its name or
  /// main's file).
  std::string Program;
  /// Set per program of a database: how its units were chosen (printed
  /// with a race-free verdict), and what it uses that a unit outside it
  /// defines (named in the reasons).
  std::vector<std::string> ProgramAssumptions;
  std::map<std::string, std::string> DefinedElsewhere;
  /// -p with files named: every file of the database, to say where a
  /// function the named files call seems to be defined.
  std::vector<std::string> DatabaseFiles;
};

/// Prints why the analysed module could not be built to OS and returns the
/// exit code: ExitCompile for a CompileError, ExitInternal for an
/// InternalError (model/Errors.h), ExitUsage for any other error.
int reportBuildError(llvm::Error E, llvm::raw_ostream &OS);

/// Runs crace and returns the process exit code. Diagnostics about bad
/// input go to stderr; the report goes to OutputFile.
int runCrace(const DriverOptions &Opts);

} // namespace crace
