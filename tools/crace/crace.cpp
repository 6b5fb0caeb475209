//===- crace.cpp - the crace command-line tool ----------------------------===//
//
// crace [options] FILE.c... [-- compiler flags]
// crace [options] -p BUILD_DIR [FILE.c...]
// crace merge SHARD.json... [-o FILE] [--format=json|sarif|text]
//
// Parses options (llvm::cl, clang tooling's compilation databases) into a
// DriverOptions and hands over to the driver. See docs/usage.md.
//
//===----------------------------------------------------------------------===//
#include "EngineFlags.h"
#include "ExitCodes.h"
#include "ParseErrors.h"
#include "driver/Driver.h"
#include "engines/Engine.h"
#include "frontend/DiskCache.h"
#include "frontend/Programs.h"
#include "frontend/UnitCompiler.h"

#include "clang/Tooling/CommonOptionsParser.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdio>
#include <cstring>
#include <optional>
#include <unistd.h>

using namespace llvm;

// One category per group of options; --help prints them in this order
// (llvm::cl sorts categories by name, hence the numbers).
static cl::OptionCategory GeneralCat("1. General options");
static cl::OptionCategory OutputCat("2. Output options");
static cl::OptionCategory BudgetCat("3. Budgets");
static cl::OptionCategory InputCat("4. Program input options");
static cl::OptionCategory ExploreCat("5. explore engine options");
static cl::OptionCategory DriverModeCat(
    "8. Driver and library mode options (Linux drivers, libraries)");
static cl::OptionCategory SvCompCat("9. SV-COMP options");

static cl::list<std::string> SourcesOpt(cl::Positional, cl::desc("<FILE.c>..."),
                                        cl::cat(GeneralCat));
static cl::opt<std::string> BuildPathOpt(
    "p",
    cl::desc("Read compile commands from BUILD_DIR/compile_commands.json "
             "(every file in it, or the FILE.c named)"),
    cl::value_desc("BUILD_DIR"), cl::cat(GeneralCat));
static cl::opt<std::string> ProgramOpt(
    "program",
    cl::desc("With -p: analyse only this program of the database (its CMake "
             "target or the file defining its main; default: each program "
             "in turn)"),
    cl::value_desc("NAME|FILE"), cl::cat(GeneralCat));
static cl::opt<std::string> ShardOpt(
    "shard",
    cl::desc("With -p: analyse only the programs of index I (0-based, in the "
             "database's order) with I % N == K-1, and record the shard in "
             "the report; 'crace merge' combines the shards' JSON reports"),
    cl::value_desc("K/N"), cl::cat(GeneralCat));
static cl::opt<unsigned> JobsOpt(
    "jobs",
    cl::desc("Use N threads: translation units compiled and a database's "
             "programs analysed (a process each) N at once, and when given, "
             "whoop's template pairs and circ's locations checked N at once "
             "(default, and 0: the number of hardware threads; 1: one after "
             "the other)"),
    cl::value_desc("N"), cl::init(0), cl::cat(GeneralCat));
// -j N, -jN: as make and ninja spell it (an alias would be left out of
// --help).
static cl::opt<unsigned> JobsShortOpt("j", cl::desc("Same as --jobs"),
                                      cl::value_desc("N"), cl::Prefix,
                                      cl::cat(GeneralCat));
static cl::opt<std::string> CacheDirOpt(
    "cache-dir",
    cl::desc("Reuse the compiled units and analysis results kept in DIR "
             "(default with -p: BUILD_DIR/.crace-cache; else none)"),
    cl::value_desc("DIR"), cl::cat(GeneralCat));
static cl::opt<bool> NoCacheOpt("no-cache",
                                cl::desc("Use no cache (see --cache-dir)"),
                                cl::cat(GeneralCat));
static cl::list<std::string>
    ExtraArgOpt("extra-arg",
                cl::desc("A flag to append to every compile command"),
                cl::value_desc("FLAG"), cl::cat(GeneralCat));
static cl::list<std::string>
    ExtraArgBeforeOpt("extra-arg-before",
                      cl::desc("A flag to prepend to every compile command"),
                      cl::value_desc("FLAG"), cl::cat(GeneralCat));

/// cl::values' parser with an error that lists the accepted values.
template <class T> struct ValuesParser : cl::parser<T> {
  using cl::parser<T>::parser;
  bool parse(cl::Option &O, StringRef ArgName, StringRef Arg, T &V) {
    std::string Names;
    for (const auto &I : this->Values) {
      if (I.Name == Arg) {
        V = I.V.getValue();
        return false;
      }
      Names += (Names.empty() ? "" : ", ") + I.Name.str();
    }
    return O.error("'" + Arg + "' is not one of " + Names);
  }
};

/// --engine: `auto` or an engine of the registry (engines/Engines.def); the
/// values are added in main() from the registry: 1 + the engine's index in
/// allEngines().
enum class EngineChoice : unsigned { Auto = 0 };
using crace::ReportFormat;
static cl::opt<EngineChoice, false, ValuesParser<EngineChoice>>
    EngineOpt("engine", cl::desc("Engine to run (default: auto)"),
              cl::init(EngineChoice::Auto), cl::cat(GeneralCat));
enum class DataModelChoice { Default, ILP32, LP64 };
static cl::opt<DataModelChoice, false, ValuesParser<DataModelChoice>>
    DataModelOpt(
        "data-model",
        cl::desc("Data model to compile for (default: the host's, LP64; a "
                 "program written for 32 bits is retried as ILP32)"),
        cl::values(clEnumValN(DataModelChoice::ILP32, "ILP32",
                              "32-bit int, long and pointers (i386)"),
                   clEnumValN(DataModelChoice::LP64, "LP64",
                              "64-bit long and pointers (x86-64)")),
        cl::init(DataModelChoice::Default), cl::cat(GeneralCat));
static cl::opt<bool> VerifyOpt(
    "verify",
    cl::desc("Check the expectations written in the sources "
             "(expected-verdict:, expected-race); exit 0 when they hold"),
    cl::cat(GeneralCat));
static cl::opt<bool> WarningsOpt("show-warnings",
                                 cl::desc("Show the compiler's warnings"),
                                 cl::cat(GeneralCat));

static cl::opt<ReportFormat, false, ValuesParser<ReportFormat>> FormatOpt(
    "format", cl::desc("Report format"),
    cl::values(
        clEnumValN(ReportFormat::Text, "text",
                   "compiler-style diagnostics (default)"),
        clEnumValN(ReportFormat::Json, "json",
                   "one JSON document (docs/output.md)"),
        clEnumValN(ReportFormat::Sarif, "sarif",
                   "SARIF 2.1.0, for code scanning and SARIF viewers"),
        clEnumValN(ReportFormat::Html, "html",
                   "one self-contained HTML page (use with -o FILE.html)"),
        clEnumValN(ReportFormat::Whoop, "whoop", "WHOOP-style race lines")),
    cl::init(ReportFormat::Text), cl::cat(OutputCat));
static cl::opt<std::string> OutputOpt("o", cl::desc("Write the report to FILE"),
                                      cl::value_desc("FILE"), cl::init("-"),
                                      cl::cat(OutputCat));
static cl::opt<unsigned>
    MaxFindingsOpt("max-findings",
                   cl::desc("Report at most N findings (default 100; 0: all)"),
                   cl::value_desc("N"), cl::init(100), cl::cat(OutputCat));
enum class GroupBy { Variable, None };
static cl::opt<GroupBy> GroupOpt(
    "group", cl::desc("How the text and HTML reports show possible races"),
    cl::values(clEnumValN(GroupBy::Variable, "variable",
                          "one diagnostic per variable: its first pair in "
                          "full, the other pairs one line each (default)"),
               clEnumValN(GroupBy::None, "none", "every pair in full")),
    cl::init(GroupBy::Variable), cl::cat(OutputCat));
static cl::opt<unsigned> MaxPairsOpt(
    "max-pairs",
    cl::desc("The static stage stops pairing after N findings (conflicting "
             "pairs of source locations; default 20000; 0: no limit); the "
             "verdict is then possible-race and the report says the search "
             "stopped"),
    cl::value_desc("N"), cl::init(crace::EngineOptions().MaxPairs),
    cl::cat(OutputCat));
static cl::opt<bool> ProgressOpt(
    "progress",
    cl::desc("Print a progress line on stderr every 10 s and at each phase "
             "(phase, seconds, the engine's count such as transitions or "
             "work units), also when stderr is not a terminal, as in CI "
             "logs; on a terminal a status line is always shown"),
    cl::cat(OutputCat));
static cl::opt<std::string> SuppressionsOpt(
    "suppressions",
    cl::desc("Do not report the races FILE marks as intended (sanitizer "
             "special-case-list syntax: race:, fun:, src:, global:, field: "
             "patterns; docs/usage.md)"),
    cl::value_desc("FILE"), cl::cat(OutputCat));
static cl::opt<std::string> BaselineOpt(
    "baseline",
    cl::desc("Report only the findings that are not in FILE, an earlier "
             "report (--format=json or sarif); the verdict is then the new "
             "findings'"),
    cl::value_desc("FILE"), cl::cat(OutputCat));
static cl::opt<std::string>
    EmitLLVMOpt("emit-llvm",
                cl::desc("Write the analysed LLVM module to FILE (debugging)"),
                cl::value_desc("FILE"), cl::init(""), cl::cat(OutputCat));
static cl::opt<std::string> SmtLogOpt(
    "smt-log",
    cl::desc("Write every SMT check of whoop and kiss as an SMT-LIB 2 file "
             "into DIR (created if missing), named <stage>-<number>.smt2, "
             "with the answer appended (debugging)"),
    cl::value_desc("DIR"), cl::init(""), cl::cat(OutputCat));

static cl::opt<unsigned>
    TimeoutOpt("timeout",
               cl::desc("Wall-clock budget of the whole run; when it runs "
                        "out, the findings made so far are reported (race, "
                        "possible-race, else unknown). Default: 300 for "
                        "--engine=auto, none for a single engine (0: none)"),
               cl::value_desc("SECONDS"), cl::init(0), cl::cat(BudgetCat));
static cl::opt<unsigned> MemlimitOpt(
    "memlimit",
    cl::desc("Stop at MB of resident memory with verdict 'unknown' (0: none)"),
    cl::value_desc("MB"), cl::init(0), cl::cat(BudgetCat));

static cl::opt<std::string> ArgsOpt(
    "args",
    cl::desc("Analyse the runs with exactly these command-line arguments "
             "(after argv[0]; split like a shell, quotes group words) "
             "instead of every command line of at most 4 short strings"),
    cl::value_desc("\"a b c\""), cl::cat(InputCat));
static cl::opt<std::string> Argv0Opt(
    "argv0",
    cl::desc("With --args: the program name, argv[0] (default: the first "
             "source file's name without extension)"),
    cl::value_desc("NAME"), cl::cat(InputCat));
static cl::list<std::string> EnvOpt(
    "env",
    cl::desc("Analyse the runs with exactly this environment (repeat for "
             "more variables; --env= alone: an empty environment) instead of "
             "every environment of at most 3 short strings"),
    cl::value_desc("NAME=VALUE"), cl::cat(InputCat));

static cl::opt<bool> SvCompOpt(
    "svcomp",
    cl::desc("SV-COMP mode: the last line of stdout is TRUE, FALSE or UNKNOWN"),
    cl::cat(SvCompCat));
static cl::opt<std::string>
    PropertyOpt("property",
                cl::desc("SV-COMP property file (only no-data-race.prp)"),
                cl::value_desc("FILE.prp"), cl::init(""), cl::cat(SvCompCat));
static cl::opt<std::string> WitnessOpt(
    "witness",
    cl::desc("SV-COMP mode: write a violation witness (YAML 2.0) to FILE"),
    cl::value_desc("FILE"), cl::init(""), cl::cat(SvCompCat));

static cl::opt<uint64_t>
    SeedOpt("seed", cl::desc("Seed for sampled nondeterministic inputs"),
            cl::init(1), cl::cat(ExploreCat));
static cl::opt<uint64_t> MaxExecOpt(
    "max-executions",
    cl::desc("Stop exploring after N executions (0: no limit; default "
             "100000)"),
    cl::init(100000), cl::cat(ExploreCat));
static cl::opt<uint64_t> MaxTransOpt(
    "max-transitions",
    cl::desc("Stop exploring after N scheduling points over all runs (0: no "
             "limit; default 20000000, in --engine=auto 4000000)"),
    cl::init(20'000'000), cl::cat(ExploreCat));
static cl::opt<uint64_t> MaxInstrOpt(
    "max-instructions",
    cl::desc("Stop exploring after N executed instructions over all runs, "
             "replays included (0: no limit; default none, in "
             "--engine=auto 300000000)"),
    cl::init(0), cl::cat(ExploreCat));
static cl::opt<unsigned>
    MaxDepthOpt("max-depth",
                cl::desc("Cut a run after N scheduling points (default 10000)"),
                cl::init(10000), cl::cat(ExploreCat));
static cl::opt<unsigned>
    MaxThreadsOpt("max-threads",
                  cl::desc("At most N threads per run (default 64)"),
                  cl::init(64), cl::cat(ExploreCat));
static cl::opt<unsigned>
    InputRoundsOpt("input-rounds",
                   cl::desc("Input vectors to sample when the program reads "
                            "nondeterministic inputs (default 16)"),
                   cl::init(16), cl::cat(ExploreCat));
static cl::opt<unsigned> EnumerateInputsOpt(
    "enumerate-inputs",
    cl::desc("Try every value of nondeterministic inputs of at most N bits "
             "(default 1: bool inputs; 8 adds char inputs); wider inputs are "
             "sampled"),
    cl::init(1), cl::cat(ExploreCat));
static cl::opt<bool> NoPdpOpt(
    "no-pdp",
    cl::desc("Turn off property-driven pruning (prune no backtrack point "
             "by the static lockset analysis)"),
    cl::cat(ExploreCat));
static cl::opt<bool> AllRacesOpt(
    "all-races",
    cl::desc("explore and kiss: keep looking for races after the first "
             "one (the default in --engine=auto, except with --sv-comp)"),
    cl::cat(ExploreCat));

static cl::opt<std::string> TraceOutOpt(
    "trace-out",
    cl::desc("Write the first confirmed race's interleaving to FILE "
             "(replay it with --replay)"),
    cl::value_desc("FILE"), cl::init(""), cl::cat(ExploreCat));
static cl::opt<std::string> ReplayOpt(
    "replay",
    cl::desc("Replay the interleaving in FILE (from --trace-out) on the "
             "program and report the race it ends in"),
    cl::value_desc("FILE"), cl::init(""), cl::cat(ExploreCat));

// Driver mode (kernel modules): docs/usage.md, "Drivers".
static cl::opt<bool> DriverModeOpt(
    "driver",
    cl::desc("The input is a Linux driver: link the kernel models, find its "
             "entry points and run each pair of them concurrently"),
    cl::cat(DriverModeCat));
static cl::opt<bool> LibraryOpt(
    "library",
    cl::desc("The input is a library: run its exported functions (or the "
             "--entry ones) concurrently from a harness; the default when no "
             "unit defines main"),
    cl::cat(DriverModeCat));
static cl::list<std::string> EntryOpt(
    "entry",
    cl::desc("Driver (or library) mode with these entry points "
             "(comma-separated) instead of the ones found in ops structures "
             "(the exported functions)"),
    cl::value_desc("f,g,..."), cl::CommaSeparated, cl::cat(DriverModeCat));
static cl::opt<bool> NoInitExitOrderOpt(
    "no-init-exit-order",
    cl::desc("Driver mode: init/probe and exit/remove may run concurrently "
             "with the other entry points"),
    cl::cat(DriverModeCat));
static cl::opt<bool>
    NoRtnlOpt("no-rtnl",
              cl::desc("Driver mode: RTNL-held callbacks are not serialised"),
              cl::cat(DriverModeCat));
static cl::opt<bool> NoIrqLockOpt(
    "no-irq-lock",
    cl::desc("Driver mode: local_irq_disable() sections do not exclude each "
             "other (no uniprocessor assumption)"),
    cl::cat(DriverModeCat));
static cl::opt<unsigned> EntryInstancesOpt(
    "entry-instances",
    cl::desc("Driver mode: threads per entry point (at least 2)"), cl::init(2),
    cl::cat(DriverModeCat));
static cl::opt<bool> ListEntryPointsOpt(
    "list-entry-points",
    cl::desc("Driver mode: print the entry points and the harness, then stop"),
    cl::cat(DriverModeCat));
static cl::list<std::string> NotConcurrentOpt(
    "not-concurrent",
    cl::desc("Driver mode: these pairs of entry points never run "
             "concurrently (f:g; f:f makes f non-reentrant)"),
    cl::value_desc("f:g,..."), cl::CommaSeparated, cl::cat(DriverModeCat));
static cl::opt<std::string> HarnessConfigOpt(
    "harness-config",
    cl::desc("Driver mode: read entry points and harness constraints from "
             "FILE (docs/usage.md, \"Drivers\")"),
    cl::value_desc("FILE"), cl::cat(DriverModeCat));
static cl::opt<std::string> HarnessFormOpt(
    "harness",
    cl::desc("Driver mode: 'threads' (threads per entry point), 'dispatch' "
             "(the KISS paper's: threads that each call one entry point "
             "chosen nondeterministically) or 'auto' (dispatch for kiss, "
             "threads otherwise)"),
    cl::init("auto"), cl::cat(DriverModeCat));
static cl::opt<bool> DistinctParamsOpt(
    "distinct-params",
    cl::desc("Driver mode: WHOOP's non-aliasing assumption, each entry-point "
             "call gets its own kernel objects behind its pointer parameters "
             "(not sound in general; printed)"),
    cl::cat(DriverModeCat));

static const char Overview[] =
    "crace: data-race checker for multithreaded C\n\n"
    "  crace [options] FILE.c... [-- compiler flags]\n"
    "  crace [options] -p BUILD_DIR [FILE.c...]\n"
    "  crace merge SHARD.json... [-o FILE] [--format=json|sarif|text]\n"
    "    (the JSON reports of --shard=1/N .. N/N as one report)\n\n"
    "Verdicts and exit codes: 0 race-free (proved, assumptions printed),\n"
    "1 race (confirmed), 2 possible race, 3 usage or input error,\n"
    "4 the input does not compile, 5 internal error, 6 unknown (a budget ran\n"
    "out or crace met what it cannot analyse; the reasons are printed).\n"
    "See docs/usage.md and docs/output.md.\n";

/// The option categories of crace, in --help order.
static std::vector<const cl::OptionCategory *> craceCategories() {
  return {&GeneralCat, &OutputCat, &BudgetCat,     &InputCat, &ExploreCat,
          &KissCat,    &WhoopCat,  &DriverModeCat, &SvCompCat};
}

int main(int argc, const char **argv) {
  InitLLVM X(argc, argv);
  // crace merge SHARD.json... (src/driver/Merge.cpp).
  if (argc > 1 && !std::strcmp(argv[1], "merge")) {
    auto Merge = crace::parseMergeArgs(ArrayRef(argv + 2, argv + argc), errs());
    return Merge ? crace::exitCodeOf(crace::runMerge(*Merge))
                 : int(crace::ExitUsage);
  }
  // Only the tool knows exit codes; a hard stop of the driver (a budget
  // exceeded where it cannot stop gracefully) leaves through this.
  crace::setHardStopExit(crace::exitNow);
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "crace version " CRACE_VERSION " (LLVM " LLVM_VERSION_STRING ")\n";
  });
  // --engine's values, from the registry.
  EngineOpt.getParser().addLiteralOption(
      crace::PortfolioName, EngineChoice::Auto,
      "the portfolio: lockset and whoop, then explore and kiss");
  const auto &Engines = crace::allEngines();
  for (size_t I = 0; I < Engines.size(); ++I)
    EngineOpt.getParser().addLiteralOption(Engines[I].Name, EngineChoice(I + 1),
                                           Engines[I].Description);
  // LLVM owns -stats; reuse it for crace's statistics.
  auto &Registered = cl::getRegisteredOptions();
  cl::Option *StatsOpt = Registered.lookup("stats");
  if (StatsOpt) {
    StatsOpt->setDescription("Print statistics (with the report)");
    StatsOpt->Categories.assign(1, &OutputCat);
    StatsOpt->setHiddenFlag(cl::NotHidden);
  }
  // ... and -color, for the report as for diagnostics.
  cl::Option *ColorOpt = Registered.lookup("color");
  if (ColorOpt)
    ColorOpt->Categories.assign(1, &OutputCat);
  cl::HideUnrelatedOptions(craceCategories());
#ifndef NDEBUG
  // LLVM_DEBUG output (docs/output.md) in a build without NDEBUG. A release
  // libLLVM, as Debian's, defines llvm::DebugFlag but registers no -debug or
  // -debug-only; crace then registers them itself.
  static std::optional<cl::opt<bool, true>> DebugOpt;
  static std::optional<cl::list<std::string>> DebugOnlyOpt;
  if (!Registered.count("debug")) {
    DebugOpt.emplace("debug", cl::desc("Print every LLVM_DEBUG line"),
                     cl::location(DebugFlag), cl::Hidden, cl::cat(OutputCat));
    DebugOnlyOpt.emplace(
        "debug-only", cl::CommaSeparated, cl::Hidden, cl::cat(OutputCat),
        cl::value_desc("types"),
        cl::desc("Print the LLVM_DEBUG lines of these DEBUG_TYPEs "
                 "(crace-frontend, crace-analysis, ...)"));
  }
#endif

  // LLVM's own -stats only complains in release builds: take it here.
  std::vector<const char *> Args;
  bool WantStats = false, HasDashDash = false;
  for (int I = 0; I < argc; ++I) {
    if (!HasDashDash &&
        (!std::strcmp(argv[I], "--stats") || !std::strcmp(argv[I], "-stats"))) {
      WantStats = true;
      continue;
    }
    HasDashDash |= I > 0 && !std::strcmp(argv[I], "--");
    Args.push_back(argv[I]);
  }
  // crace's STATISTIC counters (model/Counters.h) count in any case; this
  // also lists them where LLVM's own functions look (GetStatistics).
  if (WantStats)
    llvm::EnableStatistics(/*DoPrintOnExit=*/false);
  // The compiler flags after `--` (clang tooling's convention).
  int Argc = Args.size();
  std::string DashDashErr;
  std::unique_ptr<clang::tooling::CompilationDatabase> Db =
      clang::tooling::FixedCompilationDatabase::loadFromCommandLine(
          Argc, Args.data(), DashDashErr);
  if (!DashDashErr.empty()) {
    WithColor::error(errs(), "crace") << DashDashErr << "\n";
    return crace::ExitUsage;
  }
  std::string ParseErrors;
  raw_string_ostream ParseOS(ParseErrors);
  if (!cl::ParseCommandLineOptions(Argc, Args.data(), Overview, &ParseOS)) {
    printParseErrors(ParseErrors);
    return crace::ExitUsage;
  }
#ifndef NDEBUG
  if (DebugOnlyOpt && !DebugOnlyOpt->empty()) {
    std::vector<const char *> Types;
    for (const std::string &T : *DebugOnlyOpt)
      Types.push_back(T.c_str());
    DebugFlag = true;
    setCurrentDebugTypes(Types.data(), Types.size());
  }
#endif
  bool HasDb = BuildPathOpt.getNumOccurrences() > 0;
  const std::string &DbDir = BuildPathOpt;
  if (HasDb && HasDashDash) {
    WithColor::error(errs(), "crace")
        << "-p and '-- flags' exclude each other: the flags come from the "
           "database (add some with --extra-arg)\n";
    return crace::ExitUsage;
  }
  if (HasDb) {
    // Load it here so that a missing database is a clear usage error.
    // A malformed compile_commands.json is an input error: clang's loader
    // prints a parse error and may still return the entries it read.
    SmallString<256> DbFile(DbDir);
    sys::path::append(DbFile, "compile_commands.json");
    if (sys::fs::is_regular_file(DbFile)) {
      auto Buf = MemoryBuffer::getFile(DbFile);
      if (!Buf) {
        WithColor::error(errs(), "crace")
            << "cannot read '" << DbFile << "': " << Buf.getError().message()
            << "\n";
        return crace::ExitUsage;
      }
      auto Doc = json::parse((*Buf)->getBuffer());
      if (!Doc || !Doc->getAsArray()) {
        std::string Why = Doc ? "expected a JSON array of compile commands"
                              : toString(Doc.takeError());
        WithColor::error(errs(), "crace") << "malformed compilation database '"
                                          << DbFile << "': " << Why << "\n";
        return crace::ExitUsage;
      }
    }
    std::string Err;
    Db = clang::tooling::CompilationDatabase::autoDetectFromDirectory(DbDir,
                                                                      Err);
    if (!Db) {
      WithColor::error(errs(), "crace")
          << "cannot load a compilation database from '" << DbDir
          << "': " << Err << "\n";
      return crace::ExitUsage;
    }
  } else if (!Db) {
    // Without `--` or -p: compile with no extra flags rather than searching
    // for a compilation database next to the sources.
    Db = std::make_unique<clang::tooling::FixedCompilationDatabase>(
        ".", std::vector<std::string>());
  }
  auto Adjusted =
      std::make_unique<clang::tooling::ArgumentsAdjustingCompilations>(
          std::move(Db));
  Adjusted->appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      ExtraArgBeforeOpt, clang::tooling::ArgumentInsertPosition::BEGIN));
  Adjusted->appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      ExtraArgOpt, clang::tooling::ArgumentInsertPosition::END));
  crace::DriverOptions Opts;
  Opts.Frontend.Files = SourcesOpt;
  if (ProgramOpt.getNumOccurrences() && (!HasDb || !SourcesOpt.empty())) {
    WithColor::error(errs(), "crace")
        << "--program needs -p BUILD_DIR and no files\n";
    return crace::ExitUsage;
  }
  Opts.WholeDatabase = HasDb && Opts.Frontend.Files.empty();
  Opts.Program = ProgramOpt;
  if (Opts.Frontend.Files.empty() && HasDb)
    Opts.Frontend.Files = Adjusted->getAllFiles();
  if (Opts.Frontend.Files.empty()) {
    WithColor::error(errs(), "crace")
        << (HasDb ? "the compilation database of '" + DbDir + "' is empty"
                  : std::string("no input files (try 'crace --help')"))
        << "\n";
    return crace::ExitUsage;
  }
  if (HasDb)
    for (const std::string &F : Opts.Frontend.Files)
      if (Adjusted->getCompileCommands(F).empty()) {
        WithColor::error(errs(), "crace")
            << "'" << F << "' is not in the compilation database of '" << DbDir
            << "'\n";
        return crace::ExitUsage;
      }
  // Files named with -p: one compile command each (a file built for a
  // static and a shared library, or for several targets, has several).
  std::unique_ptr<crace::CommandListDatabase> OnePerFile;
  if (HasDb && !Opts.WholeDatabase) {
    OnePerFile = crace::oneCommandPerFile(*Adjusted, Opts.Frontend.Files);
    Opts.DatabaseFiles = Adjusted->getAllFiles();
  }
  Opts.Frontend.Database =
      OnePerFile ? static_cast<const clang::tooling::CompilationDatabase *>(
                       OnePerFile.get())
                 : Adjusted.get();
  if (Argv0Opt.getNumOccurrences() && !ArgsOpt.getNumOccurrences()) {
    WithColor::error(errs(), "crace") << "--argv0 needs --args\n";
    return crace::ExitUsage;
  }
  if (ArgsOpt.getNumOccurrences()) {
    Opts.Frontend.Inputs.FixedArgs = true;
    std::string Name = Argv0Opt.getNumOccurrences()
                           ? Argv0Opt.getValue()
                           : sys::path::stem(Opts.Frontend.Files.front()).str();
    Opts.Frontend.Inputs.Args.push_back(Name);
    BumpPtrAllocator A;
    StringSaver Saver(A);
    SmallVector<const char *, 8> Words;
    cl::TokenizeGNUCommandLine(ArgsOpt, Saver, Words);
    for (const char *W : Words)
      Opts.Frontend.Inputs.Args.push_back(W);
  }
  if (EnvOpt.getNumOccurrences()) {
    Opts.Frontend.Inputs.FixedEnv = true;
    for (const std::string &E : EnvOpt) {
      if (E.empty())
        continue;
      if (E.find('=') == std::string::npos || E.front() == '=') {
        WithColor::error(errs(), "crace")
            << "--env: '" << E << "' is not NAME=VALUE\n";
        return crace::ExitUsage;
      }
      Opts.Frontend.Inputs.Env.push_back(E);
    }
  }
  Opts.Frontend.DataModel = DataModelOpt == DataModelChoice::ILP32  ? "ILP32"
                            : DataModelOpt == DataModelChoice::LP64 ? "LP64"
                                                                    : "";
  Opts.Frontend.ShowWarnings = WarningsOpt;
  unsigned Jobs = JobsShortOpt.getNumOccurrences() ? JobsShortOpt : JobsOpt;
  Opts.Frontend.Jobs = Jobs ? Jobs : crace::defaultJobs();
  // Engine threads only when --jobs is given: Z3's counts can differ when
  // contexts work at once (bench/results/jobs-engines.md).
  Opts.EngineOpts.Jobs =
      (JobsShortOpt.getNumOccurrences() || JobsOpt.getNumOccurrences())
          ? Opts.Frontend.Jobs
          : 1;
  Opts.DatabaseJobs = Opts.Frontend.Jobs;
  // Each program of a database by a process of its own (--jobs above 1).
  Opts.SelfExe = sys::fs::getMainExecutable(argv[0], (void *)Overview);
  Opts.SelfArgs.assign(argv + 1, argv + argc);
  if (EngineOpt != EngineChoice::Auto)
    Opts.Engine = Engines[unsigned(EngineOpt.getValue()) - 1].Kind;
  Opts.DriverMode.Driver = DriverModeOpt;
  Opts.DriverMode.Library = LibraryOpt;
  Opts.DriverMode.Entries = EntryOpt;
  Opts.DriverMode.NoInitExitOrder = NoInitExitOrderOpt;
  Opts.DriverMode.NoRtnl = NoRtnlOpt;
  Opts.DriverMode.NoIrqLock = NoIrqLockOpt;
  Opts.DriverMode.EntryInstances = EntryInstancesOpt;
  Opts.DriverMode.ListEntryPoints = ListEntryPointsOpt;
  Opts.DriverMode.NotConcurrent = NotConcurrentOpt;
  Opts.DriverMode.HarnessConfig = HarnessConfigOpt;
  Opts.DriverMode.HarnessForm = HarnessFormOpt;
  Opts.DriverMode.HarnessFormGiven = HarnessFormOpt.getNumOccurrences() > 0;
  Opts.DriverMode.DistinctParams = DistinctParamsOpt;
  Opts.Format = FormatOpt;
  Opts.OutputFile = OutputOpt;
  if (ShardOpt.getNumOccurrences()) {
    auto [K, N] = StringRef(ShardOpt).split('/');
    unsigned Index = 0, Count = 0;
    if (K.getAsInteger(10, Index) || N.getAsInteger(10, Count) || !Index ||
        Index > Count) {
      WithColor::error(errs(), "crace")
          << "--shard: '" << ShardOpt
          << "' is not K/N with 1 <= K <= N (e.g. --shard=2/3)\n";
      return crace::ExitUsage;
    }
    if (ProgramOpt.getNumOccurrences()) {
      WithColor::error(errs(), "crace")
          << "--shard and --program exclude each other\n";
      return crace::ExitUsage;
    }
    Opts.Shard.Index = Index;
    Opts.Shard.Count = Count;
  }
  if (!NoCacheOpt)
    Opts.CacheDir = CacheDirOpt.getNumOccurrences() ? CacheDirOpt.getValue()
                    : HasDb ? crace::defaultCacheDir(DbDir)
                            : "";
  Opts.SuppressionsFile = SuppressionsOpt;
  Opts.BaselineFile = BaselineOpt;
  Opts.EmitLLVM = EmitLLVMOpt;
  if (!SmtLogOpt.empty()) {
    if (std::error_code EC = sys::fs::create_directories(SmtLogOpt)) {
      WithColor::error(errs(), "crace")
          << "--smt-log: cannot create directory '" << SmtLogOpt
          << "': " << EC.message() << "\n";
      return crace::ExitUsage;
    }
    Opts.EngineOpts.SmtLogDir = SmtLogOpt;
  }
  Opts.TimeoutSeconds = TimeoutOpt;
  Opts.TimeoutGiven = TimeoutOpt.getNumOccurrences() > 0;
  Opts.MemLimitMB = MemlimitOpt;
  Opts.MaxFindings = MaxFindingsOpt;
  Opts.Group = GroupOpt == GroupBy::Variable;
  Opts.Verify = VerifyOpt;
  Opts.Stats = WantStats;
  Opts.ProgressLines = ProgressOpt;
  Opts.EngineOpts.Seed = SeedOpt;
  Opts.EngineOpts.MaxExecutions = MaxExecOpt;
  Opts.EngineOpts.MaxDepth = MaxDepthOpt;
  Opts.EngineOpts.MaxPairs = MaxPairsOpt;
  Opts.EngineOpts.MaxTransitions = MaxTransOpt;
  Opts.EngineOpts.MaxTransitionsGiven = MaxTransOpt.getNumOccurrences() > 0;
  Opts.EngineOpts.MaxInstructions = MaxInstrOpt;
  Opts.EngineOpts.MaxInstructionsGiven = MaxInstrOpt.getNumOccurrences() > 0;
  Opts.EngineOpts.InputRounds = InputRoundsOpt;
  Opts.EngineOpts.EnumerateInputBits =
      std::min(32u, EnumerateInputsOpt.getValue());
  Opts.EngineOpts.Pdp = !NoPdpOpt;
  Opts.EngineOpts.MaxThreads = MaxThreadsOpt;
  // The portfolio confirms every race it can within its budgets; one
  // engine run alone stops at its first race unless asked (SV-COMP mode
  // always stops there: its witness is one race).
  Opts.EngineOpts.StopAtFirstRace = !AllRacesOpt && Opts.Engine.has_value();
  readSymbolicEngineFlags(Opts.EngineOpts);
  Opts.TraceOut = TraceOutOpt;
  Opts.ReplayFile = ReplayOpt;
  Opts.SvComp = SvCompOpt;
  Opts.PropertyFile = PropertyOpt;
  Opts.WitnessFile = WitnessOpt;
  cl::boolOrDefault Color = cl::BOU_UNSET;
  if (ColorOpt)
    Color = static_cast<cl::opt<cl::boolOrDefault> *>(ColorOpt)->getValue();
  Opts.Color = Color == cl::BOU_UNSET ? sys::Process::StandardOutHasColors()
                                      : Color == cl::BOU_TRUE;
  Opts.ExitCodeOf = crace::exitCodeOf;
  int Code = crace::exitCodeOf(crace::runCrace(Opts));
  // Leave without running destructors: Z3 contexts still being deleted in
  // the background (smt/Z3Reaper.h) would make exit wait for them.
  outs().flush();
  errs().flush();
  std::fflush(nullptr);
  ::_exit(Code);
}
