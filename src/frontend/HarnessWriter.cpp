//===- HarnessWriter.cpp - the driver harness as C text -------------------===//
//
// The second half of driver mode (EntryPoints.cpp finds the entry points):
// writes the harness that calls them (docs/usage.md, "Drivers") as C text
// appended to the driver's translation unit: kernel objects for the entry
// points' parameters, wired to each other by type; one thread per entry
// point and instance (or the KISS paper's dispatch threads); the
// constraints (init-exit order, RTNL, not-concurrent pairs); and the
// assumptions these make, printed with every verdict.
//
//===----------------------------------------------------------------------===//
#include "frontend/HarnessWriter.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include <algorithm>
#include <deque>

using namespace clang;
using namespace llvm;

namespace crace::harness {

std::string recordName(const RecordDecl *RD) {
  if (!RD)
    return "";
  if (!RD->getName().empty())
    return RD->getName().str();
  if (const TypedefNameDecl *T = RD->getTypedefNameForAnonDecl())
    return T->getName().str();
  return "";
}

namespace {

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

const char *roleName(EntryRole R) {
  return R == EntryRole::Init   ? "init"
         : R == EntryRole::Exit ? "exit"
                                : "entry";
}

/// Writes the harness for the entry points found in one translation unit.
class HarnessWriter {
public:
  using Found = FoundEntry;
  HarnessWriter(ASTContext &Ctx, const DriverHarnessOptions &Opts,
                const std::map<std::string, Found> &Funcs,
                const std::set<std::string> &NotOps, DriverHarness &Out)
      : Ctx(Ctx), PP(Ctx.getPrintingPolicy()), Opts(Opts), Funcs(Funcs),
        NotOps(NotOps), Out(Out) {
    PP.SuppressTagKeyword = false;
  }

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
        S.find("struct (") != std::string::npos ||
        S.find('<') != std::string::npos)
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
    std::string Label = !TN.empty()    ? TN
                        : Opts.Library ? "object"
                                       : "kernel object";
    for (char &C : Label)
      if (C == '"' || C == '\\')
        C = '_';
    ObjectSizes.push_back(Sized ? "sizeof(" + TN + ") + 4096"
                                : std::string("4096"));
    Decls += formatv("static void *__crace_obj_{0};\n", I);
    std::string Make = formatv("__crace_harness_object({0})", ObjectSizes[I]);
    if (Opts.Library && !TN.empty()) {
      // One object per type for every unit of the library: a weak global
      // named after the type, made by the first unit that needs it.
      std::string Shared = "__crace_lobj_" + mangle(TN);
      Decls += "__attribute__((weak)) void *" + Shared + ";\n";
      Make = formatv("({0} ? {0} : ({0} = {1}))", Shared, Make);
    }
    Alloc += formatv("#line {0} \"/crace-harness/{4}{1}\"\n"
                     "  __crace_obj_{3} = {2};\n",
                     I + 1, Label, Make, I, Opts.Library ? "library/" : "");
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
      if (Q->isVoidType() && Opts.Library) {
        // A library's void * fields: the untyped harness object.
        Wire += formatv("  *(void **)&({0}) = __crace_obj_{1};\n", Expr,
                        objectFor(Q));
        ++Stmts;
        return;
      }
      if (Q->isVoidType()) {
        // void * fields: what the driver registered (misc_register's
        // miscdevice in file->private_data, ...) or stores there itself.
        WireLate += formatv("  *(void **)&({0}) = __crace_registered;\n", Expr);
        ++Stmts;
        return;
      }
      unsigned J = objectFor(Q);
      if (!Opts.Library && isRegisteredType(Q))
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
    // A library's objects of the C library's types (pthread_mutex_t, FILE)
    // stay zero-filled: their pointer fields are the C library's own.
    if (Opts.Library &&
        Ctx.getSourceManager().isInSystemHeader(RD->getLocation()))
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
        Wire +=
            formatv("  *(void **){0} = __crace_obj_{1};\n", Addr, objectFor(Q));
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
        QualType Q =
            T->getPointeeType().getCanonicalType().getUnqualifiedType();
        if (Q->isFunctionType()) {
          Args += "0";
        } else if (!Opts.Library && isRegisteredType(Q)) {
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

  void write() {
    if (Funcs.empty())
      return;
    std::vector<const Found *> Order;
    for (auto &[Name, F] : Funcs)
      Order.push_back(&F);
    auto Phase = [](EntryRole R) {
      return R == EntryRole::Init ? 0 : R == EntryRole::Entry ? 1 : 2;
    };
    std::stable_sort(Order.begin(), Order.end(),
                     [&](const Found *A, const Found *B) {
                       if (A->Role != B->Role)
                         return Phase(A->Role) < Phase(B->Role);
                       if (A->Order != B->Order)
                         return A->Order < B->Order;
                       return A->Seq < B->Seq;
                     });
    std::vector<std::string> Inits, Exits, Rtnl, All;
    std::string Threads, Creates, Joins, InitCalls, ExitCalls;
    // A thread handle's declaration: a local of main in driver mode; in
    // library mode a static of the unit, for its start and join functions.
    auto Handle = [&](const std::string &Decl) {
      if (Opts.Library)
        HandleDecls += "static " + Decl;
      else
        Creates += "  " + Decl;
    };
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
        PairLocks +=
            formatv("{1} __crace_not_concurrent_{0};\n", P, sharedInt());
        continue;
      }
      for (unsigned I = 0; I < N; ++I)
        for (unsigned J = 0; J < N; ++J)
          PairLocks += formatv("{3} __crace_not_concurrent_{0}_{1}_{2};\n", P,
                               I, J, sharedInt());
    }
    for (const Found *F : Order) {
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
      std::string Call =
          formatv("(void){0}({1});", Name,
                  arguments(F->FD, Name, Sequential ? nullptr : &Prep));
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
              Locks.push_back(
                  formatv("__crace_not_concurrent_{0}_{1}_{2}", P, I, J));
            if (B == Name)
              Locks.push_back(
                  formatv("__crace_not_concurrent_{0}_{1}_{2}", P, J, I));
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
          Handle(formatv("unsigned long __crace_h{0}_{1};\n", K, I));
          Creates += formatv("  __crace_thread_create(&__crace_h{0}_{1}, "
                             "__crace_instance_{1}_{2}, 0);\n",
                             K, I, Name);
          Joins +=
              formatv("  __crace_thread_join(__crace_h{0}_{1}, 0);\n", K, I);
        }
        ++K;
        continue;
      }
      Threads +=
          formatv("static void *__crace_entry_{0}(void *__crace_unused) {{\n"
                  "{1}  return 0;\n}\n",
                  Name, Body(0));
      Handle(formatv("unsigned long __crace_h{0}[{1}];\n", K, Opts.Instances));
      Creates += formatv("  for (__crace_i = 0; __crace_i < {1}; __crace_i++)\n"
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
        Threads += formatv(
            "static void *__crace_dispatch_{0}(void *__crace_unused) {{\n"
            "  switch ((unsigned)__crace_nondet_int() % {1}u) {{\n"
            "{2}  }\n  return 0;\n}\n",
            I, K, Cases[I]);
        Handle(formatv("unsigned long __crace_h_{0};\n", I));
        Creates += formatv("  __crace_thread_create(&__crace_h_{0}, "
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
    T += Opts.Library ? "\n/* ---- crace library harness (generated; "
                        "docs/usage.md, \"Libraries\") ---- */\n"
                      : "\n/* ---- crace driver harness (generated; "
                        "docs/usage.md, \"Drivers\") ---- */\n";
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
    T += HandleDecls;
    T += WireFns;
    T += Threads;
    if (Opts.Library)
      // main (written by the front end once every unit is known) calls
      // every unit's setup, then every unit's start, then every join: the
      // shared objects are made and wired before any thread exists.
      T += formatv("void __crace_library_setup_{0}(void) {{\n",
                   Opts.LibraryUnit);
    else
      T += "int main(void) {\n  int __crace_i;\n";
    T += Alloc;
    T += "#line 1 \"/crace-harness/harness.c\"\n";
    T += Wire;
    T += InitCalls;
    // What init registered with the kernel (flow-insensitively: whatever is
    // ever registered) is passed back to the entry points.
    if (!Opts.Library)
      T += "  __crace_registered = __crace_linux_registered;\n";
    for (const std::string &S : UsedSlots)
      T += formatv("  __crace_registered_{0} = __crace_linux_registered_{0};\n",
                   S);
    T += WireLate;
    if (Opts.Library)
      T += formatv("}\nvoid __crace_library_start_{0}(void) {{\n"
                   "  int __crace_i;\n",
                   Opts.LibraryUnit);
    T += Creates;
    if (Opts.Library)
      T += formatv("}\nvoid __crace_library_join_{0}(void) {{\n"
                   "  int __crace_i;\n",
                   Opts.LibraryUnit);
    T += Joins;
    T += ExitCalls;
    T += Opts.Library ? "  (void)__crace_i;\n}\n" : "  return 0;\n}\n";

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
    // Library mode: the front end writes this line once for all units
    // (libraryHarnessAssumption in Frontend.cpp).
    if (!Opts.Library) {
      if (Opts.Dispatch)
        Out.Assumptions.push_back(formatv(
            "driver harness (dispatch): {1} threads each call one of the "
            "entry points {0}, chosen nondeterministically (every pair, and "
            "every entry point with itself, is checked); nothing else calls "
            "into the driver",
            Concurrent.empty() ? "(none)" : Join(Concurrent), Opts.Instances));
      else
        Out.Assumptions.push_back(formatv(
            "driver harness: the entry points {0} run concurrently, {1} "
            "instances each (every pair, and every entry point with itself, "
            "is checked); nothing else calls into the driver",
            Concurrent.empty() ? "(none)" : Join(Concurrent), Opts.Instances));
    }
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
    if (Opts.Library)
      libraryAssumptions();
    else
      driverAssumptions();
    Out.Assumptions.push_back(
        Opts.Library ? "every entry point returns (the harness joins them)"
                     : "every entry point returns (the harness joins them "
                       "before the exit entry points)");
    for (const std::string &S : NotOps)
      Out.Listing.push_back(formatv(
          "note: functions stored in globals of type 'struct {0}' are not "
          "entry points (not in src/frontend/OpsTable.def)",
          S));
    for (const std::string &S : Out.Skipped)
      Out.Listing.push_back("note: " + S);
    if (Opts.Library)
      Out.Listing.push_back(formatv(
          "harness: {0} concurrent entry point(s) x {1} threads{2}, {3} "
          "object(s); constraints: not-concurrent pairs {4}, distinct-params "
          "{5}",
          Concurrent.size(), Opts.Instances,
          Opts.Dispatch ? " (dispatch: each thread calls one of them)" : "",
          Objects.size(), Opts.NotConcurrent.size(),
          Opts.DistinctParams ? "on" : "off"));
    else
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

private:
  /// The type of a harness lock: private to the unit in driver mode, one
  /// for every unit of a library.
  const char *sharedInt() const {
    return Opts.Library ? "__attribute__((weak)) int" : "static int";
  }

  /// TN as part of a C identifier: letters and digits kept, '_' doubled,
  /// any other character as _XX (its hex code), so names stay distinct.
  static std::string mangle(StringRef TN) {
    std::string S;
    for (char C : TN) {
      if (llvm::isAlnum(C))
        S += C;
      else if (C == '_')
        S += "__";
      else
        S += formatv("_{0:x-2}", unsigned((unsigned char)C)).str();
    }
    return S;
  }

  /// What driver mode's harness assumes of the kernel.
  void driverAssumptions() {
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
  }

  /// What library mode's harness assumes of the library's callers.
  void libraryAssumptions() {
    if (Opts.DistinctParams)
      Out.Assumptions.push_back(
          "--distinct-params (not sound in general): each call of an entry "
          "point gets its own fresh objects behind its pointer parameters, "
          "so the parameters of two calls never alias; the pointer fields "
          "of those objects point to the shared objects");
    else
      Out.Assumptions.push_back(
          "entry-point pointer parameters point to objects the harness "
          "allocates, one per pointee type and shared by every call "
          "(parameters of one type may alias; objects of different types do "
          "not overlap); void * parameters and fields point to one untyped "
          "object");
    Out.Assumptions.push_back(
        "the harness's objects start zero-filled (a zeroed pthread mutex is "
        "an unlocked one), not as the library's own functions would set "
        "them up; their pointer fields point to the object of their type; a "
        "lock inside an object is one lock; integer arguments are any "
        "value; function-pointer arguments are null");
  }

  ASTContext &Ctx;
  PrintingPolicy PP;
  const DriverHarnessOptions &Opts;
  const std::map<std::string, Found> &Funcs;
  const std::set<std::string> &NotOps;
  DriverHarness &Out;
  std::map<const void *, unsigned> Objects;
  std::vector<QualType> ObjectTypes;
  std::deque<unsigned> Pending;
  std::vector<std::string> ObjectSizes;
  std::set<unsigned> WireFunctions;
  std::set<std::string> UsedSlots;
  std::string Decls, Alloc, Wire, WireLate, WireFns, HandleDecls;
  unsigned Stmts = 0;
  bool Truncated = false;
};

} // namespace

void writeHarness(ASTContext &Ctx, const DriverHarnessOptions &Opts,
                  const std::map<std::string, FoundEntry> &Funcs,
                  const std::set<std::string> &NotOps, DriverHarness &Out) {
  HarnessWriter(Ctx, Opts, Funcs, NotOps, Out).write();
}

} // namespace crace::harness
