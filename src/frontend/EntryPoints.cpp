//===- EntryPoints.cpp - driver entry points and their harness ------------===//
#include "frontend/EntryPoints.h"
#include "frontend/HarnessWriter.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <cstdlib>
#include <deque>
#include <map>
#include <set>

using namespace clang;
using namespace llvm;

namespace crace {

namespace {

struct OpsRow {
  const char *Struct;
  const char *Field;
  EntryRole Role;
  const char *Group;
};
const OpsRow OpsRows[] = {
#define OPS(S, F, ROLE, GROUP) {S, F, EntryRole::ROLE, GROUP},
#include "frontend/OpsTable.def"
};
/// A callback passed as argument Index of a call (CALLBACK_ARG) or of a
/// macro expansion (CALLBACK_MACRO) named Function.
struct CallbackArgRow {
  const char *Function;
  unsigned Index;
};
const CallbackArgRow CallbackArgRows[] = {
#define CALLBACK_ARG(FN, INDEX) {FN, INDEX},
#include "frontend/OpsTable.def"
};
struct CallbackFieldRow {
  const char *Struct;
  const char *Field;
};
const CallbackFieldRow CallbackFieldRows[] = {
#define CALLBACK_FIELD(S, F) {S, F},
#include "frontend/OpsTable.def"
};
const CallbackArgRow CallbackMacroRows[] = {
#define CALLBACK_MACRO(M, INDEX) {M, INDEX},
#include "frontend/OpsTable.def"
};

/// A function named in a macro argument (CALLBACK_MACRO): its name, the
/// macro and where it was expanded.
struct MacroCallback {
  std::string Function, Macro, Where;
};

/// Records the CALLBACK_MACRO arguments while the unit is preprocessed:
/// WHOOP's INIT_WORK drops its function, so the AST never sees it.
class MacroCallbacks : public PPCallbacks {
public:
  MacroCallbacks(SourceManager &SM, std::vector<MacroCallback> &Out)
      : SM(SM), Out(Out) {}
  void MacroExpands(const Token &Name, const MacroDefinition &,
                    SourceRange Range, const MacroArgs *Args) override {
    if (!Args || !Name.getIdentifierInfo())
      return;
    StringRef M = Name.getIdentifierInfo()->getName();
    for (const CallbackArgRow &R : CallbackMacroRows) {
      if (M != R.Function || R.Index >= Args->getNumMacroArguments())
        continue;
      // The argument's tokens: f, &f or (f) name the function.
      std::string Fn;
      unsigned Idents = 0;
      for (const Token *T = Args->getUnexpArgument(R.Index);
           T && T->isNot(tok::eof); ++T) {
        if (T->is(tok::identifier)) {
          Fn = T->getIdentifierInfo()->getName().str();
          ++Idents;
        } else if (!T->isOneOf(tok::amp, tok::l_paren, tok::r_paren)) {
          Idents = 2; // an expression: not a plain function name
        }
      }
      PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Range.getBegin()));
      std::string Where =
          P.isInvalid()
              ? std::string("?")
              : formatv("{0}:{1}", llvm::sys::path::filename(P.getFilename()),
                        P.getLine())
                    .str();
      Out.push_back({Idents == 1 ? Fn : std::string(), M.str(), Where});
    }
  }

private:
  SourceManager &SM;
  std::vector<MacroCallback> &Out;
};

const OpsRow *lookupOps(StringRef S, StringRef F) {
  const OpsRow *Star = nullptr;
  for (const OpsRow &R : OpsRows) {
    if (S != R.Struct)
      continue;
    if (F == R.Field)
      return &R;
    if (StringRef(R.Field) == "*")
      Star = &R;
  }
  return Star;
}

bool isOpsStruct(StringRef S) {
  for (const OpsRow &R : OpsRows)
    if (S == R.Struct)
      return true;
  return false;
}

/// The function an initialiser or argument names (f, &f, (cast)f).
const FunctionDecl *functionOf(const Expr *E) {
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_AddrOf)
      E = U->getSubExpr()->IgnoreParenCasts();
  if (auto *D = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<FunctionDecl>(D->getDecl());
  return nullptr;
}

using harness::recordName;

/// A function registered in several places takes the least ordered role:
/// concurrent (Entry) wins over exit, exit over init.
int roleRank(EntryRole R) {
  return R == EntryRole::Entry ? 2 : R == EntryRole::Exit ? 1 : 0;
}

/// Collects the entry points of one translation unit, then has the harness
/// written for them (HarnessWriter.cpp).
class Collector {
public:
  using Found = harness::FoundEntry;

  Collector(ASTContext &Ctx, const DriverHarnessOptions &Opts,
            const std::vector<MacroCallback> &Macros, DriverHarness &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Opts(Opts), Macros(Macros),
        Out(Out) {}

  void run() {
    TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
    if (Opts.Library) {
      runLibrary(TU);
      return;
    }
    for (Decl *D : TU->decls()) {
      if (auto *V = dyn_cast<VarDecl>(D))
        visitGlobal(V);
      else if (auto *F = dyn_cast<FunctionDecl>(D))
        visitFunction(F);
    }
    CallbackVisitor V(*this);
    V.TraverseDecl(TU);
    for (const MacroCallback &MC : Macros) {
      auto It = Definitions.find(MC.Function);
      if (It != Definitions.end()) {
        add(It->second, EntryRole::Entry, "",
            formatv("{0}() at {1}", MC.Macro, MC.Where), 0);
        continue;
      }
      // Not a function of the driver: its callback cannot be run, so no
      // race freedom is claimed.
      Out.Reasons.push_back(formatv(
          "driver mode: the callback registered by {0} at {1} is not a "
          "function defined in the driver{2}, so it is not run as an entry "
          "point",
          MC.Macro, MC.Where,
          MC.Function.empty() ? "" : " ('" + MC.Function + "')"));
    }
    if (!Opts.Entries.empty()) {
      // --entry: the given functions are the ordinary entry points.
      std::map<std::string, Found> Kept;
      for (auto &[Name, F] : Funcs)
        if (F.Role != EntryRole::Entry)
          Kept[Name] = F;
      Funcs = std::move(Kept);
      for (const std::string &Name : Opts.Entries) {
        auto It = Definitions.find(Name);
        if (It == Definitions.end())
          continue;
        add(It->second, EntryRole::Entry, "", "--entry", 0);
      }
    }
    harness::writeHarness(Ctx, Opts, Funcs, NotOps, Out);
  }

private:
  /// Library mode: the entry points are the functions --entry names, else
  /// every function with external linkage defined in the file itself (not
  /// in a header), but main and the constructors and destructors (which
  /// the program start runs: frontend/ProgramStart.h).
  void runLibrary(TranslationUnitDecl *TU) {
    for (Decl *D : TU->decls()) {
      auto *F = dyn_cast<FunctionDecl>(D);
      if (!F || !F->getIdentifier() || !F->doesThisDeclarationHaveABody())
        continue;
      Definitions[F->getNameAsString()] = F;
      if (!Opts.Entries.empty() || F->isMain() ||
          F->getFormalLinkage() != Linkage::External ||
          F->isInlineSpecified() ||
          !SM.isInMainFile(SM.getExpansionLoc(F->getLocation())) ||
          F->hasAttr<ConstructorAttr>() || F->hasAttr<DestructorAttr>())
        continue;
      add(F, EntryRole::Entry, "", "exported by " + where(F->getLocation()), 0);
    }
    for (const std::string &Name : Opts.Entries) {
      auto It = Definitions.find(Name);
      if (It != Definitions.end())
        add(It->second, EntryRole::Entry, "", "--entry", 0);
    }
    harness::writeHarness(Ctx, Opts, Funcs, NotOps, Out);
  }

  class CallbackVisitor : public RecursiveASTVisitor<CallbackVisitor> {
  public:
    explicit CallbackVisitor(Collector &C) : C(C) {}
    bool VisitCallExpr(CallExpr *CE) {
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (!Callee || !Callee->getIdentifier())
        return true;
      for (const CallbackArgRow &R : CallbackArgRows) {
        if (Callee->getName() != R.Function || R.Index >= CE->getNumArgs())
          continue;
        if (const FunctionDecl *F = functionOf(CE->getArg(R.Index)))
          C.add(F, EntryRole::Entry, "",
                formatv("{0}() callback at {1}", R.Function,
                        C.where(CE->getBeginLoc())),
                0);
      }
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *BO) {
      if (BO->getOpcode() != BO_Assign)
        return true;
      auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParenImpCasts());
      if (!ME)
        return true;
      auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD)
        return true;
      std::string S = recordName(FD->getParent());
      for (const CallbackFieldRow &R : CallbackFieldRows)
        if (S == R.Struct && FD->getName() == R.Field)
          if (const FunctionDecl *F = functionOf(BO->getRHS()))
            C.add(F, EntryRole::Entry, "",
                  formatv("{0}.{1} at {2}", R.Struct, R.Field,
                          C.where(BO->getBeginLoc())),
                  0);
      return true;
    }

  private:
    Collector &C;
  };

  std::string where(SourceLocation L) {
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
    if (P.isInvalid())
      return "?";
    return formatv("{0}:{1}",
                   StringRef(P.getFilename()).rsplit('/').second.empty()
                       ? StringRef(P.getFilename())
                       : StringRef(P.getFilename()).rsplit('/').second,
                   P.getLine());
  }

  void add(const FunctionDecl *FD, EntryRole Role, StringRef Group,
           std::string Origin, unsigned Order) {
    FD = FD->getCanonicalDecl();
    std::string Name = FD->getNameAsString();
    const FunctionDecl *Def = FD->getDefinition();
    if (!Def) {
      // A kernel function in an ops structure (no_llseek, nsc_gpio_read):
      // it runs as an entry point and may call back into the driver. The
      // harness calls it: crace's model if there is one, else it is an
      // unknown external function and no race freedom is claimed.
      Out.Skipped.push_back(Name + " (" + Origin +
                            "): no body in the driver (a kernel function); "
                            "called through crace's model or reported as "
                            "unknown");
      Def = FD;
    }
    Found &F = Funcs[Name];
    if (!F.FD) {
      F.Seq = Funcs.size();
      F.Order = Order;
    }
    F.FD = Def;
    if (F.Origins == 0 || roleRank(Role) > roleRank(F.Role)) {
      F.Role = Role;
      F.Order = Order;
    }
    ++F.Origins;
    if (Group == "rtnl")
      ++F.RtnlOrigins;
    F.Where.push_back(std::move(Origin));
  }

  void visitFunction(const FunctionDecl *F) {
    if (!F->getIdentifier())
      return;
    if (F->doesThisDeclarationHaveABody())
      Definitions[F->getNameAsString()] = F;
    StringRef N = F->getName();
    if (N != "init_module" && N != "cleanup_module")
      return;
    EntryRole Role = N == "init_module" ? EntryRole::Init : EntryRole::Exit;
    if (const auto *A = F->getAttr<AliasAttr>()) {
      // module_init(f) as the kernel spells it: init_module aliases f.
      for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
        if (auto *G = dyn_cast<FunctionDecl>(D))
          if (G->getIdentifier() && G->getName() == A->getAliasee() &&
              G->doesThisDeclarationHaveABody()) {
            add(G, Role, "",
                Role == EntryRole::Init ? "module_init" : "module_exit",
                Role == EntryRole::Init ? 0 : 1);
            return;
          }
      return;
    }
    if (F->doesThisDeclarationHaveABody())
      add(F, Role, "", N.str(), Role == EntryRole::Init ? 0 : 1);
  }

  void visitGlobal(const VarDecl *V) {
    if (!V->getIdentifier() || !V->hasInit())
      return;
    StringRef N = V->getName();
    // WHOOP's module_init/module_exit: a function pointer global.
    if (N == "_whoop_init" || N == "_whoop_exit") {
      if (const FunctionDecl *F = functionOf(V->getInit()))
        add(F, N == "_whoop_init" ? EntryRole::Init : EntryRole::Exit, "",
            N == "_whoop_init" ? "module_init" : "module_exit",
            N == "_whoop_init" ? 0 : 1);
      return;
    }
    walkInit(V->getInit(), V->getType(), N.str(), 0);
  }

  void walkInit(const Expr *Init, QualType T, const std::string &Var,
                unsigned Depth) {
    if (!Init || Depth > 8)
      return;
    T = T.getCanonicalType();
    const auto *ILE = dyn_cast<InitListExpr>(Init->IgnoreParenImpCasts());
    if (!ILE)
      return;
    if (ILE->isSyntacticForm() && ILE->getSemanticForm())
      ILE = ILE->getSemanticForm();
    if (const auto *AT = Ctx.getAsConstantArrayType(T)) {
      for (unsigned I = 0; I < ILE->getNumInits(); ++I)
        walkInit(ILE->getInit(I), AT->getElementType(), Var, Depth + 1);
      return;
    }
    const RecordType *RT = T->getAs<RecordType>();
    if (!RT)
      return;
    const RecordDecl *RD = RT->getDecl()->getDefinition();
    if (!RD)
      return;
    std::string S = recordName(RD);
    auto Field = [&](const FieldDecl *FD, const Expr *E) {
      if (!FD || !E)
        return;
      if (const FunctionDecl *F = functionOf(E)) {
        const OpsRow *Row = lookupOps(S, FD->getName());
        std::string Origin =
            formatv("{0}.{1} in '{2}'", S.empty() ? "<anonymous>" : S,
                    FD->getName(), Var);
        if (Row)
          add(F, Row->Role, Row->Group, Origin,
              Row->Role == EntryRole::Init ? 1 : 0);
        else if (!S.empty() && !isOpsStruct(S))
          NotOps.insert(S);
        return;
      }
      walkInit(E, FD->getType(), Var, Depth + 1);
    };
    if (RD->isUnion()) {
      if (ILE->getNumInits() == 1)
        Field(ILE->getInitializedFieldInUnion(), ILE->getInit(0));
      return;
    }
    unsigned I = 0;
    for (const FieldDecl *FD : RD->fields()) {
      if (I >= ILE->getNumInits())
        break;
      Field(FD, ILE->getInit(I));
      ++I;
    }
  }

  ASTContext &Ctx;
  SourceManager &SM;
  const DriverHarnessOptions &Opts;
  const std::vector<MacroCallback> &Macros;
  DriverHarness &Out;
  std::map<std::string, Found> Funcs;
  std::map<std::string, const FunctionDecl *> Definitions;
  std::set<std::string> NotOps;
};

class CollectConsumer : public ASTConsumer {
public:
  CollectConsumer(const DriverHarnessOptions &Opts,
                  const std::vector<MacroCallback> &Macros, DriverHarness &Out)
      : Opts(Opts), Macros(Macros), Out(Out) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Collector(Ctx, Opts, Macros, Out).run();
  }

private:
  const DriverHarnessOptions &Opts;
  const std::vector<MacroCallback> &Macros;
  DriverHarness &Out;
};

class CollectAction : public ASTFrontendAction {
public:
  CollectAction(const DriverHarnessOptions &Opts, DriverHarness &Out)
      : Opts(Opts), Out(Out) {}
  bool BeginSourceFileAction(CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<MacroCallbacks>(CI.getSourceManager(), Macros));
    return true;
  }
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<CollectConsumer>(Opts, Macros, Out);
  }

private:
  const DriverHarnessOptions &Opts;
  std::vector<MacroCallback> Macros;
  DriverHarness &Out;
};

class CollectFactory : public tooling::FrontendActionFactory {
public:
  CollectFactory(const DriverHarnessOptions &Opts, DriverHarness &Out)
      : Opts(Opts), Out(Out) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<CollectAction>(Opts, Out);
  }

private:
  const DriverHarnessOptions &Opts;
  DriverHarness &Out;
};

/// Errors only (the compile proper prints them; this pass stays quiet).
class SilentConsumer : public DiagnosticConsumer {
  void HandleDiagnostic(DiagnosticsEngine::Level, const Diagnostic &) override {
  }
};

} // namespace

Expected<DriverHarness> buildDriverHarness(
    const std::string &File, const tooling::CompilationDatabase &Db,
    const std::vector<std::string> &ExtraFlags,
    const std::vector<std::pair<std::string, std::string>> &Mapped,
    const DriverHarnessOptions &Opts) {
  DriverHarness Out;
  tooling::ClangTool Tool(Db, {File});
  Tool.clearArgumentsAdjusters();
  Tool.appendArgumentsAdjuster(tooling::getClangStripOutputAdjuster());
  Tool.appendArgumentsAdjuster(tooling::getClangStripDependencyFileAdjuster());
  Tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster(
      ExtraFlags, tooling::ArgumentInsertPosition::END));
  for (const auto &[Path, Text] : Mapped)
    Tool.mapVirtualFile(Path, Text);
  Tool.setPrintErrorMessage(false);
  SilentConsumer Quiet;
  Tool.setDiagnosticConsumer(&Quiet);
  CollectFactory Factory(Opts, Out);
  if (Tool.run(&Factory) != 0)
    return createStringError(inconvertibleErrorCode(),
                             "the driver does not compile");
  if (std::getenv("CRACE_DUMP_HARNESS"))
    llvm::errs() << Out.Text;
  return Out;
}

} // namespace crace
