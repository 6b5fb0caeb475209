//===- UnitCompiler.cpp - translation units compiled, in parallel ---------===//
#include "frontend/UnitCompiler.h"
#include "frontend/DataModel.h"
#include "frontend/DiskCache.h"
#include "frontend/EmbeddedC.h"
#include "model/Errors.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

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
/// The files a unit read (its main file and every header), absolute,
/// with the hash of the contents clang compiled: what a cached unit's
/// validity depends on besides its command.
using IncludedFiles = std::vector<std::pair<std::string, uint64_t>>;

class CaptureModuleAction : public clang::EmitLLVMOnlyAction {
public:
  CaptureModuleAction(LLVMContext &Ctx,
                      std::vector<std::unique_ptr<Module>> &Sink,
                      IncludedFiles *Included = nullptr,
                      std::string *Evidence = nullptr)
      : clang::EmitLLVMOnlyAction(&Ctx), Sink(Sink), Included(Included),
        Evidence(Evidence) {}

protected:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef InFile) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> Cs;
    Cs.push_back(clang::EmitLLVMOnlyAction::CreateASTConsumer(CI, InFile));
    if (!Cs.back())
      return nullptr;
    Cs.push_back(std::make_unique<LibraryDeclCollector>(CI.getSourceManager(),
                                                        Library, NoSanitize));
    if (Evidence)
      Cs.push_back(makeThirtyTwoBitSizeSpotter(CI, *Evidence));
    return std::make_unique<clang::MultiplexConsumer>(std::move(Cs));
  }

  void EndSourceFileAction() override {
    if (Included)
      collectIncluded(getCompilerInstance());
    clang::EmitLLVMOnlyAction::EndSourceFileAction();
    auto M = takeModule();
    if (!M || (Evidence && !Evidence->empty()))
      return; // a stopped parse leaves half a module
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
  void collectIncluded(clang::CompilerInstance &CI) {
    clang::SourceManager &SM = CI.getSourceManager();
    auto &FS = CI.getFileManager().getVirtualFileSystem();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It) {
      SmallString<256> P(It->first.getName());
      if (FS.makeAbsolute(P))
        continue;
      sys::path::remove_dots(P, /*remove_dot_dot=*/true);
      // The contents clang read; a file only looked at is read now.
      uint64_t H;
      if (auto B = It->second->getBufferIfLoaded())
        H = xxh3_64bits(B->getBuffer());
      else if (auto F = FS.getBufferForFile(P))
        H = xxh3_64bits((*F)->getBuffer());
      else
        continue;
      Included->push_back({std::string(P), H});
    }
    llvm::sort(*Included);
  }
  std::vector<std::unique_ptr<Module>> &Sink;
  std::vector<std::string> Library, NoSanitize;
  IncludedFiles *Included;
  std::string *Evidence;
};

/// Runs CaptureModuleAction as clang tooling's FrontendActionFactory
/// does, but prints into Out what the compiler instance would print on
/// stderr: the diagnostics (with CommandPrinter, through clang's own
/// printer with the command's diagnostic options, as clang tooling prints
/// when it is given no consumer; else through the tool's consumer) and the
/// "N errors generated" line.
class CaptureFactory : public clang::tooling::FrontendActionFactory {
public:
  CaptureFactory(LLVMContext &Ctx, std::vector<std::unique_ptr<Module>> &Sink,
                 raw_ostream &Out, bool CommandPrinter, IncludedFiles *Included,
                 std::string *Evidence)
      : Ctx(Ctx), Sink(Sink), Out(Out), CommandPrinter(CommandPrinter),
        Included(Included), Evidence(Evidence) {}
  std::unique_ptr<clang::FrontendAction> create() override {
    return std::make_unique<CaptureModuleAction>(Ctx, Sink, Included, Evidence);
  }
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> PCH,
                     clang::DiagnosticConsumer *Consumer) override {
    std::unique_ptr<clang::DiagnosticConsumer> Printer;
    clang::CompilerInstance Compiler(std::move(PCH));
    Compiler.setInvocation(std::move(Invocation));
    Compiler.setFileManager(Files);
    std::unique_ptr<clang::FrontendAction> Action(create());
    if (CommandPrinter) {
      Printer = std::make_unique<clang::TextDiagnosticPrinter>(
          Out, &Compiler.getDiagnosticOpts());
      Consumer = Printer.get();
    }
    Compiler.createDiagnostics(Consumer, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    Compiler.setVerboseOutputStream(Out);
    Compiler.createSourceManager(*Files);
    bool Ok = Compiler.ExecuteAction(*Action);
    Files->clearStatCache();
    return Ok;
  }

private:
  LLVMContext &Ctx;
  std::vector<std::unique_ptr<Module>> &Sink;
  raw_ostream &Out;
  bool CommandPrinter;
  IncludedFiles *Included;
  std::string *Evidence;
};

/// Prints errors (and the notes attached to them), drops warnings.
class ErrorsOnlyPrinter : public clang::TextDiagnosticPrinter {
public:
  ErrorsOnlyPrinter(raw_ostream &OS, clang::DiagnosticOptions *Opts)
      : clang::TextDiagnosticPrinter(OS, Opts) {}
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
} // namespace

std::unique_ptr<clang::FrontendAction>
captureModuleAction(LLVMContext &Ctx,
                    std::vector<std::unique_ptr<Module>> &Sink) {
  return std::make_unique<CaptureModuleAction>(Ctx, Sink);
}

/// Stack of the thread clang compiles on: clang recurses over the syntax
/// tree, and deep expressions (a sum of 60,000 terms) overflow the 8 MB of
/// the main thread; clang's own tools also compile on a large-stack thread.
constexpr unsigned ClangStackBytes = 512u << 20;

namespace {

/// The cache key of File's unit, or "" when it is not cached (virtual
/// files, not one command, the file unreadable).
std::string unitKey(const std::string &File,
                    const clang::tooling::CompilationDatabase &Db,
                    const ClangSetup &Setup) {
  if (!Setup.Mapped.empty() || !Setup.Harnesses.empty())
    return "";
  std::string Abs = absolutePath(File);
  auto Cs = Db.getCompileCommands(Abs);
  if (Cs.size() != 1)
    return "";
  std::optional<uint64_t> Contents = Setup.Disk->fileHash(Abs);
  if (!Contents)
    return "";
  CacheKey K;
  K.add("unit").add(DiskCache::buildIdentity());
  for (const std::string &F : Setup.Flags)
    K.add(F);
  K.add(Setup.PreserveUseLists).add(Setup.ShowWarnings);
  // Diagnostics are stored as printed: in colour or not.
  K.add(sys::Process::StandardErrHasColors());
  const clang::tooling::CompileCommand &C = Cs.front();
  K.add(C.Directory).add(C.Filename).add(C.CommandLine.size());
  for (const std::string &A : C.CommandLine)
    K.add(A);
  K.add(Abs).add(*Contents);
  return K.hex();
}

/// The cached unit of Key, when every file it read is unchanged.
std::optional<CompiledUnit> reuseUnit(const DiskCache &Disk, StringRef Key,
                                      function_ref<void(Module &)> Inspect) {
  std::optional<std::string> Entry = Disk.get("units", Key);
  if (!Entry)
    return std::nullopt;
  StringRef In = *Entry, Id, Diags, Bitcode, Count;
  uint64_t N = 0;
  if (!takeField(In, Id) || !takeField(In, Diags) || !takeField(In, Bitcode) ||
      !takeField(In, Count) || Count.getAsInteger(10, N))
    return std::nullopt;
  for (uint64_t I = 0; I < N; ++I) {
    StringRef Path, Hash;
    uint64_t H = 0;
    if (!takeField(In, Path) || !takeField(In, Hash) ||
        Hash.getAsInteger(16, H))
      return std::nullopt;
    std::optional<uint64_t> Now = Disk.fileHash(Path.str());
    if (!Now || *Now != H)
      return std::nullopt;
  }
  if (!In.empty())
    return std::nullopt;
  if (Inspect) {
    LLVMContext Ctx;
    auto M = parseBitcodeFile(MemoryBufferRef(Bitcode, Id), Ctx);
    if (!M) {
      consumeError(M.takeError());
      return std::nullopt;
    }
    Inspect(**M);
  }
  CompiledUnit U;
  U.Status = CompiledUnit::Compiled;
  U.Diagnostics = Diags.str();
  U.Bitcode = Bitcode.str();
  U.ModuleId = Id.str();
  U.Modules = 1;
  U.Reused = true;
  return U;
}

void storeUnit(const DiskCache &Disk, StringRef Key, const CompiledUnit &U,
               const IncludedFiles &Included) {
  std::string Entry;
  putField(Entry, U.ModuleId);
  putField(Entry, U.Diagnostics);
  putField(Entry, U.Bitcode);
  putField(Entry, std::to_string(Included.size()));
  for (const auto &[Path, H] : Included) {
    putField(Entry, Path);
    putField(Entry, utohexstr(H));
  }
  Disk.put("units", Key, Entry);
}

CompiledUnit compileFresh(const std::string &File,
                          const clang::tooling::CompilationDatabase &Db,
                          const ClangSetup &Setup,
                          function_ref<void(Module &)> Inspect,
                          IncludedFiles *Included);

} // namespace

CompiledUnit compileToBitcode(const std::string &File,
                              const clang::tooling::CompilationDatabase &Db,
                              const ClangSetup &Setup,
                              function_ref<void(Module &)> Inspect) {
  std::string Key = Setup.Disk ? unitKey(File, Db, Setup) : "";
  if (Key.empty())
    return compileFresh(File, Db, Setup, Inspect, nullptr);
  if (std::optional<CompiledUnit> U = reuseUnit(*Setup.Disk, Key, Inspect)) {
    ++Setup.Disk->UnitsReused;
    return std::move(*U);
  }
  IncludedFiles Included;
  CompiledUnit U = compileFresh(File, Db, Setup, Inspect, &Included);
  ++Setup.Disk->UnitsCompiled;
  if (U.Status == CompiledUnit::Compiled && !Included.empty())
    storeUnit(*Setup.Disk, Key, U, Included);
  return U;
}

namespace {

CompiledUnit compileFresh(const std::string &File,
                          const clang::tooling::CompilationDatabase &Db,
                          const ClangSetup &Setup,
                          function_ref<void(Module &)> Inspect,
                          IncludedFiles *Included) {
  CompiledUnit U;
  raw_string_ostream Out(U.Diagnostics);
  bool Colors = sys::Process::StandardErrHasColors();
  Out.enable_colors(Colors);
  // Everything clang changes is this unit's own: its context, diagnostic
  // printer and options, and a file system whose working directory is its
  // own (the real one's is the process's, which ClangTool would change to
  // each command's directory).
  std::optional<LLVMContext> OwnCtx;
  LLVMContext &Ctx = Setup.Into ? *Setup.Into : OwnCtx.emplace();
  IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts =
      new clang::DiagnosticOptions();
  DiagOpts->ShowColors = Colors;
  std::unique_ptr<clang::DiagnosticConsumer> Printer;
  if (Setup.ShowWarnings)
    Printer =
        std::make_unique<clang::TextDiagnosticPrinter>(Out, DiagOpts.get());
  else
    Printer = std::make_unique<ErrorsOnlyPrinter>(Out, DiagOpts.get());
  clang::tooling::ClangTool Tool(
      Db, {File}, std::make_shared<clang::PCHContainerOperations>(),
      IntrusiveRefCntPtr<vfs::FileSystem>(
          vfs::createPhysicalFileSystem().release()));
  Tool.clearArgumentsAdjusters();
  Tool.appendArgumentsAdjuster(clang::tooling::getClangStripOutputAdjuster());
  Tool.appendArgumentsAdjuster(
      clang::tooling::getClangStripDependencyFileAdjuster());
  Tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
      Setup.Flags, clang::tooling::ArgumentInsertPosition::END));
  for (const auto &[Path, Text] : Setup.Mapped)
    Tool.mapVirtualFile(Path, Text);
  if (auto H = Setup.Harnesses.find(File); H != Setup.Harnesses.end()) {
    // Compile the harness, which includes the driver, in its place. A
    // relative argument is relative to the command's directory.
    std::string Abs = absolutePath(File), Virtual = H->second, Dir;
    if (auto Cs = Db.getCompileCommands(Abs); !Cs.empty())
      Dir = Cs.front().Directory;
    Tool.appendArgumentsAdjuster(
        [Abs, File, Virtual,
         Dir](const clang::tooling::CommandLineArguments &Args, StringRef) {
          clang::tooling::CommandLineArguments R = Args;
          for (std::string &A : R)
            if (A == File || A == Abs || absolutePath(A, Dir) == Abs)
              A = Virtual;
          return R;
        });
  }
  Tool.setPrintErrorMessage(false);
  Tool.setDiagnosticConsumer(Printer.get());
  std::vector<std::unique_ptr<Module>> Units;
  CaptureFactory Factory(Ctx, Units, Out, Setup.ShowWarnings, Included,
                         Setup.StopAtThirtyTwoBitSizes ? &U.Evidence : nullptr);
  // A crash in clang is recovered from and reported (never a signal
  // that would look like a verdict).
  int Status = 1;
  CrashRecoveryContext::Enable();
  CrashRecoveryContext CRC;
  if (!CRC.RunSafelyOnThread([&] { Status = Tool.run(&Factory); },
                             ClangStackBytes)) {
    U.Status = CompiledUnit::Crashed;
    return U;
  }
  if (!U.Evidence.empty()) {
    U.Status = CompiledUnit::ThirtyTwoBit;
    return U;
  }
  U.Modules = Units.size();
  if (Units.size() > 1) {
    U.Status = CompiledUnit::SeveralCommands;
    return U;
  }
  if (Status != 0 || Units.size() != 1)
    return U;
  Module &M = *Units.front();
  if (Inspect)
    Inspect(M);
  U.ModuleId = M.getModuleIdentifier();
  U.Status = CompiledUnit::Compiled;
  if (Setup.Into) {
    // As the bitcode reader would give it: debug records, not intrinsics.
    M.setIsNewDbgInfoFormat(true);
    U.Built = std::move(Units.front());
    return U;
  }
  raw_string_ostream BC(U.Bitcode);
  WriteBitcodeToFile(M, BC, Setup.PreserveUseLists);
  return U;
}

} // namespace

Expected<bool> unitOutcome(const CompiledUnit &U, const std::string &File) {
  switch (U.Status) {
  case CompiledUnit::Compiled:
    return true;
  case CompiledUnit::Failed:
    return false;
  case CompiledUnit::Crashed:
    return make_error<InternalError>("clang crashed while compiling '" + File +
                                     "'");
  case CompiledUnit::SeveralCommands:
    break;
  case CompiledUnit::ThirtyTwoBit:
    return make_error<ThirtyTwoBitProgram>(U.Evidence);
  }
  return createStringError(inconvertibleErrorCode(),
                           "the compilation database has " +
                               std::to_string(U.Modules) + " commands for '" +
                               File + "'; crace compiles each file once");
}

std::string absolutePath(StringRef P, StringRef Dir) {
  SmallString<256> A(P);
  if (!Dir.empty() && !sys::path::is_absolute(A)) {
    A = Dir;
    sys::path::append(A, P);
  }
  sys::fs::make_absolute(A);
  sys::path::remove_dots(A, /*remove_dot_dot=*/true);
  return A.str().str();
}

unsigned defaultJobs() {
  return std::max(1u, hardware_concurrency().compute_thread_count());
}

} // namespace crace
