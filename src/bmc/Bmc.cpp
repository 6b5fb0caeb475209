//===- Bmc.cpp - queries, verdicts and counterexamples of the bmc core ----===//
//
// The Checker clones the module, normalises its loops, lets the Encoder
// build the formula into the base scope of one Z3 solver, and answers each
// check() with at most three queries (each in a push/pop scope of that
// solver with Options::Incremental, else on a fresh solver given the same
// base terms, which Z3 solves much faster):
//   1. a selected failure reachable without over-approximated values
//        → Unsafe, counterexample read from the model;
//   2. a selected failure reachable at all
//        → Unknown (the path uses havocked values);
//   3. any unwinding/recursion check, memory error, undefined behaviour or
//      unsupported construct reachable (independent of the filter, cached)
//        → Unknown with the reasons; otherwise Safe.
//
//===----------------------------------------------------------------------===//
#include "bmc/Bmc.h"
#include "bmc/Encoder.h"
#include "model/PassContext.h"
#include "smt/Solver.h"
#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"
#include "smt/Z3Reaper.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"

#include <chrono>

using namespace llvm;

namespace crace::bmc {

StringRef statusName(Status S) {
  switch (S) {
  case Status::Safe:
    return "safe";
  case Status::Unsafe:
    return "unsafe";
  case Status::Unknown:
    return "unknown";
  }
  return "unknown";
}

namespace {

double secondsSince(std::chrono::steady_clock::time_point T) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - T)
      .count();
}

/// LoopSimplify + LCSSA on every function of M (see Encoder.h for why).
void normaliseLoops(Module &M) {
  PassContext PC;
  FunctionPassManager FPM;
  FPM.addPass(LoopSimplifyPass());
  FPM.addPass(LCSSAPass());
  for (Function &F : M)
    if (!F.isDeclaration())
      FPM.run(F, PC.FAM);
}

} // namespace

struct Checker::Impl {
  Options Opts;
  std::unique_ptr<Module> Clone;
  /// Clone's instructions and blocks → the original module's.
  DenseMap<const Value *, const Value *> ToOrig;
  /// Deleted in the background (Z3Reaper.h): it outlives the members
  /// below, which ~Checker destroys first.
  std::unique_ptr<z3::context> ZOwner = std::make_unique<z3::context>();
  z3::context &Z = *ZOwner;
  /// Holds the encoding in its base scope (made by create()).
  std::unique_ptr<smt::Solver> Solver;
  std::unique_ptr<Encoder> E;
  std::optional<std::string> Aborted;
  Stats St;
  /// Verdict of the filter-independent query 3, once asked.
  std::optional<std::pair<Status, std::vector<std::string>>> Blocking;
  std::string LastUnknown;
  /// A query stopped because the work budget was spent.
  bool WorkRanOut = false;

  template <typename T> const T *orig(const T *V) const {
    auto It = ToOrig.find(V);
    return It == ToOrig.end() ? nullptr : cast<T>(It->second);
  }
  std::vector<const CallBase *>
  origStack(const std::vector<const CallBase *> &S) const {
    std::vector<const CallBase *> R;
    for (const CallBase *C : S)
      if (const CallBase *O = orig(C))
        R.push_back(O);
    return R;
  }

  /// Solves Query in a push/pop scope; OnSat reads the model before the pop.
  smt::Answer solve(const z3::expr &Query,
                    const std::function<void(z3::model &)> &OnSat) {
    auto T0 = std::chrono::steady_clock::now();
    ++St.Queries;
    Solver->push();
    Solver->add(Query);
    smt::Answer A = Solver->check();
    if (A == smt::Answer::Sat) {
      z3::model Mdl = Solver->model();
      OnSat(Mdl);
    } else if (A == smt::Answer::Unknown) {
      LastUnknown = Solver->reasonUnknown();
      WorkRanOut |= Solver->lastWasCut();
    }
    Solver->pop();
    St.SolveSeconds += secondsSince(T0);
    return A;
  }

  std::string unknownReason(const char *Query) {
    if (Opts.Cancel && Opts.Cancel->load())
      return "cancelled";
    if (WorkRanOut)
      return WorkBudgetRanOut;
    return std::string("solver gave no answer on the ") + Query + " query (" +
           LastUnknown + ")";
  }

  Counterexample counterexample(z3::model &Mdl, const Event &Ev) {
    auto True = [&](const z3::expr &G) {
      return Mdl.eval(G, /*model_completion=*/true).is_true();
    };
    Counterexample C;
    C.FailureCall = orig(cast<CallBase>(Ev.At));
    C.FailureLocation = location(Ev.At);
    C.FailureStack = origStack(Ev.Stack);
    for (const VisitRecord &V : E->Visits)
      if (True(V.Guard))
        if (const BasicBlock *BB = orig(V.Block))
          C.Steps.push_back({BB, origStack(V.Stack)});
    for (const NondetRecord &N : E->Nondets) {
      if (!True(N.Guard))
        continue;
      z3::expr V = Mdl.eval(N.Value, true);
      unsigned Bits = V.get_sort().bv_size();
      NondetValue NV;
      NV.Call = N.Call ? orig(N.Call) : nullptr;
      NV.Name = N.Name;
      NV.Location = N.Call ? location(N.Call) : "entry";
      NV.Value = V.is_numeral() ? APInt(Bits, Z3_get_numeral_string(Z, V), 10)
                                : APInt(Bits, 0);
      C.Inputs.push_back(std::move(NV));
    }
    return C;
  }
};

Checker::Checker() : P(std::make_unique<Impl>()) {}
Checker::~Checker() {
  // Everything that refers to the context (solver, encoding) and the LLVM
  // clone (LLVM is not thread-safe) goes here; the context, whose deletion
  // takes long, in the background.
  if (P->Opts.Work)
    P->Opts.Work->detach(); // its reader is a solver of this context
  std::unique_ptr<z3::context> Ctx = std::move(P->ZOwner);
  P.reset();
  deleteInBackground(std::move(Ctx));
}

Expected<std::unique_ptr<Checker>>
Checker::create(const Module &M, StringRef Entry, Options Opts) {
  const Function *EF = M.getFunction(Entry);
  if (!EF || EF->isDeclaration())
    return createStringError(inconvertibleErrorCode(),
                             "bmc: no function '%s' with a body",
                             Entry.str().c_str());
  std::unique_ptr<Checker> C(new Checker());
  Impl &I = *C->P;
  I.Opts = std::move(Opts);
  smt::SolverOptions SO;
  SO.Stage = "bmc";
  // A fresh solver over the same terms per query, unless incremental:
  // Z3's non-incremental pipeline (simplification, bit-blasting) is much
  // faster on these formulas than its incremental core.
  SO.FreshPerCheck = !I.Opts.Incremental;
  SO.KeepInZ3 = true;
  SO.TimeoutMs = I.Opts.SolverTimeoutMs;
  SO.Work = I.Opts.Work; // what the work budget has left: the query stops there
  SO.Cancel = I.Opts.Cancel;
  SO.LogDir = I.Opts.SmtLogDir;
  I.Solver = smt::makeSolver(I.Z, std::move(SO));
  auto T0 = std::chrono::steady_clock::now();
  // Cloning and normalising count as a step per instruction of the module,
  // charged before they start: a budget that cannot pay for them stops
  // here, not after them.
  if (I.Opts.Work) {
    I.Opts.Work->attach(I.Z);
    if (I.Opts.Work->step(M.getInstructionCount())) {
      I.Aborted = WorkBudgetRanOut;
      I.St.EncodeSeconds = secondsSince(T0);
      return std::move(C);
    }
  }
  ValueToValueMapTy VMap;
  I.Clone = CloneModule(M, VMap);
  for (const Function &F : M)
    for (const BasicBlock &BB : F) {
      if (auto It = VMap.find(&BB); It != VMap.end() && It->second)
        I.ToOrig[It->second] = &BB;
      for (const Instruction &Inst : BB)
        if (auto It = VMap.find(&Inst); It != VMap.end() && It->second)
          I.ToOrig[It->second] = &Inst;
    }
  // Cloning and loop normalisation of a large module take seconds: stop
  // before encoding when the budget ran out meanwhile.
  auto Cancelled = [&] { return I.Opts.Cancel && I.Opts.Cancel->load(); };
  if (!Cancelled())
    normaliseLoops(*I.Clone);
  if (Cancelled()) {
    I.Aborted = "cancelled";
    I.E = std::make_unique<Encoder>(I.Z, *I.Solver, *I.Clone, I.Opts);
    I.St.EncodeSeconds = secondsSince(T0);
    return std::move(C);
  }
  I.E = std::make_unique<Encoder>(I.Z, *I.Solver, *I.Clone, I.Opts);
  try {
    I.E->run(*I.Clone->getFunction(Entry));
  } catch (const EncodingAborted &A) {
    I.Aborted = A.Reason;
  } catch (const z3::exception &X) {
    I.Aborted = std::string("Z3 error while encoding: ") + X.msg();
  }
  I.St.EncodeSeconds = secondsSince(T0);
  I.St.BlockVisits = I.E->blockVisits();
  I.St.Events = unsigned(I.E->Events.size());
  return std::move(C);
}

std::vector<const CallBase *> Checker::failureSites() const {
  std::vector<const CallBase *> R;
  if (!P->E) // stopped before encoding (the work budget)
    return R;
  for (const Event &Ev : P->E->Events)
    if (Ev.Kind == EventKind::Failure)
      if (const CallBase *C = P->orig(cast<CallBase>(Ev.At)))
        if (std::find(R.begin(), R.end(), C) == R.end())
          R.push_back(C);
  return R;
}

const Stats &Checker::stats() const { return P->St; }

Result Checker::check(const FailureSiteFilter &Filter) {
  Impl &I = *P;
  Result R;
  if (I.Aborted) {
    R.Reasons.push_back(*I.Aborted);
    return R;
  }
  if (I.Opts.Cancel && I.Opts.Cancel->load()) {
    R.Reasons.push_back("cancelled");
    return R;
  }
  if (I.Opts.Work && I.Opts.Work->exhausted()) {
    R.Reasons.push_back(WorkBudgetRanOut);
    return R;
  }
  z3::context &Z = I.Z;
  std::vector<const Event *> Selected;
  z3::expr Any = Z.bool_val(false), Clean = Z.bool_val(false);
  for (const Event &Ev : I.E->Events) {
    if (Ev.Kind != EventKind::Failure)
      continue;
    const CallBase *C = I.orig(cast<CallBase>(Ev.At));
    if (Filter && (!C || !Filter(*C)))
      continue;
    Selected.push_back(&Ev);
    Any = Any || Ev.Guard;
    Clean = Clean || (Ev.Guard && !Ev.Havoc);
  }

  // 1. A failure without over-approximation: a real counterexample.
  if (!Selected.empty()) {
    smt::Answer Q = I.solve(Clean, [&](z3::model &Mdl) {
      for (const Event *Ev : Selected)
        if (Mdl.eval(Ev->Guard && !Ev->Havoc, true).is_true()) {
          R.Cex = I.counterexample(Mdl, *Ev);
          R.Reasons.push_back(Ev->Reason);
          break;
        }
    });
    if (Q == smt::Answer::Sat) {
      R.S = Status::Unsafe;
      R.Assumptions.push_back("loops unwound at most " +
                              std::to_string(I.Opts.Unwind) +
                              " times on the counterexample path");
      return R;
    }
    if (Q == smt::Answer::Unknown) {
      R.Reasons.push_back(I.unknownReason("failure"));
      return R;
    }
    // 2. A failure only through havocked values.
    std::vector<std::string> Why;
    Q = I.solve(Any, [&](z3::model &Mdl) {
      for (const Event *Ev : Selected)
        if (Mdl.eval(Ev->Guard, true).is_true()) {
          Why.push_back(Ev->Reason + " is reachable, but only through "
                                     "over-approximated values:");
          break;
        }
      for (const HavocSite &H : I.E->Havocs)
        if (Mdl.eval(H.Guard, true).is_true() && Why.size() < 6)
          Why.push_back("  " + H.Reason);
    });
    if (Q == smt::Answer::Sat) {
      R.Reasons = std::move(Why);
      return R;
    }
    if (Q == smt::Answer::Unknown) {
      R.Reasons.push_back(I.unknownReason("failure"));
      return R;
    }
  }

  // 3. Everything that cut a path must be unreachable for Safe.
  if (!I.Blocking) {
    z3::expr Blocked = Z.bool_val(false);
    for (const Event &Ev : I.E->Events)
      if (Ev.Kind != EventKind::Failure)
        Blocked = Blocked || Ev.Guard;
    std::vector<std::string> Why;
    smt::Answer Q = I.solve(Blocked, [&](z3::model &Mdl) {
      for (const Event &Ev : I.E->Events)
        if (Ev.Kind != EventKind::Failure &&
            Mdl.eval(Ev.Guard, true).is_true() &&
            std::find(Why.begin(), Why.end(), Ev.Reason) == Why.end() &&
            Why.size() < 5)
          Why.push_back(Ev.Reason);
    });
    if (Q == smt::Answer::Sat)
      I.Blocking = {Status::Unknown, Why};
    else if (Q == smt::Answer::Unsat)
      I.Blocking = {Status::Safe, {}};
    else
      return Result{Status::Unknown, {I.unknownReason("bound")}, {}, {}};
  }
  R.S = I.Blocking->first;
  R.Reasons = I.Blocking->second;
  if (R.S == Status::Safe) {
    R.Assumptions = {
        "every loop exits within " + std::to_string(I.Opts.Unwind) +
            " iterations and recursion stays within depth " +
            std::to_string(I.Opts.RecursionBound) +
            " (unwinding checks proved unreachable)",
        "integer arithmetic wraps around (two's complement); signed "
        "overflow is not reported",
        "memory allocation never fails",
        "uninitialised variables and memory hold arbitrary values",
        "library functions behave as crace's models"};
  }
  return R;
}

std::string Checker::describe(const Result &R) {
  std::string S;
  raw_string_ostream OS(S);
  OS << statusName(R.S) << "\n";
  for (const std::string &X : R.Reasons)
    OS << "  reason: " << X << "\n";
  for (const std::string &X : R.Assumptions)
    OS << "  assuming: " << X << "\n";
  if (R.Cex) {
    OS << "  failure at " << R.Cex->FailureLocation << "\n";
    for (const NondetValue &N : R.Cex->Inputs)
      OS << "  input " << N.Name << " at " << N.Location << " = "
         << llvm::toString(N.Value, 10, true) << "\n";
    OS << "  path:";
    for (const TraceStep &T : R.Cex->Steps)
      OS << " " << T.Block->getParent()->getName() << ":"
         << (T.Block->hasName() ? T.Block->getName() : "bb");
    OS << "\n";
  }
  return S;
}

Result check(const Module &M, StringRef Entry, const Options &Opts) {
  auto C = Checker::create(M, Entry, Opts);
  if (!C) {
    Result R;
    R.Reasons.push_back(llvm::toString(C.takeError()));
    return R;
  }
  return (*C)->check();
}

} // namespace crace::bmc
