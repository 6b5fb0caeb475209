//===- KissEngine.cpp - races found by KISS + bounded model checking -----===//
#include "engines/kiss/KissEngine.h"

#include "engines/bmc/Bmc.h"
#include "engines/kiss/KissTransform.h"
#include "model/ProgramModel.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;

namespace crace {

namespace {

struct Reporter {
  const ProgramModel &PM;
  const kiss::KissProgram &P;

  const Instruction *orig(const Instruction *I) const {
    auto It = P.ToOrig.find(I);
    return It == P.ToOrig.end() ? nullptr : It->second;
  }

  /// The thread running a block of the sequential program: the function
  /// entered by the innermost __kiss_run frame (none: main).
  std::string threadOf(const std::vector<const CallBase *> &Stack,
                       const BasicBlock *BB) const {
    const Function *Entry = nullptr;
    for (size_t I = 0; I < Stack.size(); ++I)
      if (Stack[I]->getFunction()->getName() == "__kiss_run")
        Entry = I + 1 < Stack.size() ? Stack[I + 1]->getFunction()
                                     : BB->getParent();
    if (!Entry)
      return "main";
    for (const ThreadTemplate &T : PM.threads())
      if (T.Entry && T.Entry->getName() == Entry->getName())
        return T.Name;
    return Entry->getName().str();
  }

  std::string variable(const kiss::SiteInfo &S) const {
    const PointsTo &PT = PM.pointsTo();
    uint32_t Obj = PT.objectOf(P.Targets[S.Target].G);
    for (const MemAccess &A : PM.accessesOf(*S.Orig))
      if (A.Ptr && A.Kind == S.Kind)
        for (const Loc &L : PT.pointsTo(A.Ptr))
          if (L.Obj == Obj)
            return PM.describe(L, S.Size);
    return P.Targets[S.Target].Name;
  }

  AccessInfo access(const kiss::SiteInfo &S, std::string Thread) const {
    AccessInfo A;
    A.Thread = std::move(Thread);
    A.Kind = S.Kind;
    A.Atomic = S.Atomic;
    A.Size = S.Size;
    A.Loc = PM.location(S.Orig);
    A.Variable = variable(S);
    return A;
  }

  static std::string kindName(const kiss::SiteInfo &S) {
    return std::string(S.Atomic ? "atomic " : "") +
           (S.Kind == AccessKind::Write ? "write" : "read");
  }

  /// The visible operations of the counterexample, in the order the
  /// sequential program ran them (which is an order of the concurrent one).
  std::vector<TraceStep> trace(const bmc::Counterexample &Cex) const {
    std::vector<TraceStep> Out;
    std::map<std::string, unsigned> Ids;
    auto IdOf = [&](const std::string &T) {
      if (T == "main")
        return 0u;
      return Ids.emplace(T, Ids.size() + 1).first->second;
    };
    for (const bmc::TraceStep &St : Cex.Steps) {
      std::string T = threadOf(St.CallStack, St.Block);
      if (auto It = P.SetBlocks.find(St.Block); It != P.SetBlocks.end()) {
        Out.push_back({T, IdOf(T), PM.location(It->second.Orig),
                       kindName(It->second) + " " + variable(It->second) +
                           " (the thread stops before it: the access is "
                           "pending)"});
        continue;
      }
      for (const Instruction &I : *St.Block) {
        const Instruction *OI = orig(&I);
        if (!OI)
          continue;
        std::string Action;
        if (const auto *CB = dyn_cast<CallBase>(OI)) {
          if (const Function *F = CB->getCalledFunction()) {
            StringRef N = F->getName();
            if (N.consume_front("__crace_") &&
                (N.starts_with("thread_") || N.contains("lock") ||
                 N.starts_with("atomic_") || N.starts_with("cond_") ||
                 N.starts_with("sem_") || N.starts_with("barrier_")))
              Action = N.str();
          }
        }
        if (Action.empty())
          for (const MemAccess &A : PM.accessesOf(*OI)) {
            if (A.Library || !A.Ptr)
              continue;
            for (const Loc &L : PM.pointsTo().pointsTo(A.Ptr))
              if (L.Obj != PointsTo::UnknownObj &&
                  PM.pointsTo().object(L.Obj).Shared &&
                  PM.pointsTo().object(L.Obj).Kind == ObjKind::Global) {
                Action = std::string(A.Kind == AccessKind::Write ? "write "
                                                                 : "read ") +
                         PM.describe(L, A.Size);
                break;
              }
            if (!Action.empty())
              break;
          }
        if (!Action.empty())
          Out.push_back({T, IdOf(T), PM.location(OI), Action});
      }
    }
    if (Out.size() > 200)
      Out.erase(Out.begin(), Out.end() - 200);
    return Out;
  }
};

} // namespace

Result KissEngine::run(const ProgramModel &PM, const EngineOptions &Opts) {
  Result R;
  R.Engine = "kiss";
  R.Program = Verdict::Unknown;
  auto Started = std::chrono::steady_clock::now();

  std::vector<kiss::Target> Targets = kiss::sharedGlobals(PM);
  if (!Opts.KissTarget.empty()) {
    std::vector<kiss::Target> Sel;
    for (const kiss::Target &T : Targets)
      if (T.Name == Opts.KissTarget)
        Sel.push_back(T);
    if (Sel.empty())
      if (const GlobalVariable *G =
              PM.module().getNamedGlobal(Opts.KissTarget);
          G && !G->isDeclaration())
        Sel.push_back({G, G->getName().str()});
    if (Sel.empty()) {
      R.Reasons.push_back("kiss: no global variable named '" +
                          Opts.KissTarget + "' to check");
      return R;
    }
    Targets = std::move(Sel);
  }
  kiss::KissOptions KO;
  KO.Max = Opts.KissMax;
  auto PorErr = kiss::transform(PM, Targets, KO);
  if (!PorErr) {
    R.Reasons.push_back("kiss: " + toString(PorErr.takeError()));
    return R;
  }
  kiss::KissProgram &P = *PorErr;
  R.stat("kiss_targets", double(Targets.size()));
  R.stat("kiss_schedule_points", double(P.SchedulePoints));
  R.stat("kiss_checks", double(P.Checks));
  if (!Opts.EmitSequential.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(Opts.EmitSequential, EC, sys::fs::OF_Text);
    if (EC) {
      R.Reasons.push_back("kiss: cannot write '" + Opts.EmitSequential +
                          "': " + EC.message());
      return R;
    }
    OS << "; KISS sequential program (crace), ts size " << KO.Max
       << "; targets:";
    for (const kiss::Target &T : Targets)
      OS << " " << T.Name;
    OS << "\n";
    P.M->print(OS, nullptr);
  }

  bmc::Options BO;
  BO.Unwind = Opts.Unwind;
  BO.Cancel = Opts.Cancelled;
  auto CkOrErr = bmc::Checker::create(*P.M, "main", BO);
  if (!CkOrErr) {
    R.Reasons.push_back("kiss: " + toString(CkOrErr.takeError()));
    return R;
  }
  bmc::Checker &Ck = **CkOrErr;
  Reporter Rep{PM, P};
  std::string Bounds = formatv("ts size {0}, unwind {1}", KO.Max, BO.Unwind);
  bool Race = false, AllSafe = true;
  std::vector<std::string> SafeTargets;
  for (unsigned T = 0; T < Targets.size(); ++T) {
    if (Opts.Cancelled && *Opts.Cancelled)
      break;
    if (Race && Opts.StopAtFirstRace)
      break;
    bool Any = false;
    for (const auto &[CB, S] : P.FailSites)
      Any |= S.Target == T;
    if (!Any)
      continue;
    bmc::Result BR = Ck.check([&](const CallBase &CB) {
      auto It = P.FailSites.find(&CB);
      return It != P.FailSites.end() && It->second.Target == T;
    });
    if (BR.S == bmc::Status::Safe) {
      SafeTargets.push_back(Targets[T].Name);
      continue;
    }
    if (BR.S == bmc::Status::Unknown || !BR.Cex) {
      AllSafe = false;
      for (const std::string &Why : BR.Reasons)
        R.Reasons.push_back("kiss (" + Targets[T].Name + "): " + Why);
      continue;
    }
    const bmc::Counterexample &Cex = *BR.Cex;
    auto FIt = P.FailSites.find(Cex.FailureCall);
    if (FIt == P.FailSites.end())
      continue;
    // The pending access: the last access recorded before the failure.
    const kiss::SiteInfo *First = nullptr;
    std::string FirstThread;
    for (const bmc::TraceStep &St : Cex.Steps)
      if (auto It = P.SetBlocks.find(St.Block);
          It != P.SetBlocks.end() && It->second.Target == T) {
        First = &It->second;
        FirstThread = Rep.threadOf(St.CallStack, St.Block);
      }
    if (!First) {
      AllSafe = false;
      R.Reasons.push_back("kiss (" + Targets[T].Name +
                          "): internal error: a failure without a recorded "
                          "access");
      continue;
    }
    Finding F;
    F.Kind = Verdict::Race;
    F.Category = FindingCategory::DataRace;
    F.Engine = "kiss";
    F.First = Rep.access(*First, FirstThread);
    std::string SecondThread =
        Rep.threadOf(Cex.FailureStack, Cex.FailureCall->getParent());
    F.Second = Rep.access(FIt->second, SecondThread);
    F.Trace = Rep.trace(Cex);
    F.Trace.push_back({SecondThread, 0, F.Second.Loc,
                       Reporter::kindName(FIt->second) + " " +
                           F.Second.Variable + " (races with the pending " +
                           Reporter::kindName(*First) + ")"});
    // (Finding::Schedule stays empty: it holds explore's replayable
    // schedules, which --trace-out writes.)
    R.Findings.push_back(std::move(F));
    Race = true;
  }

  // The program's own assertions (the KISS paper's second use).
  bool HasAsserts = false;
  for (const CallBase *CB : Ck.failureSites())
    if (!P.FailSites.count(CB))
      HasAsserts = true;
  if (HasAsserts && !(Opts.Cancelled && *Opts.Cancelled)) {
    bmc::Result BR =
        Ck.check([&](const CallBase &CB) { return !P.FailSites.count(&CB); });
    if (BR.S == bmc::Status::Unsafe && BR.Cex) {
      const bmc::Counterexample &Cex = *BR.Cex;
      Finding F;
      F.Kind = Verdict::Race;
      F.Category = FindingCategory::AssertionFailure;
      F.Engine = "kiss";
      F.First.Thread =
          Rep.threadOf(Cex.FailureStack, Cex.FailureCall->getParent());
      // The user's call: the outermost frame that maps to the program.
      const Instruction *OI = Rep.orig(Cex.FailureCall);
      for (const CallBase *CB : Cex.FailureStack)
        if (CB->getFunction()->getName() != "main" &&
            !CB->getFunction()->getName().starts_with("__kiss_run") &&
            !CB->getFunction()->getName().starts_with("__kiss_sched"))
          if (const Instruction *O = Rep.orig(CB);
              O && O->getDebugLoc() && !OI)
            OI = O;
      if (OI)
        F.First.Loc = PM.location(OI);
      F.First.Variable = "assertion";
      F.Trace = Rep.trace(Cex);
      R.Findings.push_back(std::move(F));
    } else if (BR.S == bmc::Status::Unknown) {
      for (const std::string &Why : BR.Reasons)
        R.Reasons.push_back("kiss (assertions): " + Why);
    }
  }

  const bmc::Stats &St = Ck.stats();
  R.stat("kiss_block_visits", St.BlockVisits);
  R.stat("kiss_encode_seconds", St.EncodeSeconds);
  R.stat("kiss_solve_seconds", St.SolveSeconds);
  R.stat("kiss_seconds", std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - Started)
                             .count());
  if (Opts.Cancelled && *Opts.Cancelled && !Race)
    R.Reasons.push_back("kiss: cancelled");
  if (Race) {
    R.Program = Verdict::Race;
    return R;
  }
  if (Targets.empty())
    R.Reasons.push_back("kiss: no shared global variable is written, so "
                        "there is no target to check (heap objects are not "
                        "targets yet)");
  if (AllSafe)
    R.Reasons.push_back(
        formatv("kiss: no race in the executions KISS explores (balanced "
                "executions, {0}); this does not prove race freedom",
                Bounds)
            .str());
  else if (!SafeTargets.empty())
    R.Reasons.push_back(formatv("kiss: no race on {0} in the executions "
                                "KISS explores ({1})",
                                llvm::join(SafeTargets, ", "), Bounds)
                            .str());
  return R;
}

} // namespace crace
