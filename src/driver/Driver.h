//===- Driver.h - one crace run: options, budgets, pipeline, outcome ------===//
#pragma once

#include "engines/Engine.h"
#include "frontend/Frontend.h"
#include "report/Report.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <optional>
#include <string>

namespace crace {

/// How a run ended. The driver knows no exit codes: only the tool maps
/// an outcome to one (tools/crace/ExitCodes.h, docs/usage.md).
enum class RunStatus {
  Verdict,      ///< a report was written; RunOutcome::V is its verdict
  Usage,        ///< a usage or input error (bad option, file not written)
  Compile,      ///< the input does not compile or link
  Internal,     ///< a fault of crace's own
  VerifyPassed, ///< --verify: every expectation holds
  VerifyFailed, ///< --verify: an expectation does not hold
  Listed,       ///< --list-entry-points listed them
};

struct RunOutcome {
  RunStatus Status;
  /// The program's verdict (the worst over a database's programs), with
  /// RunStatus::Verdict.
  Verdict V = Verdict::Unknown;
  RunOutcome(RunStatus S) : Status(S) {}
  explicit RunOutcome(Verdict V) : Status(RunStatus::Verdict), V(V) {}
};

/// --engine's name of the portfolio, also the engine a report over a
/// database's programs names when the portfolio ran them.
constexpr const char *PortfolioName = "auto";
/// What --engine names E: the registry's name, or PortfolioName.
[[nodiscard]] inline llvm::StringRef
engineChoiceName(std::optional<EngineKind> E) {
  return E ? engineName(*E) : llvm::StringRef(PortfolioName);
}

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
  /// --engine: one engine, or std::nullopt for the portfolio (`auto`).
  std::optional<EngineKind> Engine;
  ReportFormat Format = ReportFormat::Text;
  std::string OutputFile = "-";
  std::string EmitLLVM;
  /// --timeout: the wall-clock budget of the whole run (0: none). When
  /// not given (TimeoutGiven false), --engine=auto gets
  /// DefaultPortfolioTimeout and the single engines none.
  unsigned TimeoutSeconds = 0;
  bool TimeoutGiven = false;
  /// Set per program of a database: the database's limit divided by its
  /// programs, which the portfolio's work budgets derive from instead of
  /// the program's own (wall-clock) share; 0: TimeoutSeconds.
  unsigned WorkBasisSeconds = 0;
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
  /// --shard=K/N: analyse only the programs of index I (0-based, database
  /// order) with I % N == K-1; Count 0: no shard. The driver fills in
  /// Programs (all programs of the run) for the report.
  ShardInfo Shard;
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
  /// Set per program of a database: the seconds spent compiling the
  /// database's units (findPrograms), reported as the statistic
  /// database_compile_seconds; negative: none.
  double DatabaseCompileSeconds = -1;
  /// --cache-dir: where translation units and analysis results are
  /// cached (frontend/DiskCache.h); empty: no cache. runCrace opens it and
  /// hands it down as Frontend.Disk.
  std::string CacheDir;
  /// -p with files named: every file of the database, to say where a
  /// function the named files call seems to be defined.
  std::vector<std::string> DatabaseFiles;
  /// The tool's exit code of an outcome: the report over a database's
  /// programs names the code of a program not analysed. Without it, the
  /// report names the outcome (statusName).
  int (*ExitCodeOf)(RunOutcome) = nullptr;
  /// The crace executable and its arguments (argv[1..]): with -p, several
  /// programs and --jobs above 1, each program is analysed by a process
  /// of its own (ProgramProcesses.h). Empty: in this process.
  std::string SelfExe;
  std::vector<std::string> SelfArgs;
  /// --jobs (default: the hardware threads): how many of a database's
  /// programs are analysed at once, each by a process of its own.
  unsigned DatabaseJobs = 1;
};

/// "usage error", "compile error", "internal error", ... (a program not
/// analysed, when no ExitCodeOf is given).
[[nodiscard]] const char *statusName(RunStatus S);

/// Prints why the analysed module could not be built to OS and says how
/// the run ends: Compile for a CompileError, Internal for an InternalError
/// (model/Errors.h), Usage for any other error.
RunStatus reportBuildError(llvm::Error E, llvm::raw_ostream &OS);

/// Runs crace and says how the run ended. Diagnostics about bad input go
/// to stderr; the report goes to OutputFile.
RunOutcome runCrace(const DriverOptions &Opts);

/// Where a budget is exceeded and crace cannot stop gracefully (inside
/// clang, out of memory), the driver prints an `unknown` verdict and calls
/// Exit with that outcome; Exit must end the process at once (_exit: no
/// destructors, no exit handlers). The tool installs it; without one the
/// process aborts.
void setHardStopExit(void (*Exit)(RunOutcome));

/// `crace merge`: what it was asked to do.
struct MergeOptions {
  std::vector<std::string> Inputs;
  std::string OutputFile = "-";
  ReportFormat Format = ReportFormat::Json;
};

/// Parses `crace merge`'s arguments (after `merge`): report files, `-o
/// FILE`, `--format=json|sarif|text`. Usage errors go to OS.
[[nodiscard]] std::optional<MergeOptions>
parseMergeArgs(llvm::ArrayRef<const char *> Args, llvm::raw_ostream &OS);

/// `crace merge`: reads the JSON reports of shards 1..N of one run
/// (--shard), checks that each is there once, and writes the report one
/// unsharded run writes. RunStatus::Usage when they do not fit together.
RunOutcome runMerge(const MergeOptions &Opts);

/// A report over several programs (a shard's) split back into its
/// programs: the inverse of combinePrograms for what a report holds.
std::vector<ProgramRun> splitPrograms(Result &Shard);

} // namespace crace
