//===- Programs.cpp - the programs of a compilation database --------------===//
#include "frontend/Programs.h"
#include "frontend/UnitCompiler.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <set>

using namespace llvm;
using clang::tooling::CompileCommand;

namespace crace {

namespace {

std::string absoluteFile(const CompileCommand &C) {
  SmallString<256> P(C.Filename);
  if (!sys::path::is_absolute(P)) {
    P = C.Directory;
    sys::path::append(P, C.Filename);
  }
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

/// The object a command writes (-o), or "".
std::string outputOf(const CompileCommand &C) {
  if (!C.Output.empty())
    return C.Output;
  const auto &Args = C.CommandLine;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "-o" && I + 1 < Args.size())
      return Args[I + 1];
    if (StringRef(Args[I]).starts_with("-o") && Args[I].size() > 2)
      return Args[I].substr(2);
  }
  return "";
}

/// Builds a position-independent object for a shared library.
bool isSharedObject(const CompileCommand &C) {
  for (const std::string &A : C.CommandLine)
    if (A == "-fPIC" || A == "-fpic" || A == "-DPIC")
      return true;
  return StringRef(outputOf(C)).contains("/.libs/"); // libtool
}

/// The command without its output and input paths: two commands with the
/// same key compile a file the same way.
std::string commandKey(const CompileCommand &C) {
  std::string Key = absoluteFile(C);
  const auto &Args = C.CommandLine;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if ((A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ") &&
        I + 1 < Args.size()) {
      ++I;
      continue;
    }
    if (A == C.Filename || A.starts_with("-o"))
      continue;
    Key += '\0';
    Key += A;
  }
  return Key;
}

bool isC(StringRef File) {
  StringRef Ext = sys::path::extension(File);
  return Ext == ".c" || Ext == ".i";
}

struct Unit {
  CompileCommand Cmd;
  std::string File, Target;
  bool Main = false, Ctors = false, Shared = false;
  std::set<std::string> Defines, Uses;
  std::shared_ptr<const std::string> Bitcode;
};

void readSymbols(Module &M, Unit &U) {
  for (Function &F : M) {
    if (F.isIntrinsic())
      continue;
    if (!F.isDeclaration()) {
      if (!F.hasLocalLinkage())
        U.Defines.insert(F.getName().str());
      U.Main |= F.getName() == "main" && !F.hasLocalLinkage();
    } else if (!F.use_empty()) {
      U.Uses.insert(F.getName().str());
    }
  }
  for (GlobalVariable &G : M.globals()) {
    if (G.getName() == "llvm.global_ctors" ||
        G.getName() == "llvm.global_dtors") {
      if (G.hasInitializer() && !G.getInitializer()->isNullValue())
        U.Ctors = true;
      continue;
    }
    if (G.getName().starts_with("llvm."))
      continue;
    if (!G.isDeclaration()) {
      if (!G.hasLocalLinkage())
        U.Defines.insert(G.getName().str());
    } else if (!G.use_empty()) {
      U.Uses.insert(G.getName().str());
    }
  }
}

} // namespace

std::vector<CompileCommand>
CommandListDatabase::getCompileCommands(StringRef FilePath) const {
  SmallString<256> Want(FilePath);
  sys::fs::make_absolute(Want);
  sys::path::remove_dots(Want, true);
  std::vector<CompileCommand> Out;
  for (const CompileCommand &C : Commands)
    if (absoluteFile(C) == Want)
      Out.push_back(C);
  return Out;
}

std::vector<std::string> CommandListDatabase::getAllFiles() const {
  std::vector<std::string> Files;
  for (const CompileCommand &C : Commands)
    Files.push_back(absoluteFile(C));
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

std::string cmakeTarget(const CompileCommand &C) {
  std::string Output = outputOf(C);
  StringRef Out = Output;
  size_t At = Out.rfind("CMakeFiles/");
  if (At == StringRef::npos)
    return "";
  StringRef Rest = Out.drop_front(At + strlen("CMakeFiles/"));
  size_t Dir = Rest.find(".dir/");
  return Dir == StringRef::npos ? "" : Rest.take_front(Dir).str();
}

std::unique_ptr<CommandListDatabase>
oneCommandPerFile(const clang::tooling::CompilationDatabase &Db,
                  const std::vector<std::string> &Files) {
  std::vector<CompileCommand> Chosen;
  for (const std::string &F : Files) {
    // By absolute path, as ClangTool looks files up: clang's JSON database
    // answers a relative path with a command for that path relative to
    // its directory, not to ours.
    std::vector<CompileCommand> Cs = Db.getCompileCommands(absolutePath(F));
    if (Cs.empty())
      continue;
    auto It = llvm::find_if(
        Cs, [](const CompileCommand &C) { return !isSharedObject(C); });
    Chosen.push_back(It != Cs.end() ? *It : Cs.front());
  }
  return std::make_unique<CommandListDatabase>(std::move(Chosen));
}

Expected<DatabasePrograms>
findPrograms(const clang::tooling::CompilationDatabase &Db,
             const FrontendOptions &Base, raw_ostream *Progress) {
  DatabasePrograms Out;
  std::vector<Unit> Units;
  std::set<std::string> Seen;
  for (const CompileCommand &C : Db.getAllCompileCommands()) {
    std::string File = absoluteFile(C);
    if (!isC(File)) {
      Out.Skipped.push_back(File + " (not C)");
      continue;
    }
    if (!Seen.insert(cmakeTarget(C) + '\0' + commandKey(C)).second)
      continue; // the same command twice
    Unit U;
    U.Cmd = C;
    U.File = File;
    U.Target = cmakeTarget(C);
    U.Shared = isSharedObject(C);
    Units.push_back(std::move(U));
  }
  // Compile each unit once, on up to Base.Jobs threads; keep its symbols
  // and its bitcode. Diagnostics and progress are printed in unit order.
  std::vector<Unit> Compiled;
  std::optional<Error> Err;
  runInOrder<CompiledUnit>(
      Units.size(), Base.Jobs,
      [&](size_t I) {
        return compileCommand(Units[I].Cmd, Base, [&U = Units[I]](Module &M) {
          readSymbols(M, U);
        });
      },
      [&](size_t I, CompiledUnit &C) {
        if (Progress && (I % 10 == 0 || I + 1 == Units.size()))
          *Progress << "crace: compiling the database's units: " << I + 1 << "/"
                    << Units.size() << "\n";
        errs() << C.Diagnostics;
        Unit &U = Units[I];
        auto Ok = unitOutcome(C, U.Cmd.Filename);
        if (!Ok) {
          // crace's own fault ends the search.
          Error E = Ok.takeError();
          if (E.isA<InternalError>()) {
            Err.emplace(std::move(E));
            return false;
          }
          consumeError(std::move(E));
        }
        if (!Ok || !*Ok) {
          // A unit that does not compile is left out.
          Out.Skipped.push_back(U.File + " (does not compile)");
          return true;
        }
        U.Bitcode = std::make_shared<const std::string>(std::move(C.Bitcode));
        Compiled.push_back(std::move(U));
        return true;
      });
  if (Err)
    return std::move(*Err);
  Units = std::move(Compiled);
  Out.Units = Units.size();
  llvm::stable_sort(Units, [](const Unit &A, const Unit &B) {
    return std::tie(A.Shared, A.Target, A.File) <
           std::tie(B.Shared, B.Target, B.File);
  });

  std::set<std::string> ExecTargets;
  std::vector<size_t> Mains;
  for (size_t I = 0; I < Units.size(); ++I)
    if (Units[I].Main) {
      Mains.push_back(I);
      if (!Units[I].Target.empty())
        ExecTargets.insert(Units[I].Target);
    }
  bool WholeDatabase = Mains.size() == 1 && Units[Mains[0]].Target.empty();
  if (WholeDatabase)
    Out.Assumptions.push_back(
        "the program is every C unit of the compilation database (one "
        "defines main)");
  else if (!Mains.empty())
    Out.Assumptions.push_back(
        "the compilation database holds several programs; each is a unit "
        "defining main, the other units of its CMake target, and the units "
        "that define what they use, found by name as a static link finds "
        "them (with their library's units that register constructors); a "
        "unit linked otherwise (a plugin loaded at run time) is not part of "
        "it");

  std::map<std::string, unsigned> NameCount;
  for (size_t MI : Mains) {
    const Unit &M = Units[MI];
    ProgramSpec P;
    P.Name = M.Target.empty() ? sys::path::stem(M.File).str() : M.Target;
    if (unsigned N = ++NameCount[P.Name]; N > 1)
      P.Name += "#" + std::to_string(N);
    P.MainFile = M.File;
    std::vector<size_t> Members;
    std::set<std::string> Files, Defined;
    auto Add = [&](size_t I) {
      if (!Files.insert(Units[I].File).second)
        return false;
      Members.push_back(I);
      Defined.insert(Units[I].Defines.begin(), Units[I].Defines.end());
      return true;
    };
    Add(MI);
    for (size_t I = 0; I < Units.size(); ++I)
      if (!Units[I].Main &&
          (WholeDatabase || (!M.Target.empty() && Units[I].Target == M.Target)))
        Add(I);
    // Symbol resolution over the units of libraries (targets without
    // main) and of no target.
    std::set<std::string> Libraries;
    for (size_t Next = 0; Next < Members.size(); ++Next) {
      std::set<std::string> Uses = Units[Members[Next]].Uses;
      for (const std::string &Sym : Uses) {
        if (Defined.count(Sym))
          continue;
        std::optional<size_t> Pick;
        for (size_t I = 0; I < Units.size() && !Pick; ++I) {
          const Unit &U = Units[I];
          if (U.Main || ExecTargets.count(U.Target) || Files.count(U.File) ||
              !U.Defines.count(Sym))
            continue;
          Pick = I;
        }
        if (!Pick) {
          for (const Unit &U : Units)
            if (U.Defines.count(Sym) && !Files.count(U.File)) {
              P.DefinedElsewhere.emplace(Sym, U.File);
              break;
            }
          continue;
        }
        Add(*Pick);
        const std::string &Lib = Units[*Pick].Target;
        if (!Lib.empty() && Libraries.insert(Lib).second)
          for (size_t I = 0; I < Units.size(); ++I)
            if (Units[I].Target == Lib && Units[I].Ctors)
              Add(I);
      }
    }
    llvm::sort(
        std::next(Members.begin()), Members.end(),
        [&](size_t A, size_t B) { return Units[A].File < Units[B].File; });
    P.Cache.DataModel = Base.DataModel;
    for (size_t I : Members) {
      P.Commands.push_back(Units[I].Cmd);
      P.Cache.Bitcode[Units[I].File] = Units[I].Bitcode;
    }
    Out.Programs.push_back(std::move(P));
  }
  return Out;
}

} // namespace crace
