//===- EntryPoints.cpp - driver entry points and their harness ------------===//
#include "frontend/EntryPoints.h"

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
          P.isInvalid() ? std::string("?")
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

std::string recordName(const RecordDecl *RD) {
  if (!RD)
    return "";
  if (!RD->getName().empty())
    return RD->getName().str();
  if (const TypedefNameDecl *T = RD->getTypedefNameForAnonDecl())
    return T->getName().str();
  return "";
}

/// A function registered in several places takes the least ordered role:
/// concurrent (Entry) wins over exit, exit over init.
const char *const RegisteredTypes[] = {
#define REGISTERED_TYPE(S) S,
#include "frontend/OpsTable.def"
};

const char *const RegisteredSlots[] = {
#define REGISTERED_SLOT(S) S,
#include "frontend/OpsTable.def"
};

/// The REGISTERED_SLOT type Q is, or "".
std::string registeredSlot(QualType Q) {
  const auto *RT = Q->getAs<RecordType>();
  if (!RT)
    return "";
  std::string N = recordName(RT->getDecl());
  for (const char *R : RegisteredSlots)
    if (N == R)
      return N;
  return "";
}

/// Objects of this type may be the driver's own, registered with the kernel.
bool isRegisteredType(QualType Q) {
  if (Q->isVoidType())
    return true;
  const auto *RT = Q->getAs<RecordType>();
  if (!RT)
    return false;
  std::string N = recordName(RT->getDecl());
  for (const char *R : RegisteredTypes)
    if (N == R)
      return true;
  return !registeredSlot(Q).empty();
}

int roleRank(EntryRole R) {
  return R == EntryRole::Entry ? 2 : R == EntryRole::Exit ? 1 : 0;
}

const char *roleName(EntryRole R) {
  return R == EntryRole::Init ? "init" : R == EntryRole::Exit ? "exit" : "entry";
}

/// Collects the entry points of one translation unit and writes the harness.
class Collector {
public:
  Collector(ASTContext &Ctx, const DriverHarnessOptions &Opts,
            const std::vector<MacroCallback> &Macros, DriverHarness &Out)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), PP(Ctx.getPrintingPolicy()),
        Opts(Opts), Macros(Macros), Out(Out) {
    PP.SuppressTagKeyword = false;
  }

  void run() {
    TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
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
    generate();
  }

private:
  struct Found {
    const FunctionDecl *FD = nullptr;
    EntryRole Role = EntryRole::Entry;
    unsigned Order = 0;
    unsigned Origins = 0, RtnlOrigins = 0;
    std::vector<std::string> Where;
    unsigned Seq = 0;
  };

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
    return formatv("{0}:{1}", StringRef(P.getFilename()).rsplit('/').second.empty()
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
            add(G, Role, "", Role == EntryRole::Init ? "module_init" : "module_exit",
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

  // ---- The harness ----------------------------------------------------

  /// What the driver registered that a pointer to Q may point to: the
  /// typed slot of a REGISTERED_SLOT type, else everything registered.
  std::string registeredExpr(QualType Q) {
    std::string S = registeredSlot(Q);
    if (S.empty())
      return "__crace_registered";
    UsedSlots.insert(S);
    return "__crace_registered_" + S;
  }

  /// A type name usable in a cast at the end of the unit, or "".
  std::string typeName(QualType T) {
    T = T.getCanonicalType().getUnqualifiedType();
    if (const auto *RT = T->getAs<RecordType>()) {
      const RecordDecl *RD = RT->getDecl();
      if (RD->getParentFunctionOrMethod())
        return "";
      if (RD->getName().empty()) {
        if (const TypedefNameDecl *TD = RD->getTypedefNameForAnonDecl())
          return TD->getName().str();
        return "";
      }
    }
    std::string S = T.getAsString(PP);
    if (S.find("(unnamed") != std::string::npos ||
        S.find("(anonymous") != std::string::npos ||
        S.find("struct (") != std::string::npos || S.find('<') != std::string::npos)
      return "";
    return S;
  }

  unsigned objectFor(QualType P) {
    P = P.getCanonicalType().getUnqualifiedType();
    auto [It, New] = Objects.try_emplace(P.getAsOpaquePtr(), Objects.size());
    if (!New)
      return It->second;
    unsigned I = It->second;
    ObjectTypes.push_back(P);
    std::string TN = typeName(P);
    bool Sized = !TN.empty() && !P->isVoidType() && !P->isIncompleteType() &&
                 !P->isFunctionType() && !P->isVariableArrayType();
    std::string Label = TN.empty() ? std::string("kernel object") : TN;
    for (char &C : Label)
      if (C == '"' || C == '\\')
        C = '_';
    ObjectSizes.push_back(Sized ? "sizeof(" + TN + ") + 4096"
                                : std::string("4096"));
    Decls += formatv("static void *__crace_obj_{0};\n", I);
    Alloc += formatv("#line {0} \"/crace-harness/{1}\"\n"
                     "  __crace_obj_{3} = __crace_harness_object({2});\n",
                     I + 1, Label, ObjectSizes[I], I);
    Pending.push_back(I);
    return I;
  }

  bool budget() {
    if (Stmts < 40000 && Objects.size() < 4000)
      return true;
    Truncated = true;
    return false;
  }

  void wireSlot(const std::string &Expr, QualType FT, unsigned Depth) {
    if (!budget())
      return;
    FT = FT.getCanonicalType();
    if (FT->isPointerType()) {
      QualType Q = FT->getPointeeType().getCanonicalType().getUnqualifiedType();
      if (Q->isFunctionType())
        return;
      if (Q->isVoidType()) {
        // void * fields: what the driver registered (misc_register's
        // miscdevice in file->private_data, ...) or stores there itself.
        WireLate += formatv("  *(void **)&({0}) = __crace_registered;\n", Expr);
        ++Stmts;
        return;
      }
      unsigned J = objectFor(Q);
      if (isRegisteredType(Q))
        // The kernel's object of that type, or one the driver registered
        // (bdev->bd_disk is the driver's gendisk): set once init has run.
        WireLate += formatv("  *(void **)&({0}) = __crace_nondet_int() ? "
                            "__crace_obj_{1} : {2};\n",
                            Expr, J, registeredExpr(Q));
      else
        Wire += formatv("  *(void **)&({0}) = __crace_obj_{1};\n", Expr, J);
      ++Stmts;
      return;
    }
    if (const auto *AT = Ctx.getAsConstantArrayType(FT)) {
      uint64_t N = std::min<uint64_t>(AT->getSize().getZExtValue(), 4);
      for (uint64_t K = 0; K < N; ++K)
        wireSlot(formatv("{0}[{1}]", Expr, K), AT->getElementType(), Depth + 1);
      return;
    }
    if (const auto *RT = FT->getAs<RecordType>())
      if (Depth < 8)
        wireRecord(RT->getDecl()->getDefinition(), Expr, Depth + 1);
  }

  void wireRecord(const RecordDecl *RD, const std::string &Base,
                  unsigned Depth) {
    if (!RD)
      return;
    for (const FieldDecl *F : RD->fields()) {
      if (F->isAnonymousStructOrUnion()) {
        if (const auto *RT = F->getType()->getAs<RecordType>())
          wireRecord(RT->getDecl()->getDefinition(), Base, Depth);
        continue;
      }
      if (F->getName().empty() || F->isBitField())
        continue;
      wireSlot(Base + "." + F->getName().str(), F->getType(), Depth);
    }
  }

  /// Points the pointer fields of the object of type ObjectTypes[I] at
  /// address Addr (an expression) to the objects of their types.
  void wireObject(unsigned I, const std::string &Addr) {
    QualType P = ObjectTypes[I];
    std::string TN = typeName(P);
    if (P->isPointerType()) {
      QualType Q = P->getPointeeType().getCanonicalType().getUnqualifiedType();
      if (!Q->isFunctionType() && !Q->isVoidType()) {
        Wire += formatv("  *(void **){0} = __crace_obj_{1};\n", Addr,
                        objectFor(Q));
        ++Stmts;
      }
      return;
    }
    if (TN.empty() || P->isIncompleteType())
      return;
    if (const auto *RT = P->getAs<RecordType>())
      wireRecord(RT->getDecl()->getDefinition(),
                 formatv("(*({0} *){1})", TN, Addr), 0);
  }

  /// Points the pointer fields of every object created so far (and of the
  /// ones this creates) to the objects of their types.
  void wireObjects() {
    while (!Pending.empty() && budget()) {
      unsigned I = Pending.front();
      Pending.pop_front();
      wireObject(I, formatv("__crace_obj_{0}", I));
    }
    if (!Pending.empty())
      Truncated = true;
  }

  /// --distinct-params: a function that wires a fresh object of type
  /// ObjectTypes[I] like the shared one (its pointer fields point to the
  /// shared kernel objects); its name.
  std::string wireFunction(unsigned I) {
    std::string Name = formatv("__crace_wire_{0}", I);
    if (!WireFunctions.insert(I).second)
      return Name;
    std::string SavedWire = std::move(Wire), SavedLate = std::move(WireLate);
    Wire.clear();
    WireLate.clear();
    wireObject(I, "__crace_o");
    WireFns += formatv("static void {0}(void *__crace_o) {{\n{1}{2}}\n", Name,
                       Wire, WireLate);
    Wire = std::move(SavedWire);
    WireLate = std::move(SavedLate);
    return Name;
  }

  /// The object a pointer parameter of pointee type Q gets: the shared
  /// kernel object, or with --distinct-params (when Prep is given) a fresh
  /// one made by the statements appended to Prep.
  std::string parameterObject(QualType Q, unsigned Param, std::string *Prep) {
    unsigned I = objectFor(Q);
    if (!Prep || !Opts.DistinctParams)
      return formatv("__crace_obj_{0}", I);
    std::string V = formatv("__crace_p{0}", Param);
    *Prep += formatv("    void *{0} = __crace_harness_object({1});\n", V,
                     ObjectSizes[I]);
    if (!Q->isVoidType())
      *Prep += formatv("    {0}({1});\n", wireFunction(I), V);
    return V;
  }

  /// The argument list the harness passes to F (Prep: see parameterObject).
  std::string arguments(const FunctionDecl *F, const std::string &Entry,
                        std::string *Prep = nullptr) {
    std::string Args;
    unsigned Param = 0;
    for (const ParmVarDecl *P : F->parameters()) {
      ++Param;
      if (!Args.empty())
        Args += ", ";
      QualType T = P->getType().getCanonicalType();
      std::string TN = typeName(P->getType());
      if (T->isPointerType()) {
        QualType Q = T->getPointeeType().getCanonicalType().getUnqualifiedType();
        if (Q->isFunctionType()) {
          Args += "0";
        } else if (isRegisteredType(Q)) {
          // The kernel's object of that type, or one the driver registered
          // (register_netdev's net_device, request_irq's dev_id, ...).
          Args += formatv("(__crace_nondet_int() ? (void *){0} : {1})",
                          parameterObject(Q, Param, Prep), registeredExpr(Q));
        } else {
          Args += formatv("(void *){0}", parameterObject(Q, Param, Prep));
        }
      } else if (T->isIntegralOrEnumerationType() || T->isRealFloatingType()) {
        Args += TN.empty() ? std::string("0")
                           : "(" + TN + ")__crace_nondet_longlong()";
      } else if (T->isRecordType() && !TN.empty()) {
        Args += formatv("*({0} *)__crace_obj_{1}", TN, objectFor(T));
      } else {
        Out.Reasons.push_back(formatv(
            "the harness cannot build argument '{0}' of entry point {1}",
            P->getName(), Entry));
        Args += "0";
      }
    }
    return Args;
  }

  void generate() {
    if (Funcs.empty())
      return;
    std::vector<Found *> Order;
    for (auto &[Name, F] : Funcs)
      Order.push_back(&F);
    auto Phase = [](EntryRole R) {
      return R == EntryRole::Init ? 0 : R == EntryRole::Entry ? 1 : 2;
    };
    std::stable_sort(Order.begin(), Order.end(), [&](Found *A, Found *B) {
      if (A->Role != B->Role)
        return Phase(A->Role) < Phase(B->Role);
      if (A->Order != B->Order)
        return A->Order < B->Order;
      return A->Seq < B->Seq;
    });
    std::vector<std::string> Inits, Exits, Rtnl, All;
    std::string Threads, Creates, Joins, InitCalls, ExitCalls;
    std::vector<std::string> Cases(Opts.Instances);
    unsigned K = 0;
    const unsigned N = Opts.Instances;
    // --not-concurrent f:g is exact with locks only per thread instance:
    // instance i of f and instance j of g share the lock (P, i, j), so f
    // excludes g while two instances of f (or of g) hold disjoint locks.
    // f:f is one lock that every instance of f takes.
    std::string PairLocks;
    for (unsigned P = 0; P < Opts.NotConcurrent.size(); ++P) {
      if (Opts.NotConcurrent[P].first == Opts.NotConcurrent[P].second) {
        PairLocks += formatv("static int __crace_not_concurrent_{0};\n", P);
        continue;
      }
      for (unsigned I = 0; I < N; ++I)
        for (unsigned J = 0; J < N; ++J)
          PairLocks +=
              formatv("static int __crace_not_concurrent_{0}_{1}_{2};\n", P, I, J);
    }
    for (Found *F : Order) {
      std::string Name = F->FD->getNameAsString();
      EntryPoint E;
      E.Function = Name;
      E.Role = F->Role;
      bool IsRtnl = F->Origins > 0 && F->RtnlOrigins == F->Origins;
      E.Group = IsRtnl ? "rtnl" : "";
      E.Origins = F->Where;
      Out.Entries.push_back(E);
      std::string Line = formatv("entry point {0} [{1}{2}]: ", Name,
                                 roleName(F->Role), IsRtnl ? ", rtnl" : "");
      for (size_t I = 0; I < F->Where.size(); ++I)
        Line += (I ? "; " : "") + F->Where[I];
      Out.Listing.push_back(Line);
      All.push_back(Name);
      bool Sequential = Opts.InitExitOrder && F->Role != EntryRole::Entry;
      std::string Prep;
      std::string Call = formatv("(void){0}({1});", Name,
                                 arguments(F->FD, Name,
                                           Sequential ? nullptr : &Prep));
      if (Sequential && F->Role == EntryRole::Init) {
        InitCalls += "  " + Call + "\n";
        Inits.push_back(Name);
        continue;
      }
      if (Sequential && F->Role == EntryRole::Exit) {
        ExitCalls += "  " + Call + "\n";
        Exits.push_back(Name);
        continue;
      }
      bool RtnlLock = IsRtnl && Opts.RtnlSerialised;
      if (RtnlLock)
        Rtnl.push_back(Name);
      bool PerInstance = false;
      for (const auto &[A, B] : Opts.NotConcurrent)
        PerInstance |= A != B && (A == Name || B == Name);
      // The call as thread instance I makes it, holding its locks in one
      // global order (no deadlock): the RTNL, then the pairs' locks.
      auto Body = [&](unsigned I) {
        std::vector<std::string> Locks;
        if (RtnlLock)
          Locks.push_back("__crace_linux_rtnl");
        for (unsigned P = 0; P < Opts.NotConcurrent.size(); ++P) {
          const auto &[A, B] = Opts.NotConcurrent[P];
          if (A == B) {
            if (A == Name)
              Locks.push_back(formatv("__crace_not_concurrent_{0}", P));
            continue;
          }
          for (unsigned J = 0; J < N; ++J) {
            if (A == Name)
              Locks.push_back(formatv("__crace_not_concurrent_{0}_{1}_{2}", P, I, J));
            if (B == Name)
              Locks.push_back(formatv("__crace_not_concurrent_{0}_{1}_{2}", P, J, I));
          }
        }
        std::sort(Locks.begin() + RtnlLock, Locks.end());
        Locks.erase(std::unique(Locks.begin(), Locks.end()), Locks.end());
        std::string Text = "  {\n" + Prep;
        for (const std::string &L : Locks)
          Text += "    __crace_lock(&" + L + ");\n";
        Text += "    " + Call + "\n";
        for (auto It = Locks.rbegin(); It != Locks.rend(); ++It)
          Text += "    __crace_unlock(&" + *It + ");\n";
        return Text + "  }\n";
      };
      if (Opts.Dispatch) {
        for (unsigned I = 0; I < N; ++I)
          Cases[I] += formatv("  case {0}:\n{1}    break;\n", K, Body(I));
        ++K;
        continue;
      }
      if (PerInstance) {
        // One thread function per instance (their locks differ).
        for (unsigned I = 0; I < N; ++I) {
          Threads += formatv(
              "static void *__crace_instance_{0}_{1}(void *__crace_unused) {{\n"
              "{2}  return 0;\n}\n",
              I, Name, Body(I));
          Creates += formatv("  unsigned long __crace_h{0}_{1};\n"
                             "  __crace_thread_create(&__crace_h{0}_{1}, "
                             "__crace_instance_{1}_{2}, 0);\n",
                             K, I, Name);
          Joins += formatv("  __crace_thread_join(__crace_h{0}_{1}, 0);\n", K, I);
        }
        ++K;
        continue;
      }
      Threads += formatv("static void *__crace_entry_{0}(void *__crace_unused) {{\n"
                         "{1}  return 0;\n}\n",
                         Name, Body(0));
      Creates += formatv(
          "  unsigned long __crace_h{0}[{1}];\n"
          "  for (__crace_i = 0; __crace_i < {1}; __crace_i++)\n"
          "    __crace_thread_create(&__crace_h{0}[__crace_i], "
          "__crace_entry_{2}, 0);\n",
          K, Opts.Instances, Name);
      Joins += formatv("  for (__crace_i = 0; __crace_i < {1}; __crace_i++)\n"
                       "    __crace_thread_join(__crace_h{0}[__crace_i], 0);\n",
                       K, Opts.Instances);
      ++K;
    }
    if (Opts.Dispatch && K > 0) {
      // The KISS paper's harness: each thread calls one entry point, chosen
      // nondeterministically (every pair, and every entry point with itself).
      // One function per thread: their --not-concurrent locks differ.
      for (unsigned I = 0; I < N; ++I) {
        Threads += formatv("static void *__crace_dispatch_{0}(void *__crace_unused) {{\n"
                           "  switch ((unsigned)__crace_nondet_int() % {1}u) {{\n"
                           "{2}  }\n  return 0;\n}\n",
                           I, K, Cases[I]);
        Creates += formatv("  unsigned long __crace_h_{0};\n"
                           "  __crace_thread_create(&__crace_h_{0}, "
                           "__crace_dispatch_{0}, 0);\n",
                           I);
        Joins += formatv("  __crace_thread_join(__crace_h_{0}, 0);\n", I);
      }
    }
    wireObjects();
    if (Truncated)
      Out.Reasons.push_back(formatv(
          "the kernel objects reachable from the entry points' parameters "
          "exceed the harness's bounds ({0} objects, {1} pointer fields): "
          "pointers read from the rest are not followed",
          Objects.size(), Stmts));

    std::string &T = Out.Text;
    T += "\n/* ---- crace driver harness (generated; docs/usage.md, "
         "\"Drivers\") ---- */\n";
    T += "#line 1 \"/crace-harness/harness.c\"\n";
    T += "void __crace_thread_create(void *, void *(*)(void *), void *);\n"
         "void __crace_thread_join(unsigned long, void **);\n"
         "void __crace_lock(void *);\n"
         "void __crace_unlock(void *);\n"
         "int __crace_nondet_int(void);\n"
         "long long __crace_nondet_longlong(void);\n"
         "void *__crace_harness_object(unsigned long);\n"
         "extern int __crace_linux_rtnl;\n"
         "extern void *__crace_linux_registered;\n"
         "static void *__crace_registered;\n";
    for (const std::string &S : UsedSlots)
      T += formatv("extern void *__crace_linux_registered_{0};\n"
                   "static void *__crace_registered_{0};\n",
                   S);
    T += Decls;
    T += PairLocks;
    T += WireFns;
    T += Threads;
    T += "int main(void) {\n  int __crace_i;\n";
    T += Alloc;
    T += "#line 1 \"/crace-harness/harness.c\"\n";
    T += Wire;
    T += InitCalls;
    // What init registered with the kernel (flow-insensitively: whatever is
    // ever registered) is passed back to the entry points.
    T += "  __crace_registered = __crace_linux_registered;\n";
    for (const std::string &S : UsedSlots)
      T += formatv("  __crace_registered_{0} = __crace_linux_registered_{0};\n", S);
    T += WireLate;
    T += Creates;
    T += Joins;
    T += ExitCalls;
    T += "  return 0;\n}\n";

    auto Join = [](const std::vector<std::string> &V) {
      std::string S;
      for (size_t I = 0; I < V.size(); ++I)
        S += (I ? ", " : "") + V[I];
      return S;
    };
    std::vector<std::string> Concurrent;
    for (const std::string &N : All)
      if (std::find(Inits.begin(), Inits.end(), N) == Inits.end() &&
          std::find(Exits.begin(), Exits.end(), N) == Exits.end())
        Concurrent.push_back(N);
    if (Opts.Dispatch)
      Out.Assumptions.push_back(formatv(
          "driver harness (dispatch): {1} threads each call one of the entry "
          "points {0}, chosen nondeterministically (every pair, and every "
          "entry point with itself, is checked); nothing else calls into the "
          "driver",
          Concurrent.empty() ? "(none)" : Join(Concurrent), Opts.Instances));
    else
      Out.Assumptions.push_back(formatv(
          "driver harness: the entry points {0} run concurrently, {1} "
          "instances each (every pair, and every entry point with itself, is "
          "checked); nothing else calls into the driver",
          Concurrent.empty() ? "(none)" : Join(Concurrent), Opts.Instances));
    for (const auto &[A, B] : Opts.NotConcurrent)
      Out.Assumptions.push_back(
          "harness constraint not-concurrent: " +
          (A == B ? A + " never runs concurrently with itself"
                  : A + " and " + B + " never run concurrently") +
          " (--not-concurrent or --harness-config)");
    if (Opts.InitExitOrder && (!Inits.empty() || !Exits.empty()))
      Out.Assumptions.push_back(formatv(
          "harness constraint init-exit: {0}{1}{2} (the kernel does not call "
          "the other entry points before probe/init returns or after "
          "remove/exit starts; --no-init-exit-order drops this)",
          Inits.empty() ? "" : Join(Inits) + " run first, in this order",
          !Inits.empty() && !Exits.empty() ? "; " : "",
          Exits.empty() ? "" : Join(Exits) + " run last, in this order"));
    if (!Rtnl.empty())
      Out.Assumptions.push_back(formatv(
          "harness constraint rtnl: {0} are called with the RTNL lock held "
          "(serialised with each other and with rtnl_lock(); --no-rtnl "
          "drops this)",
          Join(Rtnl)));
    if (Opts.DistinctParams)
      Out.Assumptions.push_back(
          "--distinct-params (WHOOP's non-aliasing assumption, not sound in "
          "general): each call of a concurrent entry point gets its own fresh "
          "kernel objects behind its pointer parameters, so the parameters "
          "of two entry points never alias; the pointer fields of those "
          "objects point to the shared kernel objects; objects the driver "
          "registered are still shared");
    else
      Out.Assumptions.push_back(
          "entry-point pointer parameters point to kernel objects, one per "
          "pointee type and shared by every entry point (parameters of one "
          "type may alias; objects of different types do not overlap, e.g. "
          "a struct device passed on its own is not the one inside a struct "
          "pci_dev)");
    Out.Assumptions.push_back(
        "void * parameters and parameters of the types in OpsTable.def's "
        "REGISTERED_TYPE (net_device, ...) may also point to an object the "
        "driver registered with the kernel (register_netdev, misc_register, "
        "request_irq, driver data, ...)");
    Out.Assumptions.push_back(
        "pointer fields of kernel objects point to the kernel object of "
        "their type (fields of a REGISTERED_TYPE type, e.g. bd_disk, may "
        "also point to an object the driver registered); void * fields hold "
        "what the driver registered or stores there; a lock inside a kernel "
        "object is one lock");
    if (Opts.IrqLock)
      Out.Assumptions.push_back(
          "local_irq_disable()/local_irq_save() sections exclude each other "
          "(a uniprocessor model; --no-irq-lock drops this)");
    Out.Assumptions.push_back(
        "the Linux models (models/linux/) describe the kernel: user memory "
        "behind copy_{to,from}_user/get_user/put_user is not checked, MMIO "
        "accessors (readl, writel, ...) are atomic device accesses, "
        "registration functions only register the callbacks listed as entry "
        "points");
    Out.Assumptions.push_back("every entry point returns (the harness joins "
                              "them before the exit entry points)");
    for (const std::string &S : NotOps)
      Out.Listing.push_back(formatv(
          "note: functions stored in globals of type 'struct {0}' are not "
          "entry points (not in src/frontend/OpsTable.def)",
          S));
    for (const std::string &S : Out.Skipped)
      Out.Listing.push_back("note: " + S);
    Out.Listing.push_back(formatv(
        "harness: {0} concurrent entry point(s) x {1} threads{6}, {2} kernel "
        "object(s); constraints: init-exit {3}, rtnl {4}, irq-lock {5}, "
        "not-concurrent pairs {7}, distinct-params {8}",
        Concurrent.size(), Opts.Instances, Objects.size(),
        Opts.InitExitOrder ? "on" : "off", Opts.RtnlSerialised ? "on" : "off",
        Opts.IrqLock ? "on" : "off",
        Opts.Dispatch ? " (dispatch: each thread calls one of them)" : "",
        Opts.NotConcurrent.size(), Opts.DistinctParams ? "on" : "off"));
  }

  ASTContext &Ctx;
  SourceManager &SM;
  PrintingPolicy PP;
  const DriverHarnessOptions &Opts;
  const std::vector<MacroCallback> &Macros;
  DriverHarness &Out;
  std::map<std::string, Found> Funcs;
  std::map<std::string, const FunctionDecl *> Definitions;
  std::set<std::string> NotOps;
  // Harness state.
  std::map<const void *, unsigned> Objects;
  std::vector<QualType> ObjectTypes;
  std::deque<unsigned> Pending;
  std::vector<std::string> ObjectSizes;
  std::set<unsigned> WireFunctions;
  std::set<std::string> UsedSlots;
  std::string Decls, Alloc, Wire, WireLate, WireFns;
  unsigned Stmts = 0;
  bool Truncated = false;
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
  void HandleDiagnostic(DiagnosticsEngine::Level, const Diagnostic &) override {}
};

} // namespace

Expected<DriverHarness>
buildDriverHarness(const std::string &File,
                   const tooling::CompilationDatabase &Db,
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
