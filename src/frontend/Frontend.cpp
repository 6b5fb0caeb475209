//===- Frontend.cpp - C sources to one llvm::Module -----------------------===//
#include "frontend/Frontend.h"
#include "frontend/AsmLowering.h"
#include "frontend/EmbeddedC.h"
#include "frontend/HeapCloning.h"
#include "frontend/IRPreparation.h"
#include "frontend/LibcLowering.h"
#include "frontend/ProgramStart.h"
#include "frontend/Programs.h"
#include "frontend/UnitCompiler.h"
#include "model/Counters.h"

#include "clang/Tooling/CompilationDatabase.h"
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
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
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

std::string targetFlag(StringRef DataModel) {
  if (DataModel == "ILP32")
    return "--target=i386-pc-linux-gnu";
  if (DataModel == "LP64")
    return "--target=x86_64-pc-linux-gnu";
  return "";
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

/// The flags crace adds to every compile command.
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
      // The kernel is built with -fno-strict-aliasing: its code may access
      // one object through unrelated struct types, so no type-based alias
      // tags (analysis/PairFilters.h) may separate accesses.
      Flags.push_back("-fno-strict-aliasing");
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

  // Each unit in its own context, on up to Opts.Jobs threads; its
  // diagnostics are printed and its bitcode parsed here, in file order
  // (a single unit: in Ctx, handed over as it is).
  ClangSetup Setup{Flags,
                   Mapped,
                   Harnesses,
                   Opts.ShowWarnings,
                   /*PreserveUseLists=*/true,
                   Opts.Disk,
                   Opts.StopAtThirtyTwoBitSizes && Opts.DataModel.empty()};
  auto Cached = [&](size_t I) -> const std::string * {
    if (!Opts.Cache || Opts.Cache->DataModel != Opts.DataModel ||
        Opts.Driver.Enabled)
      return nullptr;
    auto It = Opts.Cache->Bitcode.find(absolutePath(Opts.Files[I]));
    return It == Opts.Cache->Bitcode.end() ? nullptr : It->second.get();
  };
  // One unit: compiled into Ctx itself, no bitcode in between.
  if (Opts.Files.size() == 1 && !Opts.Disk && !Cached(0))
    Setup.Into = &Ctx;
  std::vector<std::unique_ptr<Module>> Units;
  bool Failed = false;
  std::optional<Error> Err;
  runInOrder<CompiledUnit>(
      Opts.Files.size(), Opts.Jobs,
      [&](size_t I) {
        if (Cached(I))
          return CompiledUnit();
        return compileToBitcode(Opts.Files[I], *Opts.Database, Setup);
      },
      [&](size_t I, CompiledUnit &U) {
        const std::string &File = Opts.Files[I];
        std::string Id = absolutePath(File);
        const std::string *BC = Cached(I);
        if (!BC) {
          if (U.Status != CompiledUnit::ThirtyTwoBit)
            errs() << U.Diagnostics; // else compiled again, as ILP32
          if (!U.Reused)
            NumUnitsCompiled += U.Modules;
          auto Ok = unitOutcome(U, File);
          if (!Ok) {
            Err.emplace(Ok.takeError());
            return false;
          }
          if (!*Ok) {
            Failed = true;
            return true;
          }
          if (U.Built) {
            Units.push_back(std::move(U.Built));
            return true;
          }
          BC = &U.Bitcode;
          Id = U.ModuleId;
        }
        auto M = parseBitcodeFile(MemoryBufferRef(*BC, Id), Ctx);
        if (!M) {
          Err.emplace(M.takeError());
          return false;
        }
        Units.push_back(std::move(*M));
        return true;
      });
  if (Err)
    return std::move(*Err);
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
  inlinePoolHelpers(*Main);
  inlineLockWrappers(*Main);
  inlineCopyWrappers(*Main);
  inlineSpawnersIntoMain(*Main);

  std::string Msg;
  raw_string_ostream OS(Msg);
  if (verifyModule(*Main, &OS))
    return make_error<InternalError>("invalid module after cleanup: " + Msg);
  return std::move(Main);
}

CompiledUnit compileCommand(const clang::tooling::CompileCommand &Command,
                            const FrontendOptions &Opts,
                            function_ref<void(Module &)> Inspect) {
  CommandListDatabase Db({Command});
  ClangSetup Setup;
  Setup.Flags = craceFlags(Opts);
  Setup.ShowWarnings = Opts.ShowWarnings;
  Setup.Disk = Opts.Disk;
  // By absolute path: ClangTool would resolve a relative "file" of the
  // database against crace's working directory, not the command's, and
  // find no command for it.
  SmallString<256> File(Command.Filename);
  if (!sys::path::is_absolute(File)) {
    File = Command.Directory;
    sys::path::append(File, Command.Filename);
  }
  return compileToBitcode(std::string(File), Db, Setup, Inspect);
}

} // namespace crace
