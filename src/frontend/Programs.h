//===- Programs.h - the programs of a compilation database ----------------===//
//
// A build's compile_commands.json holds every program it builds (a
// library, its tools, its tests) and may compile a file more than once
// (static and shared objects, one object per CMake target). crace analyses
// one program at a time: a unit that defines main, the units of its CMake
// target, and the units defining what those call (symbol resolution, as a
// static link pulls objects from an archive), plus every unit of such a
// library that registers constructors or destructors. docs/usage.md,
// "Compilation databases".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "frontend/Frontend.h"
#include "clang/Tooling/CompilationDatabase.h"
#include <map>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace crace {

/// A compilation database of exactly these commands.
class CommandListDatabase : public clang::tooling::CompilationDatabase {
public:
  explicit CommandListDatabase(
      std::vector<clang::tooling::CompileCommand> Commands)
      : Commands(std::move(Commands)) {}
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef FilePath) const override;
  std::vector<std::string> getAllFiles() const override;
  std::vector<clang::tooling::CompileCommand>
  getAllCompileCommands() const override {
    return Commands;
  }

private:
  std::vector<clang::tooling::CompileCommand> Commands;
};

/// The CMake target a command builds an object for (its -o path has
/// CMakeFiles/<target>.dir/), or "".
std::string cmakeTarget(const clang::tooling::CompileCommand &C);

/// Db restricted to one command per file: of several, the first that does
/// not build a position-independent (shared-library) object, else the
/// first. Files are absolute paths.
std::unique_ptr<CommandListDatabase>
oneCommandPerFile(const clang::tooling::CompilationDatabase &Db,
                  const std::vector<std::string> &Files);

struct ProgramSpec {
  /// The CMake target, else main's file name without extension.
  std::string Name;
  std::string MainFile;
  /// One per file, main's first.
  std::vector<clang::tooling::CompileCommand> Commands;
  /// The compiled units (bitcode), for buildModule.
  UnitCache Cache;
  /// Functions and variables the program uses that no unit of it defines
  /// but a unit of the database outside it does: name -> that file.
  std::map<std::string, std::string> DefinedElsewhere;
};

struct DatabasePrograms {
  std::vector<ProgramSpec> Programs;
  /// How programs were formed (printed with every verdict).
  std::vector<std::string> Assumptions;
  /// Units that did not compile, or are not C.
  std::vector<std::string> Skipped;
  size_t Units = 0;
};

/// Compiles every unit of Db once (with Base's data model and flags) and
/// forms its programs. Progress, when given, gets a line per 10 units.
llvm::Expected<DatabasePrograms>
findPrograms(const clang::tooling::CompilationDatabase &Db,
             const FrontendOptions &Base, llvm::raw_ostream *Progress);

} // namespace crace
