//===- Frontend.cpp - C sources to one llvm::Module -----------------------===//
#include "frontend/Frontend.h"
#include "frontend/AsmLowering.h"
#include "frontend/EmbeddedC.h"
#include "frontend/HeapCloning.h"
#include "frontend/IRPreparation.h"
#include "frontend/LibcLowering.h"
#include "frontend/ProgramStart.h"
#include "frontend/Programs.h"
#include "model/Counters.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/Scalar/JumpThreading.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Mem2Reg.h"
#include <functional>
#include <map>
#include <set>

#define DEBUG_TYPE "crace-frontend"
using namespace llvm;
CRACE_STATISTIC(NumUnitsCompiled, "Program units clang compiled");

namespace crace {

namespace {

/// Collects the functions whose declaration is in a system header: library
/// code, which cannot name the program's globals (PointsTo::computeEscaped
/// reads them as "crace.library_functions"; a program's own definition of
/// such a name drops out, as it is no longer a declaration).
class LibraryDeclCollector : public clang::ASTConsumer {
public:
  LibraryDeclCollector(const clang::SourceManager &SM,
                       std::vector<std::string> &Out,
                       std::vector<std::string> &NoSanitize)
      : SM(SM), Out(Out), NoSanitize(NoSanitize) {}
  bool HandleTopLevelDecl(clang::DeclGroupRef G) override {
    for (const clang::Decl *D : G) {
      const auto *FD = dyn_cast<clang::FunctionDecl>(D);
      if (!FD || !FD->getDeclName().isIdentifier())
        continue;
      if (SM.isInSystemHeader(FD->getLocation()))
        Out.push_back(FD->getName().str());
      // __attribute__((no_sanitize("thread"))) (and no_sanitize_thread):
      // ThreadSanitizer does not check the function's accesses; crace
      // does not report races with them (report/Suppressions.h).
      for (const auto *A : FD->specific_attrs<clang::NoSanitizeAttr>())
        for (StringRef San : A->sanitizers())
          if (San == "thread")
            NoSanitize.push_back(FD->getName().str());
    }
    return true;
  }

private:
  const clang::SourceManager &SM;
  std::vector<std::string> &Out;
  std::vector<std::string> &NoSanitize;
};

/// An EmitLLVMOnlyAction that hands its module to a sink when it is done,
/// naming the library functions it calls ("crace.library_functions").
class CaptureModuleAction : public clang::EmitLLVMOnlyAction {
public:
  CaptureModuleAction(LLVMContext &Ctx,
                      std::vector<std::unique_ptr<Module>> &Sink)
      : clang::EmitLLVMOnlyAction(&Ctx), Sink(Sink) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef InFile) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> Cs;
    Cs.push_back(clang::EmitLLVMOnlyAction::CreateASTConsumer(CI, InFile));
    if (!Cs.back())
      return nullptr;
    Cs.push_back(std::make_unique<LibraryDeclCollector>(CI.getSourceManager(),
                                                        Library, NoSanitize));
    return std::make_unique<clang::MultiplexConsumer>(std::move(Cs));
  }

  void EndSourceFileAction() override {
    clang::EmitLLVMOnlyAction::EndSourceFileAction();
    auto M = takeModule();
    if (!M)
      return;
    NamedMDNode *N = M->getOrInsertNamedMetadata("crace.library_functions");
    for (const std::string &Name : Library)
      if (const Function *F = M->getFunction(Name); F && F->isDeclaration())
        N->addOperand(
            MDNode::get(M->getContext(), MDString::get(M->getContext(), Name)));
    NamedMDNode *NS = M->getOrInsertNamedMetadata("crace.no_sanitize_thread");
    for (const std::string &Name : NoSanitize)
      NS->addOperand(
          MDNode::get(M->getContext(), MDString::get(M->getContext(), Name)));
    Sink.push_back(std::move(M));
  }

private:
  std::vector<std::unique_ptr<Module>> &Sink;
  std::vector<std::string> Library, NoSanitize;
};

class CaptureFactory : public clang::tooling::FrontendActionFactory {
public:
  CaptureFactory(LLVMContext &Ctx, std::vector<std::unique_ptr<Module>> &Sink)
      : Ctx(Ctx), Sink(Sink) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<CaptureModuleAction>(Ctx, Sink);
  }

private:
  LLVMContext &Ctx;
  std::vector<std::unique_ptr<Module>> &Sink;
};

} // namespace

std::unique_ptr<clang::FrontendAction>
captureModuleAction(LLVMContext &Ctx,
                    std::vector<std::unique_ptr<Module>> &Sink) {
  return std::make_unique<CaptureModuleAction>(Ctx, Sink);
}

namespace {

std::vector<std::string> commonFlags(bool Warnings) {
  std::vector<std::string> Flags = {
      // -O1 without LLVM passes: clang then emits the bodies of C99 inline
      // functions (as available_externally), which -O0 leaves undefined.
      "-O1", "-Xclang", "-disable-llvm-passes", "-U__OPTIMIZE__",
      "-fno-discard-value-names", "-resource-dir=" CRACE_CLANG_RESOURCE_DIR,
      // Old C that gcc accepts with a warning should not stop the analysis.
      "-Wno-error=implicit-function-declaration", "-Wno-error=int-conversion",
      "-Wno-error=incompatible-function-pointer-types",
      "-Wno-error=incompatible-pointer-types", "-Wno-error=return-type",
      "-Wno-error=implicit-int", "-Wno-error=main",
      // GCC >= 11's glibc headers, kept in GCC-preprocessed (CIL-combined)
      // files, write __attribute__((__malloc__(deallocator, index))),
      // which clang rejects; the deallocator is of no use to crace.
      "-D__malloc__(...)=__malloc__"};
  // Warnings are filtered by ErrorsOnlyPrinter rather than by -w: with -w,
  // clang turns downgraded default-error warnings back into errors.
  (void)Warnings;
  return Flags;
}

/// Prints errors (and the notes attached to them), drops warnings.
class ErrorsOnlyPrinter : public clang::TextDiagnosticPrinter {
public:
  ErrorsOnlyPrinter(clang::DiagnosticOptions *Opts)
      : clang::TextDiagnosticPrinter(llvm::errs(), Opts) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    if (Level >= clang::DiagnosticsEngine::Error)
      ShowNotes = true;
    else if (Level != clang::DiagnosticsEngine::Note)
      ShowNotes = false;
    if (Level >= clang::DiagnosticsEngine::Error ||
        (Level == clang::DiagnosticsEngine::Note && ShowNotes))
      clang::TextDiagnosticPrinter::HandleDiagnostic(Level, Info);
    // Dropped warnings are not counted either ("N warnings generated").
  }

private:
  bool ShowNotes = false;
};

std::string targetFlag(StringRef DataModel) {
  if (DataModel == "ILP32")
    return "--target=i386-pc-linux-gnu";
  if (DataModel == "LP64")
    return "--target=x86_64-pc-linux-gnu";
  return "";
}

std::string absolutePath(StringRef P) {
  SmallString<256> A(P);
  sys::fs::make_absolute(A);
  sys::path::remove_dots(A, /*remove_dot_dot=*/true);
  return A.str().str();
}

/// WHOOP's kernel headers define some kernel functions (mutex_lock with
/// Boogie code, kmalloc, readl, atomic_read, ...). Where crace has its own
/// model, the header's body goes and the model is linked in its place; a
/// definition in one of the input files themselves stays.
void dropHeaderBodies(Module &M, const StringSet<> &Modelled,
                      const std::set<std::string> &Inputs) {
  for (Function &F : M) {
    if (F.isDeclaration() || !Modelled.count(F.getName()))
      continue;
    if (DISubprogram *SP = F.getSubprogram()) {
      SmallString<256> Path(SP->getFilename());
      if (!sys::path::is_absolute(Path) && !SP->getDirectory().empty()) {
        Path = SP->getDirectory();
        sys::path::append(Path, SP->getFilename());
      }
      if (Inputs.count(absolutePath(Path)))
        continue;
    }
    F.deleteBody();
    F.setLinkage(GlobalValue::ExternalLinkage);
    F.setVisibility(GlobalValue::DefaultVisibility);
    F.setComdat(nullptr);
  }
}

/// Records the errors LLVM reports while linking (a symbol defined twice).
/// LLVM's default handler prints them and calls exit(1), which is crace's
/// exit code for a confirmed race.
struct RecordingDiagnostics : public DiagnosticHandler {
  std::vector<std::string> Errors;
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error)
      return false; // the default handling (printed) for the others
    std::string Msg;
    raw_string_ostream OS(Msg);
    DiagnosticPrinterRawOStream DP(OS);
    DI.print(DP);
    Errors.push_back(Msg);
    return true;
  }
};

/// Installs RecordingDiagnostics on Ctx for a scope.
class ScopedLinkDiagnostics {
public:
  explicit ScopedLinkDiagnostics(LLVMContext &Ctx)
      : Ctx(Ctx), Old(Ctx.getDiagnosticHandler()) {
    auto H = std::make_unique<RecordingDiagnostics>();
    Rec = H.get();
    Ctx.setDiagnosticHandler(std::move(H));
  }
  ~ScopedLinkDiagnostics() { Ctx.setDiagnosticHandler(std::move(Old)); }
  const std::vector<std::string> &errors() const { return Rec->Errors; }

private:
  LLVMContext &Ctx;
  std::unique_ptr<DiagnosticHandler> Old;
  RecordingDiagnostics *Rec;
};

/// The external symbols a unit defines (what a link may find twice).
void noteDefinitions(const Module &M, const std::string &File,
                     std::map<std::string, std::string> &DefinedIn) {
  for (const GlobalValue &G : M.global_values())
    if (!G.isDeclaration() && G.hasExternalLinkage() && G.hasName())
      DefinedIn.emplace(G.getName().str(), File);
}

/// What a failed link reports (": ..."): the symbol defined twice and the
/// units defining it, else LLVM's errors.
std::string linkDetail(const std::vector<std::string> &Errors,
                       const std::map<std::string, std::string> &DefinedIn,
                       const std::string &File) {
  std::string Msg;
  for (const std::string &E : Errors) {
    StringRef S(E);
    size_t At = S.find("named '");
    if (At != StringRef::npos && S.contains("multiply defined")) {
      StringRef Name = S.substr(At + 7).split('\'').first;
      auto It = DefinedIn.find(Name.str());
      Msg += ": '" + Name.str() + "' is defined more than once";
      if (It != DefinedIn.end() && !File.empty())
        Msg += " ('" + It->second + "' and '" + File + "')";
      return Msg;
    }
  }
  for (const std::string &E : Errors)
    Msg += ": " + E;
  return Msg;
}

/// Stack of the thread clang compiles on: clang recurses over the syntax
/// tree, and deep expressions (a sum of 60,000 terms) overflow the 8 MB of
/// the main thread; clang's own tools also compile on a large-stack thread.
constexpr unsigned ClangStackBytes = 512u << 20;

/// Compiles File with its command in Db and Flags appended; the module goes
/// to Units. False when clang failed (it printed the diagnostics); an
/// error when clang crashed or the database has several commands for the
/// file. A file in Harnesses is compiled as its harness (a mapped file
/// that includes it).
Expected<bool>
runClang(const std::string &File, const clang::tooling::CompilationDatabase &Db,
         const std::vector<std::string> &Flags,
         const std::vector<std::pair<std::string, std::string>> &Mapped,
         const std::map<std::string, std::string> &Harnesses, bool ShowWarnings,
         clang::DiagnosticConsumer &Quiet, LLVMContext &Ctx,
         std::vector<std::unique_ptr<Module>> &Units) {
  clang::tooling::ClangTool Tool(Db, {File});
  Tool.clearArgumentsAdjusters();
  Tool.appendArgumentsAdjuster(clang::tooling::getClangStripOutputAdjuster());
  Tool.appendArgumentsAdjuster(
      clang::tooling::getClangStripDependencyFileAdjuster());
  Tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      Flags, clang::tooling::ArgumentInsertPosition::END));
  for (const auto &[Path, Text] : Mapped)
    Tool.mapVirtualFile(Path, Text);
  if (auto H = Harnesses.find(File); H != Harnesses.end()) {
    // Compile the harness, which includes the driver, in its place.
    std::string Abs = absolutePath(File), Virtual = H->second;
    Tool.appendArgumentsAdjuster(
        [Abs, File, Virtual](const clang::tooling::CommandLineArguments &Args,
                             StringRef) {
          clang::tooling::CommandLineArguments R = Args;
          for (std::string &A : R)
            if (A == File || A == Abs || absolutePath(A) == Abs)
              A = Virtual;
          return R;
        });
  }
  Tool.setPrintErrorMessage(false);
  if (!ShowWarnings)
    Tool.setDiagnosticConsumer(&Quiet);
  size_t Before = Units.size();
  CaptureFactory Factory(Ctx, Units);
  // A crash in clang is recovered from and reported (never a signal
  // that would look like a verdict).
  int Status = 1;
  CrashRecoveryContext::Enable();
  CrashRecoveryContext CRC;
  if (!CRC.RunSafelyOnThread([&] { Status = Tool.run(&Factory); },
                             ClangStackBytes))
    return make_error<InternalError>("clang crashed while compiling '" + File +
                                     "'");
  NumUnitsCompiled += Units.size() - Before;
  if (Units.size() > Before + 1)
    return createStringError(inconvertibleErrorCode(),
                             "the compilation database has " +
                                 std::to_string(Units.size() - Before) +
                                 " commands for '" + File +
                                 "'; crace compiles each file once");
  return Status == 0 && Units.size() == Before + 1;
}

/// The flags crace adds to every compile command.
/// Library mode: adds one unit's harness H to All (entry points, listing,
/// reasons; assumptions once each) and its text to Texts.
void mergeHarness(DriverHarness &All, DriverHarness H,
                  std::vector<std::pair<std::string, std::string>> &Texts,
                  const std::string &File) {
  Texts.push_back({File, std::move(H.Text)});
  All.Entries.insert(All.Entries.end(), H.Entries.begin(), H.Entries.end());
  All.Skipped.insert(All.Skipped.end(), H.Skipped.begin(), H.Skipped.end());
  All.Reasons.insert(All.Reasons.end(), H.Reasons.begin(), H.Reasons.end());
  All.Listing.insert(All.Listing.end(), H.Listing.begin(), H.Listing.end());
  for (std::string &A : H.Assumptions)
    if (!llvm::is_contained(All.Assumptions, A))
      All.Assumptions.push_back(std::move(A));
}

/// The entry points' names, comma-separated.
std::string entryNames(const DriverHarness &H) {
  std::string Names;
  for (const EntryPoint &E : H.Entries)
    Names += (Names.empty() ? "" : ", ") + E.Function;
  return Names;
}

/// Library mode: how the program was made, in the one line every report
/// prints (Result::Harness; module metadata "crace.library_harness").
std::string libraryHarnessSummary(const std::string &Names,
                                  const DriverHarnessOptions &Opts) {
  return formatv("library: entry points {0} called concurrently{1}, on "
                 "objects crace's harness makes (--list-entry-points shows "
                 "it)",
                 Names,
                 Opts.Dispatch
                     ? formatv(" by {0} threads that each call one of them",
                               Opts.Instances)
                           .str()
                     : formatv(", {0} calls each", Opts.Instances).str())
      .str();
}

/// Library mode: what the harness of all units together runs.
std::string libraryHarnessAssumption(const std::string &Names,
                                     const DriverHarnessOptions &Opts) {
  if (Opts.Dispatch)
    return formatv("library harness (dispatch): per unit, {1} threads each "
                   "call one of its entry points, chosen "
                   "nondeterministically; the entry points are {0} (every "
                   "pair, and every entry point with itself, is checked); "
                   "nothing else calls into the library",
                   Names, Opts.Instances);
  return formatv("library harness: the entry points {0} run concurrently, "
                 "{1} instances each (every pair, and every entry point with "
                 "itself, is checked); nothing else calls into the library",
                 Names, Opts.Instances);
}

/// Library mode: the main that makes and wires every unit's objects,
/// starts every unit's harness threads, then joins them
/// (HarnessWriter.cpp writes __crace_library_setup/start/join_N). Objects
/// are shared by the units, so no setup may run once a thread exists.
std::string libraryMain(const std::vector<unsigned> &Units) {
  std::string Decls, Setups, Starts, Joins;
  for (unsigned N : Units) {
    for (const char *Phase : {"setup", "start", "join"})
      Decls += formatv("void __crace_library_{0}_{1}(void);\n", Phase, N);
    Setups += formatv("  __crace_library_setup_{0}();\n", N);
    Starts += formatv("  __crace_library_start_{0}();\n", N);
    Joins += formatv("  __crace_library_join_{0}();\n", N);
  }
  return "#line 1 \"/crace-harness/harness.c\"\n" + Decls +
         "int main(void) {\n" + Setups + Starts + Joins + "  return 0;\n}\n";
}

std::vector<std::string> craceFlags(const FrontendOptions &Opts) {
  std::vector<std::string> Flags = commonFlags(Opts.ShowWarnings);
  Flags.push_back("-g");
  if (std::string T = targetFlag(Opts.DataModel); !T.empty())
    Flags.push_back(T);
  return Flags;
}

} // namespace

Expected<std::unique_ptr<Module>> buildModule(const FrontendOptions &Opts,
                                              LLVMContext &Ctx) {
  if (Opts.Files.empty())
    return createStringError(inconvertibleErrorCode(), "no input files");
  for (const std::string &F : Opts.Files) {
    if (!sys::fs::exists(F))
      return createStringError(inconvertibleErrorCode(),
                               "no such file: '" + F + "'");
    if (!sys::fs::is_regular_file(F))
      return createStringError(inconvertibleErrorCode(),
                               "not a regular file: '" + F + "'");
  }
  if (!Opts.DataModel.empty() && Opts.DataModel != "ILP32" &&
      Opts.DataModel != "LP64")
    return createStringError(inconvertibleErrorCode(),
                             "unknown data model '" + Opts.DataModel +
                                 "' (expected ILP32 or LP64)");

  std::vector<std::string> Flags = craceFlags(Opts);
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts =
      new clang::DiagnosticOptions();
  DiagOpts->ShowColors = llvm::sys::Process::StandardErrHasColors();
  ErrorsOnlyPrinter Quiet(DiagOpts.get());

  // Driver mode: the Linux model headers, entry points and the harness.
  std::vector<std::pair<std::string, std::string>> Mapped;
  // File -> the harness compiled in its place: one in driver mode, one per
  // unit with entry points in library mode.
  std::map<std::string, std::string> Harnesses;
  DriverHarness Harness;
  std::string LibrarySummary; // library mode: Result::Harness
  bool NoEntryPoints = false;
  std::set<std::string> Inputs;
  for (const std::string &F : Opts.Files)
    Inputs.insert(absolutePath(F));
  const bool Library = Opts.Driver.Enabled && Opts.Driver.Library;
  const char *Mode = Library ? "library mode" : "driver mode";
  if (Opts.Driver.Enabled) {
    if (!Library) {
      for (const ModelSource &S : linuxModelSources())
        if (StringRef(S.Name).ends_with(".h"))
          Mapped.push_back(
              {std::string(LinuxIncludeDir) + "/" + S.Name, S.Text});
      Flags.push_back("-idirafter");
      Flags.push_back(LinuxIncludeDir);
      // READ_ONCE, WRITE_ONCE, data_race() where the driver's headers lack
      // them (models/linux/include/crace_marked.h).
      Flags.push_back("-include");
      Flags.push_back(std::string(LinuxIncludeDir) + "/crace_marked.h");
    }
    std::vector<std::string> WithEntries;
    std::vector<std::pair<std::string, std::string>> UnitTexts;
    std::vector<unsigned> UnitNumbers;
    for (size_t FI = 0; FI < Opts.Files.size(); ++FI) {
      const std::string &File = Opts.Files[FI];
      DriverHarnessOptions HO = Opts.Driver;
      HO.LibraryUnit = FI;
      auto H = buildDriverHarness(File, *Opts.Database, Flags, Mapped, HO);
      if (!H) {
        // The compile below prints clang's diagnostics.
        consumeError(H.takeError());
        continue;
      }
      if (H->Entries.empty())
        continue;
      WithEntries.push_back(File);
      if (Library) {
        // Every unit's harness: its own threads, objects shared by type.
        mergeHarness(Harness, std::move(*H), UnitTexts, File);
        UnitNumbers.push_back(FI);
      } else if (WithEntries.size() == 1) {
        UnitTexts.push_back({File, H->Text});
        Harness = std::move(*H);
      }
    }
    if (WithEntries.size() > 1 && !Library)
      return createStringError(
          inconvertibleErrorCode(),
          std::string(Mode) +
              ": entry points were found in more than one translation unit "
              "('" +
              WithEntries[0] + "' and '" + WithEntries[1] +
              "'); crace builds the harness in one unit");
    if (Library && !UnitTexts.empty()) {
      std::string Names = entryNames(Harness);
      Harness.Assumptions.insert(Harness.Assumptions.begin(),
                                 libraryHarnessAssumption(Names, Opts.Driver));
      LibrarySummary = libraryHarnessSummary(Names, Opts.Driver);
      UnitTexts.front().second += libraryMain(UnitNumbers);
    }
    NoEntryPoints = WithEntries.empty();
    auto IsEntry = [&](const std::string &Name) {
      for (const EntryPoint &E : Harness.Entries)
        if (E.Function == Name)
          return true;
      return false;
    };
    for (const std::string &Name : Opts.Driver.Entries)
      if (!IsEntry(Name))
        return createStringError(inconvertibleErrorCode(),
                                 "--entry: no function '" + Name +
                                     "' with a body in the " +
                                     (Library ? "input" : "driver"));
    for (const auto &Pair : Opts.Driver.NotConcurrent)
      for (const std::string &Name : {Pair.first, Pair.second}) {
        if (!IsEntry(Name))
          return createStringError(
              inconvertibleErrorCode(),
              "--not-concurrent: '" + Name + "' is not an entry point of " +
                  (Library ? "the library" : "the driver") +
                  " (see --list-entry-points)");
      }
    for (const auto &[File, Body] : UnitTexts) {
      std::string Path = absolutePath(File) + ".crace-harness.c";
      Mapped.push_back(
          {Path, "#include \"" + absolutePath(File) + "\"\n" + Body});
      Harnesses[File] = Path;
    }
  }

  // One tool per file: ClangTool prints "[i/n] Processing file" otherwise.
  std::vector<std::unique_ptr<Module>> Units;
  bool Failed = false;
  for (const std::string &File : Opts.Files) {
    if (Opts.Cache && Opts.Cache->DataModel == Opts.DataModel &&
        !Opts.Driver.Enabled) {
      auto It = Opts.Cache->Bitcode.find(absolutePath(File));
      if (It != Opts.Cache->Bitcode.end()) {
        auto M = parseBitcodeFile(
            MemoryBufferRef(*It->second, absolutePath(File)), Ctx);
        if (!M)
          return M.takeError();
        Units.push_back(std::move(*M));
        continue;
      }
    }
    auto Ok = runClang(File, *Opts.Database, Flags, Mapped, Harnesses,
                       Opts.ShowWarnings, Quiet, Ctx, Units);
    if (!Ok)
      return Ok.takeError();
    Failed |= !*Ok;
  }
  if (Failed)
    return make_error<CompileError>("the input does not compile");
  if (NoEntryPoints)
    return createStringError(
        inconvertibleErrorCode(),
        Library ? "library mode: no entry points found (no function with "
                  "external linkage is defined in the input files, and none "
                  "is main); give them with --entry=f,g"
                : "driver mode: no entry points found (no function in an ops "
                  "structure of src/frontend/OpsTable.def, no module_init); "
                  "give them with --entry=f,g");

  std::unique_ptr<Module> LinuxModels;
  if (Opts.Driver.Enabled && !Library) {
    auto LM = compileLinuxModels(Ctx, Units.front()->getTargetTriple(),
                                 Opts.Driver.IrqLock);
    if (!LM)
      return LM.takeError();
    LinuxModels = std::move(*LM);
    StringSet<> Modelled;
    for (Function &F : *LinuxModels)
      if (!F.isDeclaration())
        Modelled.insert(F.getName());
    for (auto &U : Units)
      dropHeaderBodies(*U, Modelled, Inputs);
  }

  // Link errors are recorded and reported by crace (LLVM's default handler
  // would exit with code 1, a confirmed race).
  ScopedLinkDiagnostics LinkDiags(Ctx);
  std::map<std::string, std::string> DefinedIn;
  std::unique_ptr<Module> Main = std::move(Units.front());
  Main->setModuleIdentifier("crace");
  noteDefinitions(*Main, Opts.Files.front(), DefinedIn);
  for (size_t I = 1; I < Units.size(); ++I) {
    if (Units[I]->getTargetTriple() != Main->getTargetTriple())
      return make_error<CompileError>(
          "translation units were compiled for different targets (" +
          Main->getTargetTriple() + " and " + Units[I]->getTargetTriple() +
          ")");
    std::map<std::string, std::string> Here;
    noteDefinitions(*Units[I], Opts.Files[I], Here);
    if (Linker::linkModules(*Main, std::move(Units[I])))
      return make_error<CompileError>(
          "the translation units do not link together" +
          linkDetail(LinkDiags.errors(), DefinedIn, Opts.Files[I]));
    DefinedIn.insert(Here.begin(), Here.end());
  }

  if (LinuxModels) {
    LinuxModels->setDataLayout(Main->getDataLayout());
    if (Linker::linkModules(*Main, std::move(LinuxModels)))
      return make_error<CompileError>(
          "the driver conflicts with crace's Linux models" +
          linkDetail(LinkDiags.errors(), {}, ""));
  }
  if (Opts.Driver.Enabled) {
    auto AddStrings = [&](StringRef Name, const std::vector<std::string> &L) {
      NamedMDNode *N = Main->getOrInsertNamedMetadata(Name);
      for (const std::string &S : L)
        N->addOperand(MDNode::get(Ctx, MDString::get(Ctx, S)));
    };
    AddStrings("crace.assumptions", Harness.Assumptions);
    AddStrings("crace.reasons", Harness.Reasons);
    AddStrings("crace.harness", Harness.Listing);
    if (!LibrarySummary.empty())
      AddStrings("crace.library_harness", {LibrarySummary});
  }

  auto Models = compileModels(Ctx, Main->getTargetTriple(),
                              programInputModelText(Opts.Inputs));
  if (!Models)
    return Models.takeError();
  (*Models)->setDataLayout(Main->getDataLayout());
  if (Linker::linkModules(*Main, std::move(*Models)))
    return make_error<CompileError>(
        "the program conflicts with crace's environment models" +
        linkDetail(LinkDiags.errors(), {}, ""));

  lowerKnownInlineAsm(*Main);
  lowerVariadicLibraryCalls(*Main);
  // The program outside main and main's inputs (ProgramStart.h).
  std::vector<std::string> StartAssumptions =
      addProgramStart(*Main, Opts.Inputs);
  instrumentAtomicFunctions(*Main);
  prepareForCleanup(*Main);
  runCleanupPasses(*Main);
  std::vector<std::string> StartReasons = addThreadFini(*Main);
  for (auto [Name, Strings] :
       {std::pair{"crace.assumptions", &StartAssumptions},
        std::pair{"crace.reasons", &StartReasons}}) {
    NamedMDNode *N = Main->getOrInsertNamedMetadata(Name);
    for (const std::string &S : *Strings)
      N->addOperand(MDNode::get(Ctx, MDString::get(Ctx, S)));
  }
  foldConstantOffsets(*Main);
  typeAtomicPointerAccesses(*Main);
  inlineAllocationWrappers(*Main);
  inlinePointerPlumbing(*Main);
  inlineLockWrappers(*Main);
  inlineSpawnersIntoMain(*Main);

  std::string Msg;
  raw_string_ostream OS(Msg);
  if (verifyModule(*Main, &OS))
    return make_error<InternalError>("invalid module after cleanup: " + Msg);
  return std::move(Main);
}

Expected<std::unique_ptr<Module>>
compileUnit(const clang::tooling::CompileCommand &Command,
            const FrontendOptions &Opts, LLVMContext &Ctx) {
  CommandListDatabase Db({Command});
  llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts =
      new clang::DiagnosticOptions();
  DiagOpts->ShowColors = llvm::sys::Process::StandardErrHasColors();
  ErrorsOnlyPrinter Quiet(DiagOpts.get());
  std::vector<std::unique_ptr<Module>> Units;
  auto Ok = runClang(Command.Filename, Db, craceFlags(Opts), {}, {},
                     Opts.ShowWarnings, Quiet, Ctx, Units);
  if (!Ok)
    return Ok.takeError();
  if (!*Ok)
    return make_error<CompileError>("'" + Command.Filename +
                                    "' does not compile");
  return std::move(Units.front());
}

} // namespace crace
