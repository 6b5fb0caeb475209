//===- WhoopEncoder.h - whoop's symbolic encoder of a thread template ----===//
//
// Private to src/engines/whoop/: a guarded symbolic execution of one copy
// of a thread template into Z3 terms in which only locals, lock state and
// the access log are tracked (memory contents never are: shared reads are
// havocked, and so are reads of unpromoted locals, which only loses
// precision). WhoopEngine.cpp pairs the copies' access logs.
//
//===----------------------------------------------------------------------===//
#ifndef CRACE_ENGINES_WHOOP_WHOOPENCODER_H
#define CRACE_ENGINES_WHOOP_WHOOPENCODER_H

#include "model/LockTable.h"
#include "model/ProgramModel.h"
#include "smt/IRTerms.h"
#include "smt/Solver.h"
#include "smt/WorkMeter.h"
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
#include <map>
#include <set>
#include <unordered_map>

namespace crace::whoop {

using namespace llvm;

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
          unsigned Copy, const std::atomic<bool> *Stop, WorkMeter &Work,
          const std::string &SmtLogDir);

  /// Encodes the template from Entry, running Houdini to its fixpoint.
  /// Returns the reason on failure.
  std::optional<std::string> encode(const Function &Entry);

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

  [[noreturn]] void fail(std::string Why) {
    throw EncodeFailure{std::move(Why)};
  }

  z3::expr freshBv(unsigned W);
  z3::expr freshBool();

  /// Bit I of a lock-state vector (ids beyond it are not held).
  z3::expr bit(const std::vector<z3::expr> &V, size_t I);
  void setLock(LockState &L, uint32_t Id, z3::expr H, z3::expr E);
  z3::expr heldOf(const LockState &L, size_t I) { return bit(L.Held, I); }
  z3::expr exclOf(const LockState &L, size_t I) { return bit(L.Excl, I); }

  /// ite-merge of lock states under the given guards (first true wins).
  LockState mergeLocks(const std::vector<Flow> &Fs);
  z3::expr anyOf(const std::vector<Flow> &Fs);

  unsigned widthOf(Type *T);

  z3::expr intVal(Frame &Fr, const Value *V);
  z3::expr boolVal(Frame &Fr, const Value *V);
  void setInt(Frame &Fr, const Value *V, z3::expr E);
  void setPtr(Frame &Fr, const Value *V, PtrVal P);
  PtrVal ptrVal(Frame &Fr, const Value *V);
  /// A fresh (havocked) value for I's result, whatever its type.
  void havoc(Frame &Fr, const Instruction &I);

  /// The regions a pointer may point into, with symbolic offsets.
  void targets(const PtrVal &P, AccRec &R);

  void log(Frame &Fr, const Instruction &I, const Flow &Cur);

  z3::expr gepOffset(Frame &Fr, const GEPOperator &G);

  void lockOp(Frame &Fr, const CallBase &CB, Intrinsic K, Flow &Cur);

  void callInst(Frame &Fr, const CallBase &CB, Flow &Cur, unsigned Depth);

  void bindResult(Frame &Fr, const CallBase &CB, const Ret &R);

  void inst(Frame &Fr, const Instruction &I, Flow &Cur, unsigned Depth);

  /// Encodes a call of F: Cur is the state at entry and becomes the state
  /// at return.
  Ret call(const Function &F, const std::vector<std::optional<z3::expr>> &Ints,
           const std::vector<std::optional<PtrVal>> &Ptrs, Flow &Cur,
           unsigned Depth);

  /// A back edge: checks the loop's remaining candidate invariants (each
  /// lock as on loop entry) and drops those it cannot prove.
  void latch(const BasicBlock *Header, unsigned MyAct, const Flow &Back,
             const Flow &Entry);

  const ProgramModel &PM;
  const PointsTo &PTA;
  const DataLayout &DL;
  z3::context &Ctx;
  LockTable &Locks;
  std::map<const Function *, std::unique_ptr<FnInfo>> &Infos;
  unsigned Copy;
  const std::atomic<bool> *Stop;
  WorkMeter &Work;
  /// Houdini's checks, each on a fresh Z3 solver.
  std::unique_ptr<smt::Solver> Houdini;
  unsigned Act = 0;
  uint64_t Fresh = 0;
  uint64_t Encoded = 0;
  bool NewDrops = false;
  std::vector<const Function *> Stack;
  std::map<std::pair<unsigned, const BasicBlock *>, std::set<uint32_t>> Drops;
  MapVector<std::tuple<const Value *, unsigned, uint32_t>, z3::expr> OffCache,
      PtsCache;
};

} // namespace crace::whoop

#endif
