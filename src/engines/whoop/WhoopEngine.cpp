//===- WhoopEngine.cpp - symbolic pairwise lockset analysis (WHOOP) ------===//
//
// See WhoopEngine.h for the method. The encoder here is a guarded symbolic
// execution of LLVM IR into Z3 terms in which only locals, lock state and
// the access log are tracked: memory contents never are (shared reads are
// havocked, and so are reads of unpromoted locals, which only loses
// precision).
//
//===----------------------------------------------------------------------===//
#include "engines/whoop/WhoopEngine.h"

#include "engines/bmc/Z3Ops.h"
#include "engines/bmc/WorkMeter.h"
#include "engines/bmc/Z3Reaper.h"
#include "engines/lockset/LocksetEngine.h"
#include "model/LockTable.h"
#include "model/ProgramModel.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/FormatVariadic.h"

#include <z3++.h>

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <set>
#include <unordered_map>

using namespace llvm;

namespace crace {

namespace {

constexpr uint32_t AtomicSectionLock = 0;
/// Encoded instructions per template copy (after inlining and Houdini
/// rounds); beyond it the template is not encoded.
constexpr uint64_t MaxEncodedInsts = 400000;
constexpr unsigned MaxInlineDepth = 48;
constexpr unsigned MaxHoudiniRounds = 64;
/// Z3 resource units per query (Houdini, guards, pairs); a query past it
/// answers unknown, deterministically (a wall-clock timeout would answer
/// by the machine's load). About 2 s at the calibrated rate.
constexpr uint64_t QueryUnits = 2 * UnitsPerSecond;

/// Lock state: per lock id, "held" and "held exclusively" (not only for
/// reading). Ids beyond the vectors are not held.
struct LockState {
  std::vector<z3::expr> Held, Excl;
};

/// A pointer value: an SSA root whose targets points-to knows, plus a
/// symbolic byte delta added by address arithmetic since the root.
struct PtrVal {
  const Value *Root;
  unsigned RootAct;
  z3::expr Delta;
};

struct Target {
  uint32_t Obj;
  z3::expr Pts; ///< the pointer points into Obj
  z3::expr Off; ///< byte offset of the access in Obj (64 bits)
  /// Off is a fresh base (used nowhere else in this access's formulas)
  /// plus a delta: it can take any value, whatever the path.
  bool FreeBase = false;
};

/// One logged access of one template copy.
struct AccRec {
  const Instruction *Inst;
  AccessKind Kind;
  uint64_t Size;
  z3::expr Guard;
  z3::expr Atomic;
  std::vector<Target> Targets;
  bool UnknownTarget = false;
  LockState Locks;
};

/// Locks, shared by every template and copy: ids as in the lockset engine.

/// Dominator tree and loops of one function, computed once.
struct FnInfo {
  DominatorTree DT;
  LoopInfo LI;
  std::vector<const BasicBlock *> Order;
  DenseMap<const BasicBlock *, unsigned> Index;
  explicit FnInfo(Function &F) : DT(F), LI(DT) {
    ReversePostOrderTraversal<Function *> RPOT(&F);
    for (BasicBlock *BB : RPOT) {
      Index[BB] = Order.size();
      Order.push_back(BB);
    }
  }
};

struct EncodeFailure {
  std::string Why;
};

/// Encodes one copy of one thread template.
class Encoder {
public:
  Encoder(const ProgramModel &PM, z3::context &Ctx, LockTable &Locks,
          std::map<const Function *, std::unique_ptr<FnInfo>> &Infos,
          unsigned Copy, const std::atomic<bool> *Stop, WorkMeter &Work)
      : PM(PM), PTA(PM.pointsTo()), DL(PM.module().getDataLayout()), Ctx(Ctx),
        Locks(Locks), Infos(Infos), Copy(Copy), Stop(Stop), Work(Work) {}

  /// Encodes the template from Entry, running Houdini to its fixpoint.
  /// Returns the reason on failure.
  std::optional<std::string> encode(const Function &Entry) {
    for (unsigned Round = 0; Round < MaxHoudiniRounds; ++Round) {
      ++Rounds;
      Recs.clear();
      Act = 0;
      Fresh = 0;
      Encoded = 0;
      OffCache.clear();
      PtsCache.clear();
      NewDrops = false;
      Stack.clear();
      try {
        Flow In{Ctx.bool_val(true), LockState()};
        std::vector<std::optional<z3::expr>> IntArgs(Entry.arg_size());
        std::vector<std::optional<PtrVal>> PtrArgs(Entry.arg_size());
        Ret R = call(Entry, IntArgs, PtrArgs, In, 0);
        (void)R;
      } catch (const EncodeFailure &E) {
        return E.Why;
      } catch (const z3::exception &E) {
        return std::string("Z3: ") + E.msg();
      }
      if (!NewDrops)
        return std::nullopt;
    }
    return std::string("Houdini did not reach a fixpoint");
  }

  std::vector<AccRec> Recs;
  unsigned Rounds = 0;
  unsigned HoudiniQueries = 0;
  unsigned DroppedCandidates = 0;
  double HoudiniSeconds = 0;

private:
  struct Flow {
    z3::expr Guard;
    LockState L;
  };
  struct Ret {
    std::optional<z3::expr> Int;
    std::optional<PtrVal> Ptr;
  };
  /// Containers of Z3 terms are ordered by insertion, never by address:
  /// Z3 reuses the ids of terms it frees, and ids order terms in its
  /// simplifier and solver, so terms freed in an order that depends on
  /// addresses (an unordered_map's buckets, a map keyed by pointers) would
  /// make the queries, their answers and their work differ between two
  /// runs of one input.
  struct Frame {
    unsigned Act;
    MapVector<const Value *, z3::expr> Ints;
    MapVector<const Value *, PtrVal> Ptrs;
  };

  [[noreturn]] void fail(std::string Why) { throw EncodeFailure{std::move(Why)}; }

  z3::expr freshBv(unsigned W) {
    return Ctx.bv_const(formatv("w{0}_{1}", Copy, Fresh++).str().c_str(), W);
  }
  z3::expr freshBool() {
    return Ctx.bool_const(formatv("w{0}_{1}", Copy, Fresh++).str().c_str());
  }

  /// Bit I of a lock-state vector (ids beyond it are not held).
  z3::expr bit(const std::vector<z3::expr> &V, size_t I) {
    return I < V.size() ? V[I] : Ctx.bool_val(false);
  }
  void setLock(LockState &L, uint32_t Id, z3::expr H, z3::expr E) {
    while (L.Held.size() <= Id) {
      L.Held.push_back(Ctx.bool_val(false));
      L.Excl.push_back(Ctx.bool_val(false));
    }
    L.Held[Id] = H;
    L.Excl[Id] = E;
  }
  z3::expr heldOf(const LockState &L, size_t I) { return bit(L.Held, I); }
  z3::expr exclOf(const LockState &L, size_t I) { return bit(L.Excl, I); }

  /// ite-merge of lock states under the given guards (first true wins).
  LockState mergeLocks(const std::vector<Flow> &Fs) {
    LockState Out;
    size_t N = 0;
    for (const Flow &F : Fs)
      N = std::max(N, F.L.Held.size());
    for (size_t I = 0; I < N; ++I) {
      z3::expr H = heldOf(Fs.back().L, I), E = exclOf(Fs.back().L, I);
      for (size_t K = Fs.size() - 1; K-- > 0;) {
        z3::expr HK = heldOf(Fs[K].L, I), EK = exclOf(Fs[K].L, I);
        H = z3::eq(HK, H) ? H : z3::ite(Fs[K].Guard, HK, H);
        E = z3::eq(EK, E) ? E : z3::ite(Fs[K].Guard, EK, E);
      }
      Out.Held.push_back(H);
      Out.Excl.push_back(E);
    }
    return Out;
  }
  z3::expr anyOf(const std::vector<Flow> &Fs) {
    z3::expr_vector V(Ctx);
    for (const Flow &F : Fs)
      V.push_back(F.Guard);
    return V.size() == 1 ? V[0] : z3::mk_or(V);
  }

  unsigned widthOf(Type *T) {
    if (auto *IT = dyn_cast<IntegerType>(T))
      return IT->getBitWidth();
    return 0;
  }

  z3::expr intVal(Frame &Fr, const Value *V) {
    unsigned W = widthOf(V->getType());
    if (auto *CI = dyn_cast<ConstantInt>(V)) {
      const APInt &A = CI->getValue();
      if (W <= 64)
        return Ctx.bv_val(uint64_t(A.getZExtValue()), W);
      return Ctx.bv_val(llvm::toString(A, 10, false).c_str(), W);
    }
    auto It = Fr.Ints.find(V);
    if (It != Fr.Ints.end())
      return It->second;
    if (!W)
      fail("a non-integer value used as an integer");
    z3::expr E = freshBv(W);
    Fr.Ints.insert({V, E});
    return E;
  }
  z3::expr boolVal(Frame &Fr, const Value *V) {
    return intVal(Fr, V) == Ctx.bv_val(1, 1);
  }
  void setInt(Frame &Fr, const Value *V, z3::expr E) {
    auto It = Fr.Ints.find(V);
    if (It != Fr.Ints.end())
      It->second = E;
    else
      Fr.Ints.insert({V, E});
  }
  void setPtr(Frame &Fr, const Value *V, PtrVal P) {
    auto It = Fr.Ptrs.find(V);
    if (It != Fr.Ptrs.end())
      It->second = P;
    else
      Fr.Ptrs.insert({V, P});
  }
  PtrVal ptrVal(Frame &Fr, const Value *V) {
    auto It = Fr.Ptrs.find(V);
    if (It != Fr.Ptrs.end())
      return It->second;
    return PtrVal{V, isa<Constant>(V) ? 0u : Fr.Act, Ctx.bv_val(0, 64)};
  }
  /// A fresh (havocked) value for I's result, whatever its type.
  void havoc(Frame &Fr, const Instruction &I) {
    if (unsigned W = widthOf(I.getType()))
      setInt(Fr, &I, freshBv(W));
    else if (I.getType()->isPointerTy())
      setPtr(Fr, &I, PtrVal{&I, Fr.Act, Ctx.bv_val(0, 64)});
  }
  z3::expr resize(z3::expr E, unsigned To, bool Signed) {
    unsigned From = E.get_sort().bv_size();
    if (From == To)
      return E;
    if (From > To)
      return E.extract(To - 1, 0);
    return Signed ? z3::sext(E, To - From) : z3::zext(E, To - From);
  }

  /// The regions a pointer may point into, with symbolic offsets.
  void targets(const PtrVal &P, AccRec &R) {
    const PtsSet &S = PTA.pointsTo(P.Root);
    std::map<uint32_t, std::vector<int64_t>> ByObj;
    for (Loc L : S)
      ByObj[L.Obj].push_back(L.Off);
    for (auto &[Obj, Offs] : ByObj) {
      if ((Stop && Stop->load(std::memory_order_relaxed)) || Work.step())
        fail("stopped");
      const AbsObject &O = PTA.object(Obj);
      if (Obj == PointsTo::UnknownObj) {
        R.UnknownTarget = true;
        continue;
      }
      if (!O.Shared || O.Kind == ObjKind::Function)
        continue;
      auto Key = std::make_tuple(P.Root, P.RootAct, Obj);
      z3::expr Base = Ctx.bv_val(0, 64);
      bool Free = false;
      if (Offs.size() == 1 && Offs[0] != UnknownOffset) {
        Base = Ctx.bv_val(uint64_t(Offs[0]), 64);
      } else {
        auto It = OffCache.find(Key);
        if (It == OffCache.end())
          It = OffCache.insert({Key, freshBv(64)}).first;
        Base = It->second;
        Free = true;
      }
      z3::expr Pts = Ctx.bool_val(true);
      if (ByObj.size() > 1) {
        auto It = PtsCache.find(Key);
        if (It == PtsCache.end())
          It = PtsCache.insert({Key, freshBool()}).first;
        Pts = It->second;
      }
      R.Targets.push_back({Obj, Pts, (Base + P.Delta).simplify(), Free});
    }
  }

  void log(Frame &Fr, const Instruction &I, const Flow &Cur) {
    for (const MemAccess &A : PM.accessesOf(I)) {
      if (PM.isThreadPrivateAccess(A.Ptr))
        continue;
      AccRec R{&I, A.Kind, A.Size, Cur.Guard,
               A.Atomic ? Ctx.bool_val(true) : heldOf(Cur.L, AtomicSectionLock),
               {}, false, Cur.L};
      if (!A.Ptr || !A.Ptr->getType()->isPointerTy())
        R.UnknownTarget = true;
      else
        targets(ptrVal(Fr, A.Ptr), R);
      if (R.Targets.empty() && !R.UnknownTarget)
        continue;
      Recs.push_back(std::move(R));
    }
  }

  z3::expr gepOffset(Frame &Fr, const GEPOperator &G) {
    z3::expr Off = Ctx.bv_val(0, 64);
    for (gep_type_iterator GTI = gep_type_begin(&G), E = gep_type_end(&G);
         GTI != E; ++GTI) {
      const Value *Idx = GTI.getOperand();
      if (StructType *ST = GTI.getStructTypeOrNull()) {
        unsigned F = unsigned(cast<ConstantInt>(Idx)->getZExtValue());
        Off = Off + Ctx.bv_val(
                        uint64_t(DL.getStructLayout(ST)->getElementOffset(F)),
                        64);
        continue;
      }
      uint64_t Size = GTI.getSequentialElementStride(DL);
      if (!widthOf(Idx->getType()))
        fail("a vector index in address arithmetic");
      z3::expr I = resize(intVal(Fr, Idx), 64, true);
      Off = Off + I * Ctx.bv_val(Size, 64);
    }
    return Off;
  }

  void lockOp(Frame &Fr, const CallBase &CB, Intrinsic K, Flow &Cur) {
    switch (K) {
    case Intrinsic::Lock:
    case Intrinsic::RdLock:
      if (auto Id = Locks.lockOf(CB.getArgOperand(0)))
        setLock(Cur.L, *Id, Ctx.bool_val(true),
                K == Intrinsic::Lock ? Ctx.bool_val(true)
                                     : exclOf(Cur.L, *Id));
      return;
    case Intrinsic::TryLock:
    case Intrinsic::TryRdLock: {
      z3::expr R = freshBv(std::max(1u, widthOf(CB.getType())));
      if (widthOf(CB.getType()))
        setInt(Fr, &CB, R);
      if (auto Id = Locks.lockOf(CB.getArgOperand(0))) {
        z3::expr Ok = R == Ctx.bv_val(0, R.get_sort().bv_size());
        setLock(Cur.L, *Id, z3::ite(Ok, Ctx.bool_val(true), heldOf(Cur.L, *Id)),
                K == Intrinsic::TryLock
                    ? z3::ite(Ok, Ctx.bool_val(true), exclOf(Cur.L, *Id))
                    : exclOf(Cur.L, *Id));
      }
      return;
    }
    case Intrinsic::Unlock: {
      const Value *P = CB.getArgOperand(0);
      if (auto Id = Locks.lockOf(P)) {
        setLock(Cur.L, *Id, Ctx.bool_val(false), Ctx.bool_val(false));
        return;
      }
      // Unknown identity: every lock it may be is released.
      for (uint32_t Id = 1; Id < Cur.L.Held.size(); ++Id)
        if (Locks.mayRelease(P, Id))
          setLock(Cur.L, Id, Ctx.bool_val(false), Ctx.bool_val(false));
      return;
    }
    case Intrinsic::AtomicBegin:
      setLock(Cur.L, AtomicSectionLock, Ctx.bool_val(true), Ctx.bool_val(true));
      return;
    case Intrinsic::AtomicEnd:
      setLock(Cur.L, AtomicSectionLock, Ctx.bool_val(false),
              Ctx.bool_val(false));
      return;
    default:
      return;
    }
  }

  void callInst(Frame &Fr, const CallBase &CB, Flow &Cur, unsigned Depth) {
    if (CB.isInlineAsm()) {
      havoc(Fr, CB);
      return;
    }
    if (auto K = callIntrinsic(CB)) {
      switch (*K) {
      case Intrinsic::Lock:
      case Intrinsic::RdLock:
      case Intrinsic::TryLock:
      case Intrinsic::TryRdLock:
      case Intrinsic::Unlock:
      case Intrinsic::AtomicBegin:
      case Intrinsic::AtomicEnd:
        lockOp(Fr, CB, *K, Cur);
        if (*K != Intrinsic::TryLock && *K != Intrinsic::TryRdLock)
          havoc(Fr, CB);
        return;
      case Intrinsic::Assume:
        if (CB.arg_size() && widthOf(CB.getArgOperand(0)->getType())) {
          z3::expr C = intVal(Fr, CB.getArgOperand(0));
          Cur.Guard = Cur.Guard && C != Ctx.bv_val(0, C.get_sort().bv_size());
        }
        return;
      case Intrinsic::Exit:
      case Intrinsic::Error:
      case Intrinsic::ThreadExit:
        Cur.Guard = Ctx.bool_val(false);
        return;
      default:
        havoc(Fr, CB);
        return;
      }
    }
    std::vector<const Function *> Defined;
    bool External = false;
    for (const Function *C : PM.callees(CB)) {
      if (C->isDeclaration())
        External = true;
      else
        Defined.push_back(C);
    }
    if (Defined.empty()) {
      havoc(Fr, CB);
      return;
    }
    auto Args = [&](const Function &C) {
      std::vector<std::optional<z3::expr>> Ints(C.arg_size());
      std::vector<std::optional<PtrVal>> Ptrs(C.arg_size());
      for (unsigned I = 0; I < C.arg_size() && I < CB.arg_size(); ++I) {
        const Value *A = CB.getArgOperand(I);
        Type *PT = C.getArg(I)->getType();
        if (widthOf(PT) && widthOf(A->getType()))
          Ints[I] = resize(intVal(Fr, A), widthOf(PT), false);
        else if (PT->isPointerTy() && A->getType()->isPointerTy())
          Ptrs[I] = ptrVal(Fr, A);
      }
      return std::make_pair(Ints, Ptrs);
    };
    if (Defined.size() == 1 && !External) {
      auto [Ints, Ptrs] = Args(*Defined[0]);
      Ret R = call(*Defined[0], Ints, Ptrs, Cur, Depth + 1);
      bindResult(Fr, CB, R);
      return;
    }
    // Several possible callees: one branch each, chosen by a fresh selector.
    z3::expr Sel = freshBv(16);
    std::vector<Flow> Outs;
    std::vector<Ret> Rets;
    unsigned K = 0;
    for (const Function *C : Defined) {
      Flow F{Cur.Guard && Sel == Ctx.bv_val(K++, 16), Cur.L};
      auto [Ints, Ptrs] = Args(*C);
      Rets.push_back(call(*C, Ints, Ptrs, F, Depth + 1));
      Outs.push_back(F);
    }
    if (External) {
      Outs.push_back({Cur.Guard && Sel == Ctx.bv_val(K, 16), Cur.L});
      Rets.push_back({});
    }
    Cur.Guard = anyOf(Outs);
    Cur.L = mergeLocks(Outs);
    havoc(Fr, CB); // the merged result is not tracked
  }

  void bindResult(Frame &Fr, const CallBase &CB, const Ret &R) {
    if (widthOf(CB.getType()) && R.Int &&
        R.Int->get_sort().bv_size() == widthOf(CB.getType()))
      setInt(Fr, &CB, *R.Int);
    else if (CB.getType()->isPointerTy() && R.Ptr)
      setPtr(Fr, &CB, *R.Ptr);
    else
      havoc(Fr, CB);
  }

  void inst(Frame &Fr, const Instruction &I, Flow &Cur, unsigned Depth) {
    if (++Encoded > MaxEncodedInsts)
      fail(formatv("the encoding exceeds {0} instructions", MaxEncodedInsts));
    // Stop is set by run()'s watcher (driver cancellation or whoop's
    // budget); one instruction may cost many Z3 simplifications (a pointer
    // with hundreds of targets), so it is polled at every one.
    // The work budget counts every instruction (and every points-to target
    // in log()), so where it stops does not depend on the machine.
    if ((Stop && Stop->load(std::memory_order_relaxed)) || Work.step())
      fail("stopped");
    log(Fr, I, Cur);
    if (auto *BO = dyn_cast<BinaryOperator>(&I)) {
      unsigned W = widthOf(I.getType());
      if (!W) {
        havoc(Fr, I);
        return;
      }
      z3::expr A = intVal(Fr, BO->getOperand(0)), B = intVal(Fr, BO->getOperand(1));
      z3::expr Zero = Ctx.bv_val(0, W);
      switch (BO->getOpcode()) {
      case Instruction::Add: setInt(Fr, &I, A + B); return;
      case Instruction::Sub: setInt(Fr, &I, A - B); return;
      case Instruction::Mul: setInt(Fr, &I, A * B); return;
      case Instruction::And: setInt(Fr, &I, A & B); return;
      case Instruction::Or: setInt(Fr, &I, A | B); return;
      case Instruction::Xor: setInt(Fr, &I, A ^ B); return;
      case Instruction::UDiv:
        setInt(Fr, &I, z3::ite(B == Zero, freshBv(W), z3::udiv(A, B)));
        return;
      case Instruction::SDiv:
        setInt(Fr, &I, z3::ite(B == Zero, freshBv(W), A / B));
        return;
      case Instruction::URem:
        setInt(Fr, &I, z3::ite(B == Zero, freshBv(W), z3::urem(A, B)));
        return;
      case Instruction::SRem:
        setInt(Fr, &I, z3::ite(B == Zero, freshBv(W), z3::srem(A, B)));
        return;
      case Instruction::Shl:
      case Instruction::LShr:
      case Instruction::AShr: {
        z3::expr Big = z3::uge(B, Ctx.bv_val(W, W));
        z3::expr V = BO->getOpcode() == Instruction::Shl ? z3::shl(A, B)
                     : BO->getOpcode() == Instruction::LShr ? z3::lshr(A, B)
                                                            : z3::ashr(A, B);
        setInt(Fr, &I, z3::ite(Big, freshBv(W), V));
        return;
      }
      default:
        havoc(Fr, I);
        return;
      }
    }
    if (auto *Cmp = dyn_cast<ICmpInst>(&I)) {
      if (!widthOf(Cmp->getOperand(0)->getType())) {
        havoc(Fr, I); // pointer comparisons are not tracked
        return;
      }
      z3::expr A = intVal(Fr, Cmp->getOperand(0)),
               B = intVal(Fr, Cmp->getOperand(1));
      std::optional<z3::expr> C = icmpTerm(Cmp->getPredicate(), A, B);
      if (!C) {
        havoc(Fr, I);
        return;
      }
      setInt(Fr, &I, z3::ite(*C, Ctx.bv_val(1, 1), Ctx.bv_val(0, 1)));
      return;
    }
    if (auto *Cast = dyn_cast<CastInst>(&I)) {
      const Value *Op = Cast->getOperand(0);
      unsigned W = widthOf(I.getType());
      switch (Cast->getOpcode()) {
      case Instruction::ZExt:
      case Instruction::SExt:
      case Instruction::Trunc:
        if (W && widthOf(Op->getType())) {
          setInt(Fr, &I, resize(intVal(Fr, Op), W,
                                Cast->getOpcode() == Instruction::SExt));
          return;
        }
        break;
      case Instruction::BitCast:
      case Instruction::AddrSpaceCast:
        if (I.getType()->isPointerTy() && Op->getType()->isPointerTy()) {
          setPtr(Fr, &I, ptrVal(Fr, Op));
          return;
        }
        break;
      default:
        break;
      }
      havoc(Fr, I);
      return;
    }
    if (auto *G = dyn_cast<GetElementPtrInst>(&I)) {
      if (!I.getType()->isPointerTy()) {
        havoc(Fr, I);
        return;
      }
      PtrVal Base = ptrVal(Fr, G->getPointerOperand());
      setPtr(Fr, &I,
             PtrVal{Base.Root, Base.RootAct,
                    (Base.Delta + gepOffset(Fr, *cast<GEPOperator>(G)))});
      return;
    }
    if (auto *S = dyn_cast<SelectInst>(&I)) {
      if (unsigned W = widthOf(I.getType())) {
        (void)W;
        setInt(Fr, &I, z3::ite(boolVal(Fr, S->getCondition()),
                               intVal(Fr, S->getTrueValue()),
                               intVal(Fr, S->getFalseValue())));
        return;
      }
      if (I.getType()->isPointerTy()) {
        PtrVal A = ptrVal(Fr, S->getTrueValue()), B = ptrVal(Fr, S->getFalseValue());
        if (A.Root == B.Root && A.RootAct == B.RootAct) {
          setPtr(Fr, &I, PtrVal{A.Root, A.RootAct,
                                z3::ite(boolVal(Fr, S->getCondition()), A.Delta,
                                        B.Delta)});
          return;
        }
      }
      havoc(Fr, I);
      return;
    }
    if (auto *Fz = dyn_cast<FreezeInst>(&I)) {
      const Value *Op = Fz->getOperand(0);
      if (widthOf(I.getType()))
        setInt(Fr, &I, intVal(Fr, Op));
      else if (I.getType()->isPointerTy())
        setPtr(Fr, &I, ptrVal(Fr, Op));
      return;
    }
    if (auto *CB = dyn_cast<CallBase>(&I)) {
      callInst(Fr, *CB, Cur, Depth);
      return;
    }
    // Loads (havocked: another entry point may have written), allocas,
    // atomics, and everything else: a fresh value.
    havoc(Fr, I);
  }

  /// Encodes a call of F: Cur is the state at entry and becomes the state
  /// at return.
  Ret call(const Function &F, const std::vector<std::optional<z3::expr>> &Ints,
           const std::vector<std::optional<PtrVal>> &Ptrs, Flow &Cur,
           unsigned Depth) {
    if (Depth > MaxInlineDepth)
      fail(formatv("calls nest deeper than {0}", MaxInlineDepth));
    if (std::find(Stack.begin(), Stack.end(), &F) != Stack.end())
      fail(formatv("'{0}' is recursive", F.getName()));
    Stack.push_back(&F);
    auto &Info = Infos[&F];
    if (!Info)
      Info = std::make_unique<FnInfo>(const_cast<Function &>(F));
    FnInfo &FI = *Info;
    Frame Fr{++Act, {}, {}};
    for (unsigned I = 0; I < F.arg_size(); ++I) {
      if (I < Ints.size() && Ints[I])
        Fr.Ints.insert({F.getArg(I), *Ints[I]});
      else if (I < Ptrs.size() && Ptrs[I])
        Fr.Ptrs.insert({F.getArg(I), *Ptrs[I]});
    }
    struct Edge {
      Flow F;
      const BasicBlock *From;
    };
    // By block (reverse post-order index), not by address (see Frame).
    std::vector<std::vector<Edge>> In(FI.Order.size());
    std::vector<std::optional<Flow>> LoopEntry(FI.Order.size());
    std::vector<Flow> Exits;
    std::vector<Ret> ExitVals;
    In[FI.Index.lookup(&F.getEntryBlock())].push_back({Cur, nullptr});
    unsigned MyAct = Fr.Act;

    for (const BasicBlock *BB : FI.Order) {
      unsigned BBIndex = FI.Index.lookup(BB);
      if (In[BBIndex].empty())
        continue;
      std::vector<Edge> Edges = std::move(In[BBIndex]);
      In[BBIndex].clear();
      std::vector<Flow> Fs;
      for (Edge &E : Edges)
        Fs.push_back(E.F);
      Flow Here{anyOf(Fs), mergeLocks(Fs)};
      const Loop *L = FI.LI.getLoopFor(BB);
      bool Header = L && L->getHeader() == BB;
      // Phis: merged values on ordinary blocks; havocked at loop headers.
      for (const PHINode &Phi : BB->phis()) {
        if (Header) {
          havoc(Fr, Phi);
          continue;
        }
        if (unsigned W = widthOf(Phi.getType())) {
          (void)W;
          z3::expr V = intVal(Fr, Phi.getIncomingValueForBlock(Edges.back().From));
          for (size_t K = Edges.size() - 1; K-- > 0;) {
            z3::expr VK = intVal(Fr, Phi.getIncomingValueForBlock(Edges[K].From));
            V = z3::eq(VK, V) ? V : z3::ite(Edges[K].F.Guard, VK, V);
          }
          setInt(Fr, &Phi, V);
        } else if (Phi.getType()->isPointerTy()) {
          PtrVal P = ptrVal(Fr, Phi.getIncomingValueForBlock(Edges.back().From));
          bool Same = true;
          z3::expr D = P.Delta;
          for (size_t K = Edges.size() - 1; K-- > 0;) {
            PtrVal PK = ptrVal(Fr, Phi.getIncomingValueForBlock(Edges[K].From));
            if (PK.Root != P.Root || PK.RootAct != P.RootAct)
              Same = false;
            else
              D = z3::ite(Edges[K].F.Guard, PK.Delta, D);
          }
          if (Same)
            setPtr(Fr, &Phi, PtrVal{P.Root, P.RootAct, D});
          else
            havoc(Fr, Phi);
        }
      }
      if (Header) {
        // Houdini: each lock keeps its loop-entry value unless dropped.
        LoopEntry[BBIndex].emplace(Here);
        auto &Dropped = Drops[{MyAct, BB}];
        for (uint32_t Id : Dropped)
          setLock(Here.L, Id, freshBool(), freshBool());
        // Exclusive implies held, also for havocked locks.
        for (uint32_t Id : Dropped)
          Here.L.Excl[Id] = Here.L.Excl[Id] && Here.L.Held[Id];
      }
      for (const Instruction &I : *BB) {
        if (isa<PHINode>(I))
          continue;
        if (I.isTerminator())
          break;
        inst(Fr, I, Here, Depth);
      }
      const Instruction *T = BB->getTerminator();
      auto Go = [&](const BasicBlock *S, z3::expr G) {
        unsigned From = FI.Index.lookup(BB), To = FI.Index.lookup(S);
        if (To > From) {
          In[To].push_back({Flow{G, Here.L}, BB});
          return;
        }
        const Loop *SL = FI.LI.getLoopFor(S);
        if (!SL || SL->getHeader() != S || !SL->contains(BB))
          fail("irreducible control flow");
        if (!LoopEntry[To])
          fail("a loop entered other than through its header");
        latch(S, MyAct, Flow{G, Here.L}, *LoopEntry[To]);
      };
      if (auto *Br = dyn_cast<BranchInst>(T)) {
        if (Br->isUnconditional()) {
          Go(Br->getSuccessor(0), Here.Guard);
        } else {
          z3::expr C = boolVal(Fr, Br->getCondition());
          Go(Br->getSuccessor(0), Here.Guard && C);
          Go(Br->getSuccessor(1), Here.Guard && !C);
        }
      } else if (auto *Sw = dyn_cast<SwitchInst>(T)) {
        z3::expr V = intVal(Fr, Sw->getCondition());
        z3::expr Other = Here.Guard;
        for (auto Case : Sw->cases()) {
          z3::expr C = V == intVal(Fr, Case.getCaseValue());
          Go(Case.getCaseSuccessor(), Here.Guard && C);
          Other = Other && !C;
        }
        Go(Sw->getDefaultDest(), Other);
      } else if (auto *R = dyn_cast<ReturnInst>(T)) {
        Ret RV;
        if (const Value *V = R->getReturnValue()) {
          if (widthOf(V->getType()))
            RV.Int = intVal(Fr, V);
          else if (V->getType()->isPointerTy())
            RV.Ptr = ptrVal(Fr, V);
        }
        Exits.push_back(Here);
        ExitVals.push_back(RV);
      } else if (isa<UnreachableInst>(T)) {
        // the path ends
      } else {
        fail(formatv("unsupported terminator '{0}'", T->getOpcodeName()));
      }
    }
    Stack.pop_back();
    Ret Out;
    if (Exits.empty()) {
      Cur.Guard = Ctx.bool_val(false);
      return Out;
    }
    Cur.Guard = anyOf(Exits);
    Cur.L = mergeLocks(Exits);
    // The return value, when every exit returns the same kind.
    bool AllInt = true, AllPtr = true;
    for (const Ret &R : ExitVals) {
      AllInt &= R.Int.has_value();
      AllPtr &= R.Ptr.has_value();
    }
    if (AllInt) {
      z3::expr V = *ExitVals.back().Int;
      for (size_t K = ExitVals.size() - 1; K-- > 0;)
        V = z3::ite(Exits[K].Guard, *ExitVals[K].Int, V);
      Out.Int = V;
    } else if (AllPtr) {
      PtrVal P = *ExitVals.back().Ptr;
      bool Same = true;
      z3::expr D = P.Delta;
      for (size_t K = ExitVals.size() - 1; K-- > 0;) {
        if (ExitVals[K].Ptr->Root != P.Root ||
            ExitVals[K].Ptr->RootAct != P.RootAct)
          Same = false;
        else
          D = z3::ite(Exits[K].Guard, ExitVals[K].Ptr->Delta, D);
      }
      if (Same)
        Out.Ptr = PtrVal{P.Root, P.RootAct, D};
    }
    return Out;
  }

  /// A back edge: checks the loop's remaining candidate invariants (each
  /// lock as on loop entry) and drops those it cannot prove.
  void latch(const BasicBlock *Header, unsigned MyAct, const Flow &Back,
             const Flow &Entry) {
    auto &Dropped = Drops[{MyAct, Header}];
    size_t N = std::max(Back.L.Held.size(), Entry.L.Held.size());
    for (uint32_t Id = 0; Id < N; ++Id) {
      if (Dropped.count(Id))
        continue;
      z3::expr HB = heldOf(Back.L, Id), HE = heldOf(Entry.L, Id);
      z3::expr EB = exclOf(Back.L, Id), EE = exclOf(Entry.L, Id);
      if (z3::eq(HB, HE) && z3::eq(EB, EE))
        continue;
      z3::solver S(Ctx);
      Work.limitQuery(S, QueryUnits);
      S.add(Back.Guard && (HB != HE || EB != EE));
      ++HoudiniQueries;
      auto T0 = std::chrono::steady_clock::now();
      z3::check_result CR = S.check();
      HoudiniSeconds += std::chrono::duration<double>(
                            std::chrono::steady_clock::now() - T0)
                            .count();
      // Out of work budget (not the query's own limit): the encoding stops
      // here, the invariant is not dropped on a guess.
      if (Work.poll() && CR == z3::unknown)
        fail("stopped");
      if (CR != z3::unsat) {
        Dropped.insert(Id);
        NewDrops = true;
        ++DroppedCandidates;
      }
    }
  }

  const ProgramModel &PM;
  const PointsTo &PTA;
  const DataLayout &DL;
  z3::context &Ctx;
  LockTable &Locks;
  std::map<const Function *, std::unique_ptr<FnInfo>> &Infos;
  unsigned Copy;
  const std::atomic<bool> *Stop;
  WorkMeter &Work;
  unsigned Act = 0;
  uint64_t Fresh = 0;
  uint64_t Encoded = 0;
  bool NewDrops = false;
  std::vector<const Function *> Stack;
  std::map<std::pair<unsigned, const BasicBlock *>, std::set<uint32_t>> Drops;
  MapVector<std::tuple<const Value *, unsigned, uint32_t>, z3::expr> OffCache,
      PtsCache;
};

/// Stops whoop on time: sets Stop and interrupts Z3 (which cannot poll a
/// flag: a long check or simplification would otherwise run past the
/// limit) when the driver cancels or whoop's wall-clock safety net
/// (EngineOptions::WhoopWallLimit) runs out. Polls every 20 ms (and
/// interrupts again each time, once stopping); joined
/// before the Z3 context goes. Whoop's budget proper is its work budget
/// (WorkMeter), which does not depend on the machine's speed.
class StopWatcher {
public:
  StopWatcher(z3::context &Ctx, const std::atomic<bool> *Cancelled,
              std::chrono::steady_clock::time_point Start, double Budget)
      : Ctx(Ctx), Cancelled(Cancelled), Start(Start), Budget(Budget),
        Thread([this] { loop(); }) {}
  ~StopWatcher() {
    {
      std::lock_guard<std::mutex> G(M);
      Done = true;
    }
    CV.notify_all();
    Thread.join();
  }
  std::atomic<bool> Stop{false};
  /// Why Stop was set: the budget (else the driver's cancellation).
  std::atomic<bool> BudgetRanOut{false};

private:
  void loop() {
    std::unique_lock<std::mutex> L(M);
    while (!CV.wait_for(L, std::chrono::milliseconds(20), [&] { return Done; })) {
      bool Cancel = Cancelled && Cancelled->load();
      bool Over = Budget > 0 && std::chrono::duration<double>(
                                std::chrono::steady_clock::now() - Start)
                                    .count() > Budget;
      if (Cancel || Over) {
        // Again every 20 ms: Z3 forgets an interruption that comes before
        // a check starts.
        if (!Stop)
          BudgetRanOut = !Cancel;
        Stop = true;
        Ctx.interrupt();
      }
    }
  }
  z3::context &Ctx;
  const std::atomic<bool> *Cancelled;
  std::chrono::steady_clock::time_point Start;
  double Budget; ///< seconds (0: none)
  bool Done = false;
  std::mutex M;
  std::condition_variable CV;
  std::thread Thread;
};

} // namespace

Result WhoopEngine::run(const ProgramModel &PM, const EngineOptions &Opts) {
  auto Start = std::chrono::steady_clock::now();
  EngineOptions LOpts = Opts;
  LOpts.MaxFindings = 0;
  LocksetEngine Lockset;
  Result L = Lockset.run(PM, LOpts);
  double LocksetSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - Start)
                              .count();
  auto Finish = [&](Result &Out) -> Result & {
    if (Opts.MaxFindings && Out.Findings.size() > Opts.MaxFindings)
      Out.Findings.resize(Opts.MaxFindings);
    Out.stat("whoop_seconds",
             std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                           Start)
                 .count());
    return Out;
  };
  // Nothing to refine: the lockset engine's verdict is the answer, and it
  // is reported as that engine's.
  if (L.Program != Verdict::PossibleRace || L.Candidates.empty())
    return Finish(L);
  Result R = L;
  R.Engine = "whoop";
  for (Finding &F : R.Findings)
    F.Engine = "whoop";

  const PointsTo &PTA = PM.pointsTo();
  // Deleted in the background at the end of run() (Z3Reaper.h): declared
  // before everything that refers to it.
  ReapedContext Owner;
  z3::context &Ctx = Owner.get();
  StopWatcher Watch(Ctx, Opts.Cancelled, Start, Opts.WhoopWallLimit);
  // The work budget: --whoop-work units, else --whoop-budget seconds at the
  // calibrated rate (WorkMeter.h).
  uint64_t WorkLimit =
      Opts.WhoopWork ? Opts.WhoopWork : unitsForSeconds(Opts.WhoopBudget);
  WorkMeter Work(WorkLimit, &Ctx);
  LockTable Locks{PM};
  std::map<const Function *, std::unique_ptr<FnInfo>> Infos;

  // The templates that take part in candidate pairs.
  std::set<unsigned> Wanted;
  for (const Candidate &C : L.Candidates) {
    Wanted.insert(C.ThreadA);
    Wanted.insert(C.ThreadB);
  }
  struct Encoded {
    std::unique_ptr<Encoder> Copy[2];
    std::optional<std::string> Failure;
    std::map<const Instruction *, std::vector<size_t>> ByInst[2];
  };
  std::map<unsigned, Encoded> Enc;
  bool BudgetHit = false, WallHit = false;
  auto OverBudget = [&] {
    if (Work.exhausted())
      BudgetHit = true;
    else if (Watch.Stop && Watch.BudgetRanOut)
      WallHit = true;
    return BudgetHit || WallHit;
  };
  bool Cancelled = false;
  auto Stopped = [&] {
    if (Watch.Stop && !Watch.BudgetRanOut)
      Cancelled = true;
    return OverBudget() || Cancelled;
  };
  unsigned HoudiniRounds = 0, HoudiniQueries = 0, HoudiniDropped = 0;
  double HoudiniSeconds = 0;
  for (unsigned T : Wanted) {
    const ThreadTemplate &TT = PM.threads()[T];
    Encoded &E = Enc[T];
    // Main is encoded like any thread (from its entry: its accesses
    // before any thread exists are not in the candidates anyway).
    if (!TT.Entry) {
      E.Failure = "no entry function";
      continue;
    }
    if (Stopped()) {
      E.Failure = "budget exhausted";
      continue;
    }
    for (unsigned C = 0; C < 2 && !E.Failure; ++C) {
      E.Copy[C] = std::make_unique<Encoder>(PM, Ctx, Locks, Infos, C + 1,
                                            &Watch.Stop, Work);
      E.Failure = E.Copy[C]->encode(*TT.Entry);
      HoudiniRounds += E.Copy[C]->Rounds;
      HoudiniQueries += E.Copy[C]->HoudiniQueries;
      HoudiniDropped += E.Copy[C]->DroppedCandidates;
      HoudiniSeconds += E.Copy[C]->HoudiniSeconds;
      if (!E.Failure)
        for (size_t I = 0; I < E.Copy[C]->Recs.size(); ++I)
          E.ByInst[C][E.Copy[C]->Recs[I].Inst].push_back(I);
    }
    if (E.Failure && !Stopped())
      R.Reasons.push_back(formatv("whoop could not encode {0} ({1}); its "
                                  "pairs keep the lockset engine's result",
                                  TT.Name, *E.Failure));
  }

  double EncodeSeconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - Start)
                             .count() -
                         LocksetSeconds;
  // Candidates by template pair (A <= B), oriented so A runs in copy 1.
  std::map<std::pair<unsigned, unsigned>, std::vector<unsigned>> ByPair;
  std::vector<bool> Kept(L.Candidates.size(), true);
  for (unsigned I = 0; I < L.Candidates.size(); ++I) {
    const Candidate &C = L.Candidates[I];
    if (Enc[C.ThreadA].Failure || Enc[C.ThreadB].Failure)
      continue;
    ByPair[{std::min(C.ThreadA, C.ThreadB), std::max(C.ThreadA, C.ThreadB)}]
        .push_back(I);
  }

  unsigned Queries = 0, Unmatched = 0, TimedOut = 0, GuardQueries = 0,
           DecidedAlone = 0, ByModel = 0, UnknownTargets = 0;
  std::unordered_map<unsigned, bool> GuardCache;

  double SolveSeconds = 0;
  for (auto &[TP, Cands] : ByPair) {
    if (Stopped())
      break;
    // An interrupted Z3 call throws (a simplification) or answers unknown
    // (a check, after which get_model throws): either way the remaining
    // candidates keep the lockset engine's result.
    try {
    const Encoded &EA = Enc[TP.first], &EB = Enc[TP.second];
    const std::vector<AccRec> &RA = EA.Copy[0]->Recs, &RB = EB.Copy[1]->Recs;
    std::map<uint32_t, z3::expr> Watched;
    auto WatchedOf = [&](uint32_t Obj) {
      auto It = Watched.find(Obj);
      if (It == Watched.end())
        It = Watched
                 .emplace(Obj, Ctx.bv_const(formatv("watched_{0}", Obj)
                                                .str()
                                                .c_str(),
                                            64))
                 .first;
      return It->second;
    };
    auto Hit = [&](const AccRec &R, const Target &T) {
      z3::expr W = WatchedOf(T.Obj);
      z3::expr E = R.Guard && T.Pts && z3::ule(T.Off, W);
      if (R.Size)
        E = E && z3::ult(W - T.Off, Ctx.bv_val(R.Size, 64));
      if (uint64_t Size = PTA.object(T.Obj).Size)
        E = E && z3::ult(W, Ctx.bv_val(Size, 64));
      return E;
    };
    auto Protected = [&](const AccRec &X, const AccRec &Y) {
      z3::expr_vector V(Ctx);
      size_t N = std::min(X.Locks.Held.size(), Y.Locks.Held.size());
      for (size_t Id = 0; Id < N; ++Id)
        V.push_back(X.Locks.Held[Id] && Y.Locks.Held[Id] &&
                    (X.Locks.Excl[Id] || Y.Locks.Excl[Id]));
      return V.empty() ? Ctx.bool_val(false) : z3::mk_or(V);
    };
    // A record pair whose offsets are constants, with no lock or atomic
    // section that could protect it, races exactly when both paths are
    // feasible: the two copies share no symbol, so that is two small
    // queries on the guards alone (cached), not one on the pair.
    auto GuardSat = [&](const z3::expr &G) {
      unsigned Id = Z3_get_ast_id(Ctx, G);
      auto It = GuardCache.find(Id);
      if (It != GuardCache.end())
        return It->second;
      z3::solver GS(Ctx);
      Work.limitQuery(GS, QueryUnits);
      GS.add(G);
      ++GuardQueries;
      z3::check_result CR = GS.check();
      bool Sat = CR != z3::unsat; // unknown counts as feasible
      // A query the work budget cut is not cached: nothing after it is
      // decided (Stopped() holds from here on).
      if (!(Work.poll() && CR == z3::unknown))
        GuardCache.emplace(Id, Sat);
      return Sat;
    };
    auto Trivial = [&](const AccRec &X, const Target &TX, const AccRec &Y,
                       const Target &TY) -> std::optional<bool> {
      bool NX = TX.Off.is_numeral(), NY = TY.Off.is_numeral();
      if (!(NX || TX.FreeBase) || !(NY || TY.FreeBase))
        return std::nullopt;
      if (!Protected(X, Y).simplify().is_false())
        return std::nullopt;
      if (!(X.Atomic && Y.Atomic).simplify().is_false())
        return std::nullopt;
      if (!TX.Pts.is_true() && !TX.Pts.is_const())
        return std::nullopt;
      if (!TY.Pts.is_true() && !TY.Pts.is_const())
        return std::nullopt;
      // The bytes both may touch: a free base reaches any offset.
      uint64_t Lo = 0, Hi = UINT64_MAX;
      if (NX) {
        uint64_t O = TX.Off.get_numeral_uint64();
        Lo = std::max(Lo, O);
        Hi = std::min(Hi, X.Size ? O + X.Size : UINT64_MAX);
      }
      if (NY) {
        uint64_t O = TY.Off.get_numeral_uint64();
        Lo = std::max(Lo, O);
        Hi = std::min(Hi, Y.Size ? O + Y.Size : UINT64_MAX);
      }
      if (uint64_t Size = PTA.object(TX.Obj).Size)
        Hi = std::min(Hi, Size);
      if (Lo >= Hi)
        return false;
      return GuardSat(X.Guard) && GuardSat(Y.Guard);
    };
    std::map<unsigned, z3::expr> Disj;
    for (unsigned CI : Cands) {
      if (Work.step() || Stopped())
        break;
      const Candidate &C = L.Candidates[CI];
      // Orientation: the instruction run by TP.first goes to copy 1.
      std::vector<std::pair<const Instruction *, const Instruction *>> Orients;
      if (C.ThreadA == TP.first)
        Orients.push_back({C.A, C.B});
      if (C.ThreadB == TP.first)
        Orients.push_back({C.B, C.A});
      z3::expr_vector D(Ctx);
      bool Keep = false, SatAlone = false;
      for (auto [IA, IB] : Orients) {
        auto ItA = EA.ByInst[0].find(IA);
        auto ItB = EB.ByInst[1].find(IB);
        if (ItA == EA.ByInst[0].end() || ItB == EB.ByInst[1].end()) {
          Keep = true; // the encoding did not meet the access: keep it
          continue;
        }
        for (size_t XA : ItA->second)
          for (size_t XB : ItB->second) {
            const AccRec &X = RA[XA], &Y = RB[XB];
            if (X.Kind == AccessKind::Read && Y.Kind == AccessKind::Read)
              continue;
            if (X.UnknownTarget || Y.UnknownTarget) {
              Keep = true;
              ++UnknownTargets;
              continue;
            }
            for (const Target &TX : X.Targets)
              for (const Target &TY : Y.Targets) {
                if (TX.Obj != TY.Obj || Keep || SatAlone)
                  continue;
                Work.step();
                if (auto T = Trivial(X, TX, Y, TY)) {
                  // Decided without a pair query: a satisfiable one keeps
                  // the candidate, an unsatisfiable one adds nothing.
                  SatAlone |= *T;
                  continue;
                }
                D.push_back(Hit(X, TX) && Hit(Y, TY) &&
                            !(X.Atomic && Y.Atomic) && !Protected(X, Y));
              }
          }
      }
      if (SatAlone && !Keep) {
        ++DecidedAlone;
        continue;
      }
      if (Keep) {
        ++Unmatched;
        continue;
      }
      if (D.empty()) {
        Kept[CI] = false;
        continue;
      }
      Disj.emplace(CI, z3::mk_or(D));
    }
    // One watchdog query per candidate, on one solver per template pair.
    if (Stopped())
      break;
    z3::solver S(Ctx);
    Work.limitQuery(S, QueryUnits);
    std::vector<z3::model> Models;
    S.check(); // no assertions yet: the all-default model
    Models.push_back(S.get_model());
    for (auto &[CI, E] : Disj) {
      if (Stopped())
        break;
      // A model of an earlier query (or the all-default one) that
      // satisfies this pair's formula settles it without the solver.
      bool Witnessed = false;
      for (const z3::model &M : Models)
        if (Work.step(), M.eval(E, true).is_true()) {
          Witnessed = true;
          break;
        }
      if (Witnessed) {
        ++ByModel;
        continue;
      }
      z3::expr B = Ctx.bool_const(formatv("cand_{0}", CI).str().c_str());
      S.add(z3::implies(B, E));
      z3::expr_vector Assume(Ctx);
      Assume.push_back(B);
      auto T0 = std::chrono::steady_clock::now();
      if (Work.poll())
        break;
      Work.limitQuery(S, QueryUnits);
      z3::check_result CR = S.check(Assume);
      SolveSeconds += std::chrono::duration<double>(
                          std::chrono::steady_clock::now() - T0)
                          .count();
      ++Queries;
      // Cut by the work budget (not the query's own limit): undecided, as
      // every candidate after it.
      if (Work.poll() && CR == z3::unknown)
        break;
      if (CR == z3::sat) {
        if (Models.size() == 8)
          Models.erase(Models.begin() + 1);
        Models.push_back(S.get_model());
      }
      if (CR == z3::unsat)
        Kept[CI] = false;
      else if (CR == z3::unknown && !Stopped())
        ++TimedOut;
    }
    } catch (const z3::exception &) {
      if (!Stopped())
        throw; // not an interruption: a bug, reported as such
    }
    if (Stopped())
      break;
  }

  // The findings of the kept candidates.
  std::vector<Finding> Out;
  unsigned Refuted = 0;
  for (unsigned I = 0; I < Kept.size(); ++I)
    Refuted += !Kept[I];
  for (Finding &F : R.Findings) {
    bool Any = F.Candidates.empty();
    for (unsigned CI : F.Candidates)
      Any |= Kept[CI];
    if (Any)
      Out.push_back(std::move(F));
  }
  R.Findings = std::move(Out);
  R.Reasons.erase(
      std::remove_if(R.Reasons.begin(), R.Reasons.end(),
                     [](const std::string &S) {
                       return StringRef(S).starts_with(
                           "the lockset engine over-approximates");
                     }),
      R.Reasons.end());
  // No seconds measured at run time in these reasons: the work budget's
  // reason is the same on every run of the input.
  if (BudgetHit)
    R.Reasons.push_back(formatv(
        "whoop's work budget of {0} units ran out (raise it with "
        "--whoop-work=UNITS, or --whoop-budget=SECONDS at {1} units a "
        "second): the remaining candidate pairs keep the lockset engine's "
        "result",
        WorkLimit, UnitsPerSecond));
  else if (WallHit)
    R.Reasons.push_back(formatv(
        "whoop's wall-clock safety limit of {0:F1} s ran out before its work "
        "budget (the machine is much slower than the calibrated rate): the "
        "remaining candidate pairs keep the lockset engine's result",
        Opts.WhoopWallLimit));
  if (Cancelled) {
    R.Program = Verdict::Unknown;
    R.Reasons.push_back("time limit reached during whoop's pair checks");
  } else if (!R.Findings.empty()) {
    R.Program = Verdict::PossibleRace;
    R.Reasons.insert(R.Reasons.begin(),
                     "whoop over-approximates (havocked shared reads, loop "
                     "abstraction): it cannot confirm that a reported pair "
                     "is reachable");
  } else if (!PM.unsoundness().empty()) {
    R.Program = Verdict::Unknown;
  } else if (!L.CandidatesComplete) {
    R.Program = Verdict::Unknown;
    R.Reasons.push_back("the lockset engine's list of candidate pairs is "
                        "incomplete, so whoop cannot prove race freedom");
  } else {
    R.Program = Verdict::RaceFree;
    R.Reasons.clear();
    R.Assumptions = PM.assumptions();
    R.Assumptions.push_back(
        "whoop: every access stays inside the object it points to (memory "
        "safety is not checked), and the lockset engine's candidate pairs "
        "are the only ones (whoop refutes them; both analyses are sound)");
  }
  R.stat("whoop_lockset_seconds", LocksetSeconds);
  R.stat("whoop_encode_seconds", EncodeSeconds);
  R.stat("whoop_candidates", L.Candidates.size());
  R.stat("whoop_refuted", Refuted);
  R.stat("whoop_kept_unencoded", Unmatched);
  R.stat("whoop_queries", Queries);
  R.stat("whoop_guard_queries", GuardQueries);
  R.stat("whoop_kept_by_guards", DecidedAlone);
  R.stat("whoop_kept_by_earlier_model", ByModel);
  R.stat("whoop_unknown_target_pairs", UnknownTargets);
  R.stat("whoop_query_timeouts", TimedOut);
  R.stat("whoop_solve_seconds", SolveSeconds);
  R.stat("whoop_houdini_rounds", HoudiniRounds);
  R.stat("whoop_houdini_queries", HoudiniQueries);
  R.stat("whoop_houdini_dropped", HoudiniDropped);
  R.stat("whoop_houdini_seconds", HoudiniSeconds);
  R.stat("whoop_locks", Locks.Names.size() - 1);
  Work.poll();
  R.stat("whoop_work_units", Work.used());
  R.stat("whoop_work_limit", Work.limit());
  R.stat("whoop_work_steps", Work.steps());
  R.stat("whoop_z3_units", Work.z3Units());
  return Finish(R);
}

} // namespace crace
