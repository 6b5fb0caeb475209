//===- ResultCache.h - a program's analysis result, cached ----------------===//
//
// Private to driver/: the key of a program's analysis result in the cache
// (--cache-dir, frontend/DiskCache.h) and the result written to and read
// from an entry. The key is the analysed module (its bitcode, use-list
// order included), crace's build, and every option the analysis or the
// kept result depends on; docs/usage.md, "The cache", says which results
// are not stored.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "driver/Driver.h"
#include "driver/Watchdog.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace crace::driver {

/// The key of M's result under Opts, the portfolio's work budgets
/// (Budgets) and Engine (the engine that runs, or nullopt: the
/// portfolio); "" when the run is not cached (--replay, or options that
/// write files of their own or depend on the clock).
std::string resultKey(const llvm::Module &M, const DriverOptions &Opts,
                      std::optional<EngineKind> Engine,
                      llvm::StringRef Budgets);

/// R as an entry, and back (nothing when Text is not one). Everything the
/// writers print is kept; the static engines' candidate pairs (pointers
/// into the module) are not.
std::string saveResult(const Result &R);
std::optional<Result> loadResult(llvm::StringRef Text);

/// One program's run with the cache (DriverOptions::Frontend.Disk):
/// looks its result up once the module is built, stores it after the
/// analysis, and adds the cache's statistics. Without a cache it only
/// keeps the counters (--stats) of the front end apart from those of the
/// analysis, as a reused result brings its analysis's counters along.
class ResultCacheRun {
public:
  ResultCacheRun(const DriverOptions &Opts, const llvm::Module &M,
                 std::optional<EngineKind> Engine, const Watchdog &Dog);
  /// The result reused, if it was.
  std::optional<Result> &reused() { return Reused; }
  /// Before the analysis.
  void beginAnalysis();
  /// After it (and after suppressions and --baseline): stores R unless
  /// the run's limit (Cancelled) or a wall-clock limit cut the analysis.
  void endAnalysis(Result &R, bool Cancelled);
  /// At the end: R's counters, and the statistics cache_result_reused
  /// and, with Units, cache_units_reused and cache_units_compiled.
  void finish(Result &R, bool Units);

private:
  const DriverOptions &Opts;
  std::string Key;
  unsigned CutsBefore = 0;
  std::optional<Result> Reused;
  std::vector<Counter> FrontCounters;
};

/// "crace: cache: 28 of 29 units reused, analysis result reused" for
/// stderr (text reports), from what Disk counted.
std::string cacheNote(const DiskCache &Disk);

} // namespace crace::driver
