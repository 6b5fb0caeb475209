//===- UnitCompiler.h - translation units compiled, in parallel -----------===//
//
// Inside the frontend: one C translation unit compiled by clang tooling
// into bitcode (compileToBitcode), safe to run on several threads at once,
// and runInOrder, which runs such work on up to --jobs threads and hands
// the results over in unit order. Each unit is compiled in its own
// LLVMContext, with its own diagnostic printer (into a buffer), file
// system and compiler instance; the caller prints the diagnostics and
// parses the bitcode in unit order, so a run with --jobs N prints and
// builds exactly what --jobs 1 does (docs/usage.md, "--jobs").
//
//===----------------------------------------------------------------------===//
#pragma once

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ThreadPool.h"
#include <atomic>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace crace {

struct FrontendOptions;
class DiskCache;

/// How every unit of one build is compiled.
struct ClangSetup {
  /// crace's flags, appended to each command.
  std::vector<std::string> Flags;
  /// Virtual files (path, text): driver mode's headers and harnesses.
  std::vector<std::pair<std::string, std::string>> Mapped;
  /// File -> the harness compiled in its place (a mapped file including it).
  std::map<std::string, std::string> Harnesses;
  /// Show clang's warnings (errors are always shown).
  bool ShowWarnings = false;
  /// Keep the use-list order in the bitcode (the module parsed back then
  /// iterates its values' users as the one clang made).
  bool PreserveUseLists = false;
  /// --cache-dir: units are looked up here before clang runs, and stored
  /// after (not with virtual files: driver and library mode). Null: none.
  const DiskCache *Disk = nullptr;
  /// Without --data-model, on a 64-bit target: stop a unit's compile at
  /// its first call that passes a 32-bit size to an allocation function
  /// (DataModel.h); the driver compiles the program again as ILP32.
  bool StopAtThirtyTwoBitSizes = false;
  /// Compile into this context and hand the module over as it is
  /// (CompiledUnit::Built), without the bitcode round trip (mt-daapd: an
  /// eighth of the run went to writing and parsing it back). Only for a
  /// build of one unit, whose consumer does not use the context while
  /// clang runs, and without Disk (which stores bitcode).
  llvm::LLVMContext *Into = nullptr;
};

/// One unit compiled by compileToBitcode.
struct CompiledUnit {
  enum StatusKind {
    Compiled,        ///< Bitcode holds the module
    Failed,          ///< clang reported errors (in Diagnostics)
    Crashed,         ///< clang crashed
    SeveralCommands, ///< the database has several commands for the file
    ThirtyTwoBit,    ///< stopped: written for 32 bits (Evidence says why)
  };
  StatusKind Status = Failed;
  /// What clang printed for the unit (errors, and warnings with
  /// ShowWarnings), to be printed on stderr in unit order.
  std::string Diagnostics;
  /// The module's bitcode, and the identifier clang gave it.
  std::string Bitcode, ModuleId;
  /// With ClangSetup::Into: the module itself, in that context (Bitcode
  /// is empty).
  std::unique_ptr<llvm::Module> Built;
  /// Modules clang produced (one per compile command run).
  unsigned Modules = 0;
  /// Taken from the cache (ClangSetup::Disk): clang did not run.
  bool Reused = false;
  /// ThirtyTwoBit: the call that shows it (DataModel.h).
  std::string Evidence;
};

/// Compiles File with its command in Db and Setup's flags. Thread-safe:
/// everything it changes is its own. Inspect, when given, sees the module
/// before it is written (on the compiling thread). With Setup.Disk, a unit
/// whose key (crace, Setup's flags, the command, the file's contents) and
/// included files' contents are unchanged is read from the cache instead
/// (its diagnostics as clang printed them; Inspect sees the module read
/// back).
CompiledUnit
compileToBitcode(const std::string &File,
                 const clang::tooling::CompilationDatabase &Db,
                 const ClangSetup &Setup,
                 llvm::function_ref<void(llvm::Module &)> Inspect = nullptr);

/// Compiles one command as buildModule compiles each unit (crace's flags
/// added, no use-list order kept); thread-safe. Frontend.cpp.
CompiledUnit
compileCommand(const clang::tooling::CompileCommand &Command,
               const FrontendOptions &Opts,
               llvm::function_ref<void(llvm::Module &)> Inspect = nullptr);

/// What a unit's compile says: true when it compiled, false when clang
/// failed (its diagnostics say why), an InternalError when clang crashed,
/// a StringError when the database has several commands for File.
llvm::Expected<bool> unitOutcome(const CompiledUnit &U,
                                 const std::string &File);

/// --jobs: the number of threads compileToBitcode runs on when the option
/// says 0 (the machine's hardware threads).
unsigned defaultJobs();

/// P made absolute (relative to Dir when given and P is relative, else to
/// the working directory), with "." and ".." removed.
std::string absolutePath(llvm::StringRef P, llvm::StringRef Dir = {});

/// Runs Work(0), ..., Work(N-1) on up to Jobs threads (on the calling
/// thread when Jobs <= 1) and hands each result to Consume on the calling
/// thread, in index order, as soon as it and those before it are done.
/// When Consume returns false, no later result is consumed, and work not
/// yet started is not started.
template <class T, class WorkFn, class ConsumeFn>
void runInOrder(size_t N, unsigned Jobs, WorkFn Work, ConsumeFn Consume) {
  if (Jobs <= 1 || N <= 1) {
    for (size_t I = 0; I < N; ++I) {
      T R = Work(I);
      if (!Consume(I, R))
        return;
    }
    return;
  }
  std::vector<std::optional<T>> Results(N);
  std::atomic<size_t> StopAfter{N};
  llvm::DefaultThreadPool Pool(
      llvm::hardware_concurrency(unsigned(std::min<size_t>(Jobs, N))));
  std::vector<std::shared_future<void>> Done;
  Done.reserve(N);
  for (size_t I = 0; I < N; ++I)
    Done.push_back(Pool.async([&, I] {
      if (I <= StopAfter.load())
        Results[I].emplace(Work(I));
    }));
  for (size_t I = 0; I < N; ++I) {
    Done[I].wait();
    if (!Consume(I, *Results[I])) {
      StopAfter = I;
      break;
    }
  }
  Pool.wait();
}

} // namespace crace
