//===- KissTransform.cpp - KISS sequentialisation (see KissTransform.h) ---===//
#include "engines/kiss/KissTransform.h"
#include "engines/WorkBudget.h"
#include "engines/bmc/WorkMeter.h"

#include "analysis/PointsTo.h"
#include "engines/kiss/Rounds.h"

#include "llvm/ADT/MapVector.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace crace::kiss {

namespace {

/// The scheduler, thread table and lock table of the sequential program,
/// as LLVM IR text (H: bits of a thread handle, Max: slots of ts, NT:
/// thread ids, L: lock table slots). Helpers are external while linking and
/// made internal afterwards.
std::string runtimeIR(unsigned H, unsigned Max, unsigned NT, unsigned L) {
  std::string S;
  raw_string_ostream OS(S);
  std::string IH = "i" + std::to_string(H);
  auto Arr = [](unsigned N, StringRef T) {
    return formatv("[{0} x {1}]", N, T).str();
  };
  auto Gep = [&](StringRef Name, unsigned N, StringRef T, StringRef IdxTy,
                 StringRef Idx, StringRef Res) {
    OS << formatv("  {0} = getelementptr {1}, ptr @{2}, i32 0, {3} {4}\n",
                  Res, Arr(N, T), Name, IdxTy, Idx);
  };
  OS << "@__kiss_raise = global i1 false\n"
     << "@__kiss_atomic = global i1 false\n"
     << "@__kiss_self = global " << IH << " 0\n"
     << "@__kiss_next = global " << IH << " 0\n"
     << "@__kiss_ts_used = global " << Arr(Max, "i1") << " zeroinitializer\n"
     << "@__kiss_ts_fn = global " << Arr(Max, "ptr") << " zeroinitializer\n"
     << "@__kiss_ts_arg = global " << Arr(Max, "ptr") << " zeroinitializer\n"
     << "@__kiss_ts_id = global " << Arr(Max, IH) << " zeroinitializer\n"
     << "@__kiss_done = global " << Arr(NT, "i1") << " zeroinitializer\n"
     << "@__kiss_result = global " << Arr(NT, "ptr") << " zeroinitializer\n"
     << "@__kiss_locks = global " << Arr(L, "ptr") << " zeroinitializer\n"
     << "declare i32 @__crace_nondet_int()\n"
     << "declare void @__crace_assume(i32)\n"
     << "declare void @__crace_bmc_fail()\n\n";
  OS << "define i1 @__kiss_nondet() {\n"
        "  %v = call i32 @__crace_nondet_int()\n"
        "  %b = icmp ne i32 %v, 0\n  ret i1 %b\n}\n";
  OS << "define void @__kiss_assume(i1 %c) {\n"
        "  %z = zext i1 %c to i32\n"
        "  call void @__crace_assume(i32 %z)\n  ret void\n}\n";
  // Runs one thread to completion or to its RAISE.
  OS << "define void @__kiss_run(ptr %fn, ptr %arg, " << IH << " %id) {\n"
     << "  %saved = load " << IH << ", ptr @__kiss_self\n"
     << "  store " << IH << " %id, ptr @__kiss_self\n"
     << "  %r = call ptr %fn(ptr %arg)\n"
     << "  %rz = load i1, ptr @__kiss_raise\n"
     << "  br i1 %rz, label %out, label %fin\nfin:\n";
  Gep("__kiss_done", NT, "i1", IH, "%id", "%d");
  OS << "  store i1 true, ptr %d\n";
  Gep("__kiss_result", NT, "ptr", IH, "%id", "%rp");
  OS << "  store ptr %r, ptr %rp\n  br label %out\nout:\n"
     << "  store i1 false, ptr @__kiss_raise\n"
     << "  store i1 false, ptr @__kiss_atomic\n"
     << "  store " << IH << " %saved, ptr @__kiss_self\n  ret void\n}\n";
  // schedule(): Max rounds; each may run one thread of ts.
  OS << "define void @__kiss_schedule() {\nentry:\n"
     << "  %a = load i1, ptr @__kiss_atomic\n"
     << "  br i1 %a, label %done, label %it0\n";
  for (unsigned K = 0; K < Max; ++K) {
    OS << formatv("it{0}:\n  br label %it{0}s0\n", K);
    for (unsigned J = 0; J < Max; ++J) {
      std::string B = formatv("{0}s{1}", K, J).str();
      std::string Next =
          J + 1 < Max ? formatv("it{0}s{1}", K, J + 1).str()
                      : formatv("it{0}", K + 1).str();
      OS << formatv("it{0}:\n", B);
      Gep("__kiss_ts_used", Max, "i1", "i32", std::to_string(J), "%up" + B);
      OS << formatv("  %u{0} = load i1, ptr %up{0}\n"
                    "  br i1 %u{0}, label %c{0}, label %{1}\n"
                    "c{0}:\n  %g{0} = call i1 @__kiss_nondet()\n"
                    "  br i1 %g{0}, label %run{0}, label %{1}\nrun{0}:\n"
                    "  store i1 false, ptr %up{0}\n",
                    B, Next);
      Gep("__kiss_ts_fn", Max, "ptr", "i32", std::to_string(J), "%fp" + B);
      Gep("__kiss_ts_arg", Max, "ptr", "i32", std::to_string(J), "%ap" + B);
      Gep("__kiss_ts_id", Max, IH, "i32", std::to_string(J), "%ip" + B);
      OS << formatv("  %f{0} = load ptr, ptr %fp{0}\n"
                    "  %x{0} = load ptr, ptr %ap{0}\n"
                    "  %i{0} = load {1}, ptr %ip{0}\n"
                    "  call void @__kiss_run(ptr %f{0}, ptr %x{0}, {1} %i{0})\n"
                    "  br label %it{2}\n",
                    B, IH, K + 1);
    }
  }
  OS << formatv("it{0}:\n  br label %done\ndone:\n  ret void\n}\n", Max);
  // Thread creation: a fresh id, then put into ts or run at once.
  OS << "define void @__kiss_create(ptr %h, ptr %fn, ptr %arg) {\nentry:\n"
     << "  %n = load " << IH << ", ptr @__kiss_next\n"
     << "  %id = add " << IH << " %n, 1\n"
     << "  store " << IH << " %id, ptr @__kiss_next\n"
     << "  %ok = icmp ult " << IH << " %id, " << NT << "\n"
     << "  call void @__kiss_assume(i1 %ok)\n"
     << "  %hn = icmp ne ptr %h, null\n"
     << "  br i1 %hn, label %wh, label %slot0\nwh:\n"
     << "  store " << IH << " %id, ptr %h\n  br label %slot0\n";
  for (unsigned J = 0; J < Max; ++J) {
    OS << formatv("slot{0}:\n", J);
    Gep("__kiss_ts_used", Max, "i1", "i32", std::to_string(J), formatv("%up{0}", J).str());
    OS << formatv("  %u{0} = load i1, ptr %up{0}\n"
                  "  br i1 %u{0}, label %slot{1}, label %put{0}\nput{0}:\n"
                  "  store i1 true, ptr %up{0}\n",
                  J, J + 1);
    Gep("__kiss_ts_fn", Max, "ptr", "i32", std::to_string(J), formatv("%fp{0}", J).str());
    Gep("__kiss_ts_arg", Max, "ptr", "i32", std::to_string(J), formatv("%ap{0}", J).str());
    Gep("__kiss_ts_id", Max, IH, "i32", std::to_string(J), formatv("%ip{0}", J).str());
    OS << formatv("  store ptr %fn, ptr %fp{0}\n  store ptr %arg, ptr %ap{0}\n"
                  "  store {1} %id, ptr %ip{0}\n  ret void\n",
                  J, IH);
  }
  OS << formatv("slot{0}:\n", Max)
     << "  call void @__kiss_run(ptr %fn, ptr %arg, " << IH << " %id)\n"
     << "  ret void\n}\n";
  // Join: the thread must have completed (not merely stopped by RAISE).
  OS << "define void @__kiss_join(" << IH << " %h, ptr %ret) {\n"
     << "  %ok = icmp ult " << IH << " %h, " << NT << "\n"
     << "  call void @__kiss_assume(i1 %ok)\n";
  Gep("__kiss_done", NT, "i1", IH, "%h", "%dp");
  OS << "  %d = load i1, ptr %dp\n  call void @__kiss_assume(i1 %d)\n"
     << "  %rn = icmp ne ptr %ret, null\n"
     << "  br i1 %rn, label %w, label %out\nw:\n";
  Gep("__kiss_result", NT, "ptr", IH, "%h", "%rp");
  OS << "  %r = load ptr, ptr %rp\n  store ptr %r, ptr %ret\n"
     << "  br label %out\nout:\n  ret void\n}\n";
  OS << "define " << IH << " @__kiss_thread_self() {\n"
     << "  %s = load " << IH << ", ptr @__kiss_self\n  ret " << IH
     << " %s\n}\n";
  OS << "define void @__kiss_thread_exit(ptr %r) {\n"
     << "  %s = load " << IH << ", ptr @__kiss_self\n";
  Gep("__kiss_done", NT, "i1", IH, "%s", "%dp");
  OS << "  store i1 true, ptr %dp\n";
  Gep("__kiss_result", NT, "ptr", IH, "%s", "%rp");
  OS << "  store ptr %r, ptr %rp\n  store i1 true, ptr @__kiss_raise\n"
     << "  ret void\n}\n";
  // Locks: a table of held locks.
  rounds::writeLockTableIR(OS, L, "", "", "", [&](unsigned J, StringRef Res) {
    Gep("__kiss_locks", L, "ptr", "i32", std::to_string(J), Res);
  });
  OS << rounds::sharedRuntimeIR();
  return S;
}

enum class SyncOp {
  None, Create, Join, Exit, Self, Lock, Unlock, TryLock, CondWait, NoOp,
  AtomicBegin, AtomicEnd, BlockI32, Block
};

SyncOp syncOp(StringRef N) {
  return StringSwitch<SyncOp>(N)
      .Case("__crace_thread_create", SyncOp::Create)
      .Case("__crace_thread_join", SyncOp::Join)
      .Case("__crace_thread_exit", SyncOp::Exit)
      .Case("__crace_thread_self", SyncOp::Self)
      .Cases("__crace_lock", "__crace_rdlock", SyncOp::Lock)
      .Case("__crace_unlock", SyncOp::Unlock)
      .Cases("__crace_trylock", "__crace_tryrdlock", SyncOp::TryLock)
      .Case("__crace_cond_wait", SyncOp::CondWait)
      .Cases("__crace_cond_signal", "__crace_cond_broadcast", SyncOp::NoOp)
      .Cases("__crace_barrier_init", "__crace_sem_init", "__crace_sem_post",
             SyncOp::NoOp)
      .Case("__crace_atomic_begin", SyncOp::AtomicBegin)
      .Case("__crace_atomic_end", SyncOp::AtomicEnd)
      .Case("__crace_barrier_wait", SyncOp::BlockI32)
      .Case("__crace_sem_wait", SyncOp::Block)
      .Default(SyncOp::None);
}

SyncOp syncOpOf(const Instruction &I) {
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (const Function *F = CB->getCalledFunction())
      return syncOp(F->getName());
  return SyncOp::None;
}

bool isRuntime(const Function &F) { return F.getName().starts_with("__kiss_"); }

} // namespace

namespace {

/// The file name of a source path (target names stay short and do not
/// depend on where the program lies).
std::string baseName(StringRef Path) {
  size_t Slash = Path.find_last_of('/');
  return (Slash == StringRef::npos ? Path : Path.drop_front(Slash + 1)).str();
}

/// A readable name of a heap or stack object (uniqueness: the caller).
std::string objectName(const ProgramModel &PM, const AbsObject &O) {
  const auto *I = cast<Instruction>(O.Site);
  const Function &F = *I->getFunction();
  if (O.Kind == ObjKind::Heap) {
    SourceLoc SL = PM.location(I);
    StringRef File(SL.File);
    // A kernel object of the driver harness (frontend/EntryPoints.cpp
    // names its allocation after its type).
    if (File.consume_front("/crace-harness/"))
      return "kernel object <" + File.str() + ">";
    if (!SL.valid())
      return "heap object allocated in " + F.getName().str() + "()";
    return "heap object allocated at " + baseName(SL.File) + ":" +
           std::to_string(SL.Line);
  }
  auto *A = const_cast<Instruction *>(I);
  const DILocalVariable *Var = nullptr;
  for (DbgVariableRecord *R : findDVRDeclares(A))
    Var = R->getVariable();
  if (!Var)
    for (DbgDeclareInst *D : findDbgDeclares(A))
      Var = D->getVariable();
  if (!Var)
    return "stack object " +
           (I->hasName() ? I->getName().str() + " " : std::string()) + "of " +
           F.getName().str();
  std::string N = "local variable " + Var->getName().str() + " of " +
                  F.getName().str();
  if (Var->getLine())
    N += " (" + baseName(Var->getFilename()) + ":" +
         std::to_string(Var->getLine()) + ")";
  return N;
}

/// Objects of crace's own runtime: allocated in a function of it (a model
/// function that was not inlined, or the KISS runtime) rather than in the
/// program or the driver harness (which has debug information).
bool runtimeObject(const AbsObject &O) {
  const Function &F = *cast<Instruction>(O.Site)->getFunction();
  return !F.getSubprogram() && (F.getName().starts_with("__crace") ||
                                F.getName().starts_with("__kiss"));
}

} // namespace

std::vector<Target> sharedTargets(const ProgramModel &PM) {
  const PointsTo &PT = PM.pointsTo();
  std::set<uint32_t> Written;
  for (const Function &F : PM.module())
    for (const Instruction &I : instructions(F))
      for (const MemAccess &A : PM.accessesOf(I))
        if (A.Kind == AccessKind::Write && !A.Library && A.Ptr &&
            !PM.isThreadPrivateAccess(A.Ptr))
          for (const Loc &L : PT.pointsTo(A.Ptr))
            Written.insert(L.Obj);
  std::vector<Target> Out;
  StringSet<> Names;
  for (const GlobalVariable &G : PM.module().globals()) {
    if (G.isDeclaration() || G.isConstant() || G.isThreadLocal() ||
        G.getSection() == ".crace_model" || G.getName().starts_with("llvm.") ||
        G.getName().starts_with("__crace") || G.getName().starts_with("__kiss"))
      continue;
    uint32_t Obj = PT.objectOf(&G);
    if (Obj == PointsTo::UnknownObj || !PT.object(Obj).Shared ||
        !Written.count(Obj))
      continue;
    Out.push_back({Obj, &G, G.getName().str()});
    Names.insert(G.getName());
  }
  // Heap and stack objects, in the analysis's order (the module's).
  for (uint32_t Obj = 1; Obj < PT.numObjects(); ++Obj) {
    const AbsObject &O = PT.object(Obj);
    if ((O.Kind != ObjKind::Heap && O.Kind != ObjKind::Stack) || !O.Shared ||
        !Written.count(Obj) || !isa_and_nonnull<Instruction>(O.Site) ||
        runtimeObject(O))
      continue;
    std::string Base = objectName(PM, O), Name = Base;
    for (unsigned K = 2; !Names.insert(Name).second; ++K)
      Name = Base + " #" + std::to_string(K);
    Out.push_back({Obj, nullptr, Name});
  }
  return Out;
}

namespace {

class Transformer {
public:
  Transformer(const ProgramModel &PM, const std::vector<Target> &Targets,
              const KissOptions &O, KissProgram &P)
      : PM(PM), PT(PM.pointsTo()), Targets(Targets), O(O), P(P) {}

  Error run();

private:
  const ProgramModel &PM;
  const PointsTo &PT;
  const std::vector<Target> &Targets;
  const KissOptions &O;
  KissProgram &P;
  ValueToValueMapTy VMap;
  Module *M = nullptr;
  std::vector<Function *> UserFns;
  DenseSet<const Function *> MayRaise;
  std::vector<GlobalVariable *> AccessVars, PendPtr, PendSize;
  std::vector<uint32_t> TargetObjs;
  std::map<const Function *, BasicBlock *> RaiseBB;
  GlobalVariable *Raise = nullptr, *Atomic = nullptr;
  Function *Nondet = nullptr, *Schedule = nullptr, *Fail = nullptr,
           *SameObject = nullptr;

  // K-round (Lal-Reps) form, O.Rounds > 0 (Rounds.h).
  enum class PtrClass { None, Copied, Bad };
  /// The copied globals (input module) and their objects.
  std::vector<const GlobalVariable *> RGlobals;
  DenseSet<uint32_t> RObjs, RWritten;
  StructType *GTy = nullptr;
  uint64_t Stride = 0;
  GlobalVariable *Round = nullptr, *Mem = nullptr;
  std::vector<GlobalVariable *> RaceFlag, RaceSite, PendRound;
  std::vector<SiteInfo> RaceSites;
  /// Operands (clone) that address the copied state: moved to the round's
  /// copy.
  std::vector<std::pair<Instruction *, unsigned>> Redirects;
  PtrClass classify(const Value *V) const;
  Error roundsPrepare();
  Error roundsRedirects();
  void roundsMain(Function *Main);
  void roundsLayout();

  const Instruction *orig(const Instruction *I) const {
    auto It = P.ToOrig.find(I);
    return It == P.ToOrig.end() ? nullptr : It->second;
  }
  bool sharedAccess(const MemAccess &A) const;
  bool callMayRaise(const CallBase &CB) const;
  bool visible(const Instruction &I) const;
  BasicBlock *raiseBlock(Function &F);
  void instrument(Instruction &I);
  void raiseCheckAfter(CallBase &CB);
  void replaceSync(CallBase &CB, SyncOp Op);
};

bool Transformer::sharedAccess(const MemAccess &A) const {
  if (A.Library || !A.Ptr || PM.isThreadPrivateAccess(A.Ptr))
    return false;
  for (const Loc &L : PT.pointsTo(A.Ptr))
    if (L.Obj == PointsTo::UnknownObj || PT.object(L.Obj).Shared)
      return true;
  return false;
}

bool Transformer::callMayRaise(const CallBase &CB) const {
  if (const Function *F = CB.getCalledFunction())
    return MayRaise.count(F);
  const Instruction *OI = orig(&CB);
  if (!OI)
    return false;
  for (const Function *OF : PM.callees(*cast<CallBase>(OI)))
    if (const Value *V = VMap.lookup(OF))
      if (MayRaise.count(cast<Function>(V)))
        return true;
  return false;
}

bool Transformer::visible(const Instruction &I) const {
  if (isa<PHINode>(I) || I.isTerminator())
    return false;
  SyncOp Op = syncOpOf(I);
  if (Op != SyncOp::None)
    return Op != SyncOp::Self && Op != SyncOp::NoOp;
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (callMayRaise(*CB))
      return true;
  if (const Instruction *OI = orig(&I))
    for (const MemAccess &A : PM.accessesOf(*OI))
      if (sharedAccess(A))
        return true;
  return false;
}

BasicBlock *Transformer::raiseBlock(Function &F) {
  BasicBlock *&BB = RaiseBB[&F];
  if (!BB) {
    BB = BasicBlock::Create(M->getContext(), "kiss.raise", &F);
    IRBuilder<> B(BB);
    B.CreateStore(B.getTrue(), Raise);
    if (F.getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(UndefValue::get(F.getReturnType()));
  }
  return BB;
}

/// schedule(); the race checks of the targets the access may touch; the
/// nondeterministic RAISE; then I.
void Transformer::instrument(Instruction &I) {
  Function &F = *I.getFunction();
  LLVMContext &C = M->getContext();
  BasicBlock *BB = I.getParent();
  BasicBlock *Tail = BB->splitBasicBlock(&I, "kiss.op");
  BB->getTerminator()->eraseFromParent();
  IRBuilder<> B(BB);
  B.SetCurrentDebugLocation(I.getDebugLoc());
  B.CreateCall(Schedule);
  ++P.SchedulePoints;
  const Instruction *OI = orig(&I);
  if (OI && !Targets.empty()) {
    for (const MemAccess &A : PM.accessesOf(*OI)) {
      if (!sharedAccess(A))
        continue;
      const PtsSet &Pts = PT.pointsTo(A.Ptr);
      for (unsigned T = 0; T < Targets.size(); ++T) {
        bool Others = false, UnknownOff = false;
        std::vector<int64_t> Offs;
        for (const Loc &L : Pts) {
          if (L.Obj != TargetObjs[T])
            Others = true;
          else if (L.Off == UnknownOffset)
            UnknownOff = true;
          else
            Offs.push_back(L.Off);
        }
        // Accesses of unknown size (strings) are not checked.
        if ((Offs.empty() && !UnknownOff) || A.Size == 0)
          continue;
        // Does the access touch the target? Statically yes when every
        // pointee is in the target; otherwise compare the address.
        Value *Ptr = MapValue(A.Ptr, VMap);
        if (!Ptr)
          continue;
        auto *Check = BasicBlock::Create(C, "kiss.check", &F);
        auto *Next = BasicBlock::Create(C, "kiss.next", &F);
        Value *Go = B.CreateCall(Nondet);
        if (Others && !Targets[T].G) {
          // A heap or stack target has no one address: the access is
          // checked unless it is in one of the global variables it may
          // point to; the object check before the overlap makes the rest
          // exact (a pending access and this one in different objects are
          // no race).
          Value *In = B.getTrue();
          std::set<uint32_t> Seen;
          for (const Loc &L : Pts) {
            if (L.Obj == TargetObjs[T] || !Seen.insert(L.Obj).second ||
                Seen.size() > 16 || PT.object(L.Obj).Kind != ObjKind::Global)
              continue;
            auto *OG = dyn_cast_or_null<GlobalVariable>(
                VMap.lookup(PT.object(L.Obj).Site));
            if (OG)
              In = B.CreateAnd(In, B.CreateNot(B.CreateCall(SameObject,
                                                            {Ptr, OG})));
          }
          Go = B.CreateAnd(Go, In);
        } else if (Others) {
          auto *G = cast<GlobalVariable>(VMap.lookup(Targets[T].G));
          Value *In;
          if (UnknownOff) {
            const DataLayout &DL = M->getDataLayout();
            Type *IntPtr = DL.getIntPtrType(Ptr->getType());
            Value *D = B.CreateSub(B.CreatePtrToInt(Ptr, IntPtr),
                                   B.CreatePtrToInt(G, IntPtr));
            In = B.CreateICmpULT(
                D, ConstantInt::get(IntPtr, DL.getTypeAllocSize(G->getValueType())));
          } else {
            In = B.getFalse();
            for (int64_t Off : Offs)
              In = B.CreateOr(In, B.CreateICmpEQ(Ptr, B.CreateConstInBoundsGEP1_64(
                                                          B.getInt8Ty(), G, Off)));
          }
          Go = B.CreateAnd(Go, In);
        }
        B.CreateCondBr(Go, Check, Next);
        B.SetInsertPoint(Check);
        Value *CurRound = nullptr;
        if (O.Rounds) {
          // Once a race is seen, nothing more is recorded or checked.
          auto *Check2 = BasicBlock::Create(C, "kiss.check", &F);
          B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), RaceFlag[T]), Next,
                         Check2);
          B.SetInsertPoint(Check2);
          CurRound = B.CreateLoad(B.getInt32Ty(), Round, "kiss.round");
        }
        bool W = A.Kind == AccessKind::Write;
        Value *Prev = B.CreateLoad(B.getInt8Ty(), AccessVars[T], "kiss.prev");
        Value *InA = B.CreateLoad(B.getInt1Ty(), Atomic);
        Value *AEff = A.Atomic ? (Value *)B.getTrue() : InA;
        Value *Present = B.CreateICmpNE(Prev, B.getInt8(0));
        Value *PrevW = B.CreateICmpNE(B.CreateAnd(Prev, B.getInt8(2)), B.getInt8(0));
        Value *PrevA = B.CreateICmpNE(B.CreateAnd(Prev, B.getInt8(4)), B.getInt8(0));
        Value *Conflict = B.CreateAnd(
            B.CreateAnd(Present, W ? (Value *)B.getTrue() : PrevW),
            B.CreateNot(B.CreateAnd(AEff, PrevA)), "kiss.conflict");
        // The pending thread stopped in its round: this access comes later
        // in the round-robin order only in that round or a later one.
        if (O.Rounds)
          Conflict = B.CreateAnd(
              Conflict, B.CreateICmpULE(B.CreateLoad(B.getInt32Ty(),
                                                     PendRound[T]),
                                        CurRound));
        auto *Overlap = BasicBlock::Create(C, "kiss.overlap", &F);
        auto *FailBB = BasicBlock::Create(C, "kiss.race", &F);
        auto *SetBB = BasicBlock::Create(C, "kiss.pending", &F);
        auto *DoSet = BasicBlock::Create(C, "kiss.record", &F);
        B.CreateCondBr(Conflict, Overlap, SetBB);
        // Same bytes? First the same object (a heap or stack target stands
        // for all objects of its site; their addresses are not ordered),
        // then the bytes: ordering two addresses of one object is exact.
        B.SetInsertPoint(Overlap);
        Type *I64 = B.getInt64Ty();
        Value *PP = B.CreateLoad(B.getPtrTy(), PendPtr[T]);
        auto *Bytes = BasicBlock::Create(C, "kiss.bytes", &F);
        B.CreateCondBr(B.CreateCall(SameObject, {Ptr, PP}, "kiss.same"),
                       Bytes, SetBB);
        B.SetInsertPoint(Bytes);
        Value *PN = B.CreateLoad(I64, PendSize[T]);
        Value *Ov = B.CreateAnd(
            B.CreateICmpULT(Ptr, B.CreateGEP(B.getInt8Ty(), PP, PN)),
            B.CreateICmpULT(PP, B.CreateGEP(B.getInt8Ty(), Ptr,
                                            ConstantInt::get(I64, A.Size))));
        B.CreateCondBr(Ov, FailBB, SetBB);
        SiteInfo SI{OI, A.Kind, A.Atomic, A.Size, T};
        B.SetInsertPoint(FailBB);
        if (O.Rounds) {
          // Remember the race; it is reported at the end, once the guessed
          // round states are validated.
          B.CreateStore(B.getTrue(), RaceFlag[T]);
          B.CreateStore(B.getInt32(RaceSites.size()), RaceSite[T]);
          RaceSites.push_back(SI);
          P.RaceBlocks[FailBB] = SI;
        } else {
          CallInst *FC = B.CreateCall(Fail);
          P.FailSites[FC] = SI;
        }
        B.CreateBr(raiseBlock(F));
        // Inside an atomic section the access only checks: the thread
        // cannot stop there.
        B.SetInsertPoint(SetBB);
        B.CreateCondBr(InA, Next, DoSet);
        B.SetInsertPoint(DoSet);
        B.CreateStore(B.getInt8(1 | (W ? 2 : 0) | (A.Atomic ? 4 : 0)),
                      AccessVars[T]);
        B.CreateStore(Ptr, PendPtr[T]);
        B.CreateStore(ConstantInt::get(I64, A.Size), PendSize[T]);
        if (O.Rounds)
          B.CreateStore(CurRound, PendRound[T]);
        B.CreateBr(raiseBlock(F));
        P.SetBlocks[DoSet] = SI;
        ++P.Checks;
        B.SetInsertPoint(Next);
      }
    }
  }
  // choice { skip [] RAISE }, not inside atomic sections.
  Value *R = B.CreateAnd(B.CreateCall(Nondet),
                         B.CreateNot(B.CreateLoad(B.getInt1Ty(), Atomic)));
  B.CreateCondBr(R, raiseBlock(F), Tail);
}

/// if (raise) return; after a call that may raise.
void Transformer::raiseCheckAfter(CallBase &CB) {
  Instruction *NextI = CB.getNextNode();
  BasicBlock *BB = CB.getParent();
  BasicBlock *Tail = BB->splitBasicBlock(NextI, "kiss.ret");
  BB->getTerminator()->eraseFromParent();
  IRBuilder<> B(BB);
  B.SetCurrentDebugLocation(CB.getDebugLoc());
  B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), Raise),
                 raiseBlock(*CB.getFunction()), Tail);
}

void Transformer::replaceSync(CallBase &CB, SyncOp Op) {
  auto Use = [&](StringRef Name) {
    Function *F = M->getFunction(Name);
    CB.setCalledFunction(F);
  };
  switch (Op) {
  case SyncOp::Create: Use("__kiss_create"); break;
  case SyncOp::Join: Use("__kiss_join"); break;
  case SyncOp::Self: Use("__kiss_thread_self"); break;
  case SyncOp::Lock: Use("__kiss_lock"); break;
  case SyncOp::Unlock: Use("__kiss_unlock"); break;
  case SyncOp::TryLock: Use("__kiss_trylock"); break;
  case SyncOp::CondWait: Use("__kiss_cond_wait"); break;
  case SyncOp::AtomicBegin: Use("__kiss_atomic_begin"); break;
  case SyncOp::AtomicEnd: Use("__kiss_atomic_end"); break;
  case SyncOp::BlockI32: Use("__kiss_block_i32"); break;
  case SyncOp::Block: Use("__kiss_block"); break;
  case SyncOp::Exit: {
    Use("__kiss_thread_exit");
    CB.removeFnAttr(Attribute::NoReturn);
    // The thread ends: unwind its frames like RAISE (done is set).
    BasicBlock *BB = CB.getParent();
    BB->splitBasicBlock(CB.getNextNode(), "kiss.dead");
    BB->getTerminator()->eraseFromParent();
    BranchInst::Create(raiseBlock(*CB.getFunction()), BB);
    break;
  }
  case SyncOp::NoOp:
    if (CB.getType()->isVoidTy())
      CB.eraseFromParent();
    else
      CB.replaceAllUsesWith(Constant::getNullValue(CB.getType())),
          CB.eraseFromParent();
    break;
  case SyncOp::None:
    break;
  }
}

Transformer::PtrClass Transformer::classify(const Value *V) const {
  bool InCopies = false, Other = false;
  for (const Loc &L : PT.pointsTo(V)) {
    if (L.Obj == PointsTo::UnknownObj)
      return PtrClass::Bad;
    if (RObjs.count(L.Obj)) {
      InCopies = true;
      continue;
    }
    Other = true;
    const AbsObject &Ob = PT.object(L.Obj);
    // Unshared objects, functions and read-only globals need no copies.
    if (!Ob.Shared || Ob.Kind == ObjKind::Function ||
        (Ob.Kind == ObjKind::Global && !RWritten.count(L.Obj)))
      continue;
    return PtrClass::Bad;
  }
  if (!InCopies)
    return PtrClass::None;
  return Other ? PtrClass::Bad : PtrClass::Copied;
}

/// The copied globals: defined, mutable, shared and written.
Error Transformer::roundsPrepare() {
  const Module &Src = PM.module();
  for (const Function &F : Src)
    for (const Instruction &I : instructions(F))
      for (const MemAccess &A : PM.accessesOf(I))
        if (A.Kind == AccessKind::Write && A.Ptr)
          for (const Loc &L : PT.pointsTo(A.Ptr))
            RWritten.insert(L.Obj);
  for (const GlobalVariable &G : Src.globals()) {
    if (G.isDeclaration() || G.isConstant() || G.isThreadLocal() ||
        G.getSection() == ".crace_model" || G.getName().starts_with("llvm.") ||
        G.getName().starts_with("__kiss"))
      continue;
    uint32_t Obj = PT.objectOf(&G);
    if (Obj == PointsTo::UnknownObj || !PT.object(Obj).Shared ||
        !RWritten.count(Obj))
      continue;
    RGlobals.push_back(&G);
    RObjs.insert(Obj);
  }
  return Error::success();
}

/// The operands that address the copied state; an error for accesses of
/// other shared memory (heap, stack, unknown pointers, library calls).
Error Transformer::roundsRedirects() {
  std::vector<std::string> Bad;
  auto Check = [&](Instruction &I, const Instruction *OI, unsigned OpNo) {
    switch (classify(OI->getOperand(OpNo))) {
    case PtrClass::None:
      break;
    case PtrClass::Copied:
      Redirects.push_back({&I, OpNo});
      break;
    case PtrClass::Bad:
      Bad.push_back(PM.location(OI).str());
      break;
    }
  };
  for (Function *F : UserFns)
    for (Instruction &I : instructions(*F)) {
      const Instruction *OI = orig(&I);
      if (!OI)
        continue;
      if (isa<LoadInst>(I))
        Check(I, OI, LoadInst::getPointerOperandIndex());
      else if (isa<StoreInst>(I))
        Check(I, OI, StoreInst::getPointerOperandIndex());
      else if (isa<AtomicRMWInst>(I))
        Check(I, OI, AtomicRMWInst::getPointerOperandIndex());
      else if (isa<AtomicCmpXchgInst>(I))
        Check(I, OI, AtomicCmpXchgInst::getPointerOperandIndex());
      else if (isa<MemIntrinsic>(I)) {
        Check(I, OI, 0);
        if (isa<MemTransferInst>(I))
          Check(I, OI, 1);
      } else if (auto *CB = dyn_cast<CallBase>(&I)) {
        SyncOp Op = syncOpOf(I);
        if (Op == SyncOp::Create)
          Check(I, OI, 0);
        else if (Op == SyncOp::Join)
          Check(I, OI, 1);
        else if (Op == SyncOp::None &&
                 !(CB->getCalledFunction() &&
                   (!CB->getCalledFunction()->isDeclaration() ||
                    CB->getCalledFunction()->isIntrinsic())))
          for (const MemAccess &A : PM.accessesOf(*OI))
            if (A.Ptr && classify(A.Ptr) != PtrClass::None) {
              Bad.push_back(PM.location(OI).str() + " (library call)");
              break;
            }
      }
    }
  if (Bad.empty())
    return Error::success();
  std::sort(Bad.begin(), Bad.end());
  Bad.erase(std::unique(Bad.begin(), Bad.end()), Bad.end());
  if (Bad.size() > 3)
    Bad.resize(3), Bad.push_back("...");
  return createStringError(
      inconvertibleErrorCode(),
      "--rounds supports shared global variables only: the accesses at " +
          join(Bad, ", ") +
          " may touch shared heap or stack memory (or memory the analysis "
          "cannot resolve), which the K-round form does not copy per round");
}

/// main of the K-round program: guess the start of rounds 1..K-1, run the
/// original main, then the created threads in creation order, validate the
/// guesses and the joins, and only then report a race seen on the way.
void Transformer::roundsMain(Function *Main) {
  LLVMContext &C = M->getContext();
  const DataLayout &DL = M->getDataLayout();
  unsigned K = O.Rounds;
  auto *MemTy = ArrayType::get(GTy, K);
  Mem = new GlobalVariable(*M, MemTy, false, GlobalValue::InternalLinkage,
                           Constant::getNullValue(MemTy), "__kiss_mem");
  FunctionType *FT = Main->getFunctionType();
  Function *NewMain =
      Function::Create(FT, GlobalValue::ExternalLinkage, "main", M);
  Main->setLinkage(GlobalValue::InternalLinkage);
  auto *Entry = BasicBlock::Create(C, "entry", NewMain);
  auto *Returned = BasicBlock::Create(C, "returned", NewMain);
  auto *Others = BasicBlock::Create(C, "others", NewMain);
  IRBuilder<> B(Entry);
  Value *Guess = nullptr;
  if (K > 1) {
    // Uninitialised stack memory: an unconstrained guess.
    Guess = B.CreateAlloca(MemTy, nullptr, "kiss.guess");
    B.CreateMemCpy(B.CreateConstGEP1_64(B.getInt8Ty(), Mem, Stride), Align(1),
                   B.CreateConstGEP1_64(B.getInt8Ty(), Guess, Stride),
                   Align(1), (K - 1) * Stride);
  }
  std::vector<Value *> Args;
  for (Argument &A : NewMain->args())
    Args.push_back(&A);
  CallInst *R = B.CreateCall(Main, Args);
  // A normal return from main ends the program in main's current round:
  // the others run in earlier rounds only.
  B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), Raise), Others, Returned);
  B.SetInsertPoint(Returned);
  // (The return itself may come in a later round.)
  B.CreateCall(Schedule);
  B.CreateStore(B.CreateLoad(B.getInt32Ty(), Round),
                M->getNamedGlobal("__kiss_limit"));
  B.CreateBr(Others);
  B.SetInsertPoint(Others);
  B.CreateStore(B.getFalse(), Raise);
  B.CreateStore(B.getFalse(), Atomic);
  Function *Start = M->getFunction("__kiss_start");
  Type *IH = Start->getFunctionType()->getParamType(0);
  for (unsigned Id = 1; Id <= O.RoundsThreads; ++Id)
    B.CreateCall(Start, {ConstantInt::get(IH, Id)});
  B.CreateCall(M->getFunction("__kiss_check_joins"));
  Function *Assume = M->getFunction("__kiss_assume");
  for (unsigned Rd = 0; Rd + 1 < K; ++Rd) {
    Value *Ok = B.getTrue();
    for (uint64_t Off = 0; Off < Stride;) {
      uint64_t N = 8;
      while (Off + N > Stride || Off % N)
        N /= 2;
      Type *T = B.getIntNTy(8 * N);
      Value *End = B.CreateLoad(
          T, B.CreateConstGEP1_64(B.getInt8Ty(), Mem, Rd * Stride + Off));
      Value *Begin = B.CreateLoad(
          T, B.CreateConstGEP1_64(B.getInt8Ty(), Guess, (Rd + 1) * Stride + Off));
      Ok = B.CreateAnd(Ok, B.CreateICmpEQ(End, Begin));
      Off += N;
    }
    B.CreateCall(Assume, {Ok});
  }
  (void)DL;
  for (unsigned I = 0; I < RaceSites.size(); ++I) {
    const SiteInfo &SI = RaceSites[I];
    auto *FailBB = BasicBlock::Create(C, "kiss.race", NewMain);
    auto *Next = BasicBlock::Create(C, "kiss.next", NewMain);
    Value *Hit = B.CreateAnd(
        B.CreateLoad(B.getInt1Ty(), RaceFlag[SI.Target]),
        B.CreateICmpEQ(B.CreateLoad(B.getInt32Ty(), RaceSite[SI.Target]),
                       B.getInt32(I)));
    B.CreateCondBr(Hit, FailBB, Next);
    B.SetInsertPoint(FailBB);
    P.FailSites[B.CreateCall(Fail)] = SI;
    B.CreateBr(Next);
    B.SetInsertPoint(Next);
  }
  if (FT->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(R);
}

/// The copied globals and the lock table become fields of one struct, and
/// the module's globals K copies of it; copy 0 holds the initial values and
/// every pointer to a copied global points into copy 0.
void Transformer::roundsLayout() {
  std::vector<GlobalVariable *> Gs;
  for (const GlobalVariable *G : RGlobals)
    Gs.push_back(cast<GlobalVariable>(VMap.lookup(G)));
  Gs.push_back(M->getNamedGlobal("__kiss_locks"));
  std::vector<Constant *> Init;
  MaybeAlign A = Align(8);
  for (GlobalVariable *G : Gs) {
    Init.push_back(G->getInitializer());
    if (G->getAlign() && *G->getAlign() > *A)
      A = G->getAlign();
  }
  auto *MemTy = cast<ArrayType>(Mem->getValueType());
  std::vector<Constant *> Copies(MemTy->getNumElements(),
                                 Constant::getNullValue(GTy));
  Copies[0] = ConstantStruct::get(GTy, Init);
  Mem->setInitializer(ConstantArray::get(MemTy, Copies));
  Mem->setAlignment(A);
  Type *I32 = Type::getInt32Ty(M->getContext());
  for (unsigned I = 0; I < Gs.size(); ++I) {
    Constant *Idx[] = {ConstantInt::get(I32, 0), ConstantInt::get(I32, 0),
                       ConstantInt::get(I32, I)};
    Constant *Addr = ConstantExpr::getInBoundsGetElementPtr(MemTy, Mem, Idx);
    Gs[I]->replaceAllUsesWith(Addr);
    Gs[I]->eraseFromParent();
  }
}

Error Transformer::run() {
  const Module &Src = PM.module();
  P.M = CloneModule(Src, VMap);
  M = P.M.get();
  for (auto KV : VMap)
    if (const auto *OI = dyn_cast<Instruction>(KV.first))
      if (auto *CI = dyn_cast_or_null<Instruction>(&*KV.second))
        P.ToOrig[CI] = OI;
  for (Function &F : *M)
    if (!F.isDeclaration())
      UserFns.push_back(&F);
  Function *Main = M->getFunction("main");
  if (!Main || Main->isDeclaration())
    return createStringError(inconvertibleErrorCode(),
                             "the program has no main function");

  // The runtime: linked in from IR text.
  const DataLayout &DL = M->getDataLayout();
  unsigned H = DL.getPointerSizeInBits();
  SMDiagnostic Diag;
  // The IR parser needs named values (the driver's context discards them).
  bool Discard = M->getContext().shouldDiscardValueNames();
  M->getContext().setDiscardValueNames(false);
  if (O.Rounds) {
    for (const Target &T : Targets)
      if (!T.G)
        return createStringError(
            inconvertibleErrorCode(),
            "--rounds checks global variables only, not " + T.Name);
    if (Error E = roundsPrepare())
      return E;
    // The copied state: the shared globals and the lock table.
    std::vector<Type *> Fields;
    for (const GlobalVariable *G : RGlobals)
      Fields.push_back(G->getValueType());
    Fields.push_back(ArrayType::get(PointerType::getUnqual(M->getContext()),
                                    std::max(1u, O.MaxLocks)));
    GTy = StructType::create(M->getContext(), Fields, "kiss.shared");
    Stride = DL.getTypeAllocSize(GTy).getFixedValue();
    if (Stride > O.RoundsMaxBytes)
      return createStringError(
          inconvertibleErrorCode(),
          formatv("--rounds: the shared state is too large to copy per round "
                  "({0} bytes > {1})",
                  Stride, O.RoundsMaxBytes)
              .str());
  }
  std::unique_ptr<Module> RT = parseAssemblyString(
      O.Rounds ? rounds::runtimeIR(H, O.Rounds, O.RoundsThreads + 1,
                                   std::max(1u, O.MaxLocks), Stride)
               : runtimeIR(H, O.Max, std::max(2u, O.MaxThreads),
                           std::max(1u, O.MaxLocks)),
      Diag, M->getContext());
  M->getContext().setDiscardValueNames(Discard);
  if (!RT) {
    std::string Msg;
    raw_string_ostream OS(Msg);
    Diag.print("kiss-runtime", OS);
    return createStringError(inconvertibleErrorCode(),
                             "internal error: kiss runtime: " + Msg);
  }
  RT->setDataLayout(DL);
  RT->setTargetTriple(M->getTargetTriple());
  if (Linker::linkModules(*M, std::move(RT)))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: cannot link the kiss runtime");
  Raise = M->getNamedGlobal("__kiss_raise");
  Atomic = M->getNamedGlobal("__kiss_atomic");
  Nondet = M->getFunction("__kiss_nondet");
  Schedule = M->getFunction("__kiss_schedule");
  // (The linker drops unused declarations.)
  Fail = cast<Function>(
      M->getOrInsertFunction("__crace_bmc_fail",
                             FunctionType::get(Type::getVoidTy(M->getContext()),
                                               false))
          .getCallee());
  // i1 (ptr, ptr): both addresses in one object (bmc/EncoderCalls.cpp).
  {
    LLVMContext &C = M->getContext();
    SameObject = cast<Function>(
        M->getOrInsertFunction(
             "__crace_bmc_same_object",
             FunctionType::get(Type::getInt1Ty(C),
                               {PointerType::getUnqual(C),
                                PointerType::getUnqual(C)},
                               false))
            .getCallee());
  }
  if (!Raise || !Atomic || !Nondet || !Schedule)
    return createStringError(inconvertibleErrorCode(),
                             "internal error: kiss runtime incomplete");
  for (unsigned T = 0; T < Targets.size(); ++T) {
    // IR names: the global's name, or the target's name as an identifier.
    std::string IRName = Targets[T].Name;
    for (char &Ch : IRName)
      if (!isAlnum(Ch) && Ch != '_' && Ch != '.')
        Ch = '_';
    auto *GV = new GlobalVariable(*M, Type::getInt8Ty(M->getContext()), false,
                                  GlobalValue::InternalLinkage,
                                  ConstantInt::get(Type::getInt8Ty(M->getContext()), 0),
                                  "__kiss_access." + IRName);
    AccessVars.push_back(GV);
    // The pending access's address and size (overlap with later ones).
    PendPtr.push_back(new GlobalVariable(
        *M, PointerType::getUnqual(M->getContext()), false,
        GlobalValue::InternalLinkage,
        ConstantPointerNull::get(PointerType::getUnqual(M->getContext())),
        "__kiss_pending." + IRName));
    PendSize.push_back(new GlobalVariable(
        *M, Type::getInt64Ty(M->getContext()), false,
        GlobalValue::InternalLinkage,
        ConstantInt::get(Type::getInt64Ty(M->getContext()), 0),
        "__kiss_pending_size." + IRName));
    TargetObjs.push_back(Targets[T].Obj);
    if (O.Rounds) {
      LLVMContext &C = M->getContext();
      RaceFlag.push_back(new GlobalVariable(
          *M, Type::getInt1Ty(C), false, GlobalValue::InternalLinkage,
          ConstantInt::getFalse(C), "__kiss_race." + IRName));
      RaceSite.push_back(new GlobalVariable(
          *M, Type::getInt32Ty(C), false, GlobalValue::InternalLinkage,
          ConstantInt::get(Type::getInt32Ty(C), 0),
          "__kiss_race_site." + IRName));
      PendRound.push_back(new GlobalVariable(
          *M, Type::getInt32Ty(C), false, GlobalValue::InternalLinkage,
          ConstantInt::get(Type::getInt32Ty(C), 0),
          "__kiss_pending_round." + IRName));
    }
  }
  P.Targets = Targets;
  if (O.Rounds) {
    Round = M->getNamedGlobal("__kiss_round");
    GlobalVariable *St = M->getNamedGlobal("__kiss_stride");
    St->setInitializer(ConstantInt::get(Type::getInt64Ty(M->getContext()),
                                        Stride));
    St->setConstant(true);
    // Redirections are decided on the untouched clone.
    if (Error E = roundsRedirects())
      return E;
  }

  // Functions that may raise: they contain visible instructions.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function *F : UserFns) {
      if (MayRaise.count(F))
        continue;
      for (Instruction &I : instructions(*F))
        if (visible(I)) {
          MayRaise.insert(F);
          Changed = true;
          break;
        }
    }
  }
  // Instrument every visible instruction.
  auto Cancelled = [&] { return O.Cancel && O.Cancel->load(); };
  for (Function *F : UserFns) {
    if (Cancelled())
      return createStringError(inconvertibleErrorCode(), "cancelled");
    std::vector<Instruction *> Vis;
    std::vector<CallBase *> RaiseAfter, Sync;
    for (Instruction &I : instructions(*F)) {
      if (!visible(I))
        continue;
      Vis.push_back(&I);
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        SyncOp Op = syncOpOf(I);
        if (Op == SyncOp::CondWait || (Op == SyncOp::None && callMayRaise(*CB)))
          RaiseAfter.push_back(CB);
      }
    }
    for (Instruction &I : instructions(*F))
      if (isa<CallBase>(I) && syncOpOf(I) != SyncOp::None)
        Sync.push_back(cast<CallBase>(&I));
    // The work budget: a step per visible instruction, and after the
    // function one per instruction the instrumentation added (a check per
    // target an access may touch: the module grows tenfold on large
    // programs, and that is where the time goes).
    unsigned SizeBefore = O.Work ? F->getInstructionCount() : 0;
    for (size_t N = 0; N < Vis.size(); ++N) {
      if ((N & 63) == 0 && Cancelled())
        return createStringError(inconvertibleErrorCode(), "cancelled");
      if (O.Work && O.Work->step())
        return createStringError(inconvertibleErrorCode(), WorkBudgetRanOut);
      instrument(*Vis[N]);
    }
    for (CallBase *CB : RaiseAfter)
      raiseCheckAfter(*CB);
    for (CallBase *CB : Sync)
      replaceSync(*CB, syncOpOf(*CB));
    if (O.Work) {
      unsigned SizeAfter = F->getInstructionCount();
      if (O.Work->step(SizeAfter > SizeBefore ? SizeAfter - SizeBefore : 0))
        return createStringError(inconvertibleErrorCode(), WorkBudgetRanOut);
    }
    // Functions now return where they did not (RAISE, pthread_exit).
    F->removeFnAttr(Attribute::NoReturn);
    for (Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = CB->getCalledFunction();
            !Callee || !Callee->isDeclaration())
          CB->removeFnAttr(Attribute::NoReturn);
  }
  // Sync intrinsics in the runtime-free declarations may remain in dead
  // model functions only when unused; nothing else refers to them.
  if (O.Rounds) {
    // Accesses of the copied state go to the current round's copy: a
    // switch on the round, one copy of the access per round, so that the
    // bmc sees concrete addresses.
    // (In program order: a pointer-ordered map made the block order, and
    // so the emitted module, change from run to run.)
    MapVector<Instruction *, std::vector<unsigned>> Ops;
    for (auto [I, OpNo] : Redirects)
      Ops[I].push_back(OpNo);
    LLVMContext &C = M->getContext();
    for (auto &[I, Nos] : Ops) {
      BasicBlock *BB = I->getParent();
      BasicBlock *C0 = BB->splitBasicBlock(I, "kiss.round0");
      BasicBlock *Join = C0->splitBasicBlock(I->getNextNode(), "kiss.rjoin");
      BB->getTerminator()->eraseFromParent();
      IRBuilder<> B(BB);
      B.SetCurrentDebugLocation(I->getDebugLoc());
      SwitchInst *SW =
          B.CreateSwitch(B.CreateLoad(B.getInt32Ty(), Round), C0, O.Rounds);
      PHINode *Phi = nullptr;
      if (!I->getType()->isVoidTy()) {
        Phi = PHINode::Create(I->getType(), O.Rounds, "kiss.rval");
        Phi->insertBefore(Join->begin());
        Phi->addIncoming(I, C0);
      }
      for (unsigned Rd = 1; Rd < O.Rounds; ++Rd) {
        auto *CB = BasicBlock::Create(C, "kiss.round", BB->getParent());
        SW->addCase(B.getInt32(Rd), CB);
        IRBuilder<> CBld(CB);
        CBld.SetCurrentDebugLocation(I->getDebugLoc());
        Instruction *NI = I->clone();
        for (unsigned No : Nos)
          NI->setOperand(No, CBld.CreateConstGEP1_64(
                                 CBld.getInt8Ty(), I->getOperand(No),
                                 Rd * Stride, "kiss.cur"));
        CBld.Insert(NI);
        CBld.CreateBr(Join);
        if (const Instruction *OI = orig(I))
          P.ToOrig[NI] = OI;
        if (Phi)
          Phi->addIncoming(NI, CB);
      }
      if (Phi)
        I->replaceUsesWithIf(Phi, [&](Use &U) { return U.getUser() != Phi; });
    }
  }

  // main: the original main is the first thread.
  Main->setName("__kiss_main");
  if (O.Rounds) {
    roundsMain(Main);
    roundsLayout();
  } else {
  FunctionType *FT = Main->getFunctionType();
  Function *NewMain =
      Function::Create(FT, GlobalValue::ExternalLinkage, "main", M);
  Main->setLinkage(GlobalValue::InternalLinkage);
  {
    LLVMContext &C = M->getContext();
    auto *Entry = BasicBlock::Create(C, "entry", NewMain);
    auto *Sched = BasicBlock::Create(C, "others", NewMain);
    auto *Out = BasicBlock::Create(C, "out", NewMain);
    IRBuilder<> B(Entry);
    std::vector<Value *> Args;
    for (Argument &A : NewMain->args())
      Args.push_back(&A);
    CallInst *R = B.CreateCall(Main, Args);
    // A normal return from main ends the program; main stopped by RAISE
    // or pthread_exit lets the remaining threads run.
    B.CreateCondBr(B.CreateLoad(B.getInt1Ty(), Raise), Sched, Out);
    B.SetInsertPoint(Sched);
    B.CreateStore(B.getFalse(), Raise);
    B.CreateStore(B.getFalse(), Atomic);
    B.CreateCall(Schedule);
    B.CreateBr(Out);
    B.SetInsertPoint(Out);
    if (FT->getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(R);
  }
  }
  for (Function &F : *M)
    if (isRuntime(F) && !F.isDeclaration())
      F.setLinkage(GlobalValue::InternalLinkage);
  for (GlobalVariable &G : M->globals())
    if (G.getName().starts_with("__kiss_"))
      G.setLinkage(GlobalValue::InternalLinkage);

  std::string Err;
  raw_string_ostream ES(Err);
  if (verifyModule(*M, &ES))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: the sequential module is "
                             "invalid: " + Err);
  return Error::success();
}

} // namespace

Expected<KissProgram> transform(const ProgramModel &PM,
                                const std::vector<Target> &Targets,
                                const KissOptions &O) {
  KissProgram P;
  Transformer T(PM, Targets, O, P);
  if (Error E = T.run())
    return std::move(E);
  return std::move(P);
}

} // namespace crace::kiss
