//===- Frontend.h - C sources to one llvm::Module ------------------------===//
//
// Compiles C translation units in-process with Clang 19 (clang::tooling),
// compiles the C environment models (models/, embedded in the binary) for the
// same target, links everything into one module, and cleans it up so that
// locals do not look like memory: the models are inlined, then SROA and
// mem2reg run. Debug info is kept so every access maps to file:line:col.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/EntryPoints.h"
#include "frontend/ProgramStart.h"
#include "model/Errors.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace crace {

class DiskCache;

/// Translation units compiled already (program discovery, Programs.h):
/// bitcode by absolute file path, for the data model they were compiled
/// for. buildModule loads a unit from here instead of compiling it again.
struct UnitCache {
  std::string DataModel;
  std::map<std::string, std::shared_ptr<const std::string>> Bitcode;
};

struct FrontendOptions {
  /// Source files to compile (at least one).
  std::vector<std::string> Files;
  /// Where compile flags come from (`--` flags or compile_commands.json).
  const clang::tooling::CompilationDatabase *Database = nullptr;
  /// "ILP32", "LP64" or empty (host default).
  std::string DataModel;
  /// Show clang's warnings (errors are always shown).
  bool ShowWarnings = false;
  /// Driver mode: Linux models, entry points and a harness main
  /// (EntryPoints.h). The module then carries named metadata
  /// "crace.assumptions", "crace.reasons" and "crace.harness" (strings).
  DriverHarnessOptions Driver;
  /// main's command line and environment (--args, --env); free by default.
  ProgramInputOptions Inputs;
  /// Units compiled already, or null.
  const UnitCache *Cache = nullptr;
  /// --jobs: translation units compiled at once (each on its own thread;
  /// the result does not depend on it). 1: one after the other.
  unsigned Jobs = 1;
  /// --cache-dir: translation units are reused from it when their
  /// command, contents and includes are unchanged (DiskCache.h). Null:
  /// no cache.
  const DiskCache *Disk = nullptr;
  /// Without DataModel: a unit that passes 32-bit sizes to an allocation
  /// function on a 64-bit target stops its compile, and buildModule fails
  /// with ThirtyTwoBitProgram (model/Errors.h) for the caller to compile
  /// the program again as ILP32 (frontend/DataModel.h).
  bool StopAtThirtyTwoBitSizes = false;
};

/// Builds the analysed module. Fails with CompileError when the sources do
/// not compile or link, with InternalError on a fault of crace's own (both
/// in model/Errors.h), with a StringError for other input problems.
llvm::Expected<std::unique_ptr<llvm::Module>>
buildModule(const FrontendOptions &Opts, llvm::LLVMContext &Ctx);

/// Compiles C that crace carries with it (kiss's runtime) as the models
/// are compiled: one unit named Name, for Like's target triple, freestanding,
/// -O0 without optnone, no debug info, then Args; the module is in Like's
/// context with Like's data layout. The driver hands it to the engines as
/// EngineOptions::CompileC (engines/Engine.h, CompileCFn).
llvm::Expected<std::unique_ptr<llvm::Module>>
compileEmbeddedC(llvm::StringRef Name, llvm::StringRef Source,
                 llvm::ArrayRef<std::string> Args, const llvm::Module &Like);

/// Name of the pseudo source file the models are compiled from.
inline constexpr const char *ModelFileName = "<crace-models>.c";
/// Same for the Linux models (driver mode).
inline constexpr const char *LinuxModelFileName = "<crace-linux-models>.c";
/// Virtual include directory of models/linux/include (driver mode).
inline constexpr const char *LinuxIncludeDir = "/crace-virtual/linux-include";

} // namespace crace
