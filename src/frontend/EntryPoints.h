//===- EntryPoints.h - driver entry points and the harness that runs them -===//
//
// Driver mode (crace --driver, or --entry=f,g): a kernel driver has no
// main. Its entry points are found by walking the Clang AST of its global
// initialisers (ops structures, OpsTable.def), of registration calls
// (request_irq) and of callback assignments (timer.function = f), or are
// given with --entry. A harness main, generated as C and compiled together
// with the driver (its statics stay visible), then
//   1. creates the kernel objects entry points receive (one per pointee
//      type, with their pointer fields pointing to the objects of the
//      fields' types),
//   2. calls the init entry points (module_init, probe) in order,
//   3. starts every other entry point in a loop of N >= 2 threads, so each
//      one also runs concurrently with itself (RTNL-held callbacks inside
//      the RTNL lock),
//   4. joins them all, and calls the exit entry points (remove,
//      module_exit).
// The lockset engine (or any engine) then checks every pair of entry points
// as ordinary threads. Every constraint and modelling choice is returned as
// a printed assumption.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
} // namespace clang::tooling

namespace crace {

/// Driver mode settings (FrontendOptions::Driver).
struct DriverHarnessOptions {
  /// Driver mode on: link the Linux models, find entry points, add a harness.
  bool Enabled = false;
  /// Library mode (--library, or a program without main): the same harness
  /// over a user-space library's exported functions (every function with
  /// external linkage defined in an input file, unless --entry names
  /// them); no Linux models, headers or kernel-specific entry points.
  bool Library = false;
  /// Library mode: this unit's number (set by the front end per unit); its
  /// harness defines __crace_library_start_<N>/__crace_library_join_<N>,
  /// which the main the front end writes calls for every unit.
  unsigned LibraryUnit = 0;
  /// --entry: these functions are the (ordinary) entry points instead of the
  /// ones found in ops structures; init/exit are still found.
  std::vector<std::string> Entries;
  /// Harness constraint: init/probe run before, exit/remove after the rest.
  bool InitExitOrder = true;
  /// Harness constraint: RTNL-held callbacks are serialised.
  bool RtnlSerialised = true;
  /// Model: local_irq_disable() sections exclude each other (uniprocessor).
  bool IrqLock = true;
  /// Threads per entry point (>= 2: each also races with itself); with
  /// Dispatch, the number of dispatcher threads.
  unsigned Instances = 2;
  /// Harness constraint (--not-concurrent, --harness-config): these pairs of
  /// entry points never run concurrently (a harness lock per pair; f:f makes
  /// f non-reentrant).
  std::vector<std::pair<std::string, std::string>> NotConcurrent;
  /// The KISS paper's harness: Instances threads, each calling one entry
  /// point chosen nondeterministically, instead of threads per entry point.
  bool Dispatch = false;
  /// WHOOP's non-aliasing assumption (--distinct-params, off by default):
  /// each entry-point call gets fresh kernel objects behind its pointer
  /// parameters instead of the ones shared by every entry point.
  bool DistinctParams = false;
};

enum class EntryRole { Init, Entry, Exit };

struct EntryPoint {
  std::string Function;
  EntryRole Role = EntryRole::Entry;
  /// Serialisation group ("rtnl") or empty.
  std::string Group;
  /// Where it was found: "file_operations.read in 'nvram_fops'", ...
  std::vector<std::string> Origins;
};

/// What the AST walk found in one translation unit, and the harness.
struct DriverHarness {
  std::vector<EntryPoint> Entries;
  /// Entry points with no body in the driver (kernel functions such as
  /// no_llseek in an ops structure): the harness calls them anyway, so
  /// crace's model runs or they are reported as unknown external functions.
  std::vector<std::string> Skipped;
  /// C source appended to the translation unit (defines main).
  std::string Text;
  /// Printed with a race-free verdict.
  std::vector<std::string> Assumptions;
  /// Reasons no race-freedom claim is possible (empty: none).
  std::vector<std::string> Reasons;
  /// Human-readable description (--list-entry-points).
  std::vector<std::string> Listing;
};

/// Parses File with the database's flags plus ExtraFlags (with the virtual
/// files Mapped available) and builds its harness. A TU with no entry
/// point yields an empty Entries list and no Text.
llvm::Expected<DriverHarness> buildDriverHarness(
    const std::string &File, const clang::tooling::CompilationDatabase &Db,
    const std::vector<std::string> &ExtraFlags,
    const std::vector<std::pair<std::string, std::string>> &Mapped,
    const DriverHarnessOptions &Opts);

} // namespace crace
