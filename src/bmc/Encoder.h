//===- Encoder.h - bounded symbolic execution of LLVM IR into Z3 ----------===//
//
// Internal to the bmc engine (Bmc.h is the public interface).
//
// Encoding (CBMC style, "guarded SSA" built by symbolic execution with
// merging at every join point):
//  * A function body is executed block by block in reverse post-order, with
//    natural loops collapsed into one node; a loop node runs its body once
//    per iteration, up to Options::Unwind back edges, then the states still
//    on a back edge become an *unwinding check* (an event, below) and are
//    cut. Irreducible control flow is unsupported.
//  * Every block execution merges the states arriving on its incoming edges
//    into one: a path guard (a named Boolean), memory and liveness arrays and
//    phi values as if-then-else over the incoming guards. SSA values live in
//    one map per frame: each block runs once per iteration, and the clone is
//    in LCSSA form, so a value used outside its loop always flows through a
//    phi of an exit block, evaluated when the exit edge is taken.
//  * Calls are inlined (a fresh frame per call); indirect calls are split
//    over the address-taken functions of matching type; recursion deeper
//    than Options::RecursionBound is an unwinding check.
//  * Everything that can go wrong on a path is an *event* with the path's
//    guard: failures (the property), unwinding/recursion bounds, memory
//    errors, undefined behaviour (division by zero, oversized shifts,
//    `unreachable`) and unsupported constructs. All but failures cut the path
//    (assert-then-assume), so a failure event is reached only by a path with
//    no earlier problem.
//  * Over-approximations (floating point, results of known library
//    functions, library writes) produce fresh values and set the state's
//    `Havoc` flag; a failure reached with the flag set is not a confirmed
//    counterexample.
//
// Memory model: pointers are bit vectors of the target's pointer width whose
// high ObjBits bits are an object id and whose low bits are a byte offset
// (object 0 is null). Every allocation instance (global, function, alloca
// execution, malloc call execution) gets a fresh concrete id. Memory is one
// Z3 array  object id -> (offset -> byte); stores are byte-wise, little
// endian, loads concatenate bytes. `Alive: id -> Bool` (state) and
// `objsize: id -> offset` (an uninterpreted function fixed at allocation)
// give the validity check  Alive[o] && off <= size(o) && n <= size(o)-off
// done at every access. Fresh objects are unconstrained (uninitialised
// memory is nondeterministic); zero-initialised globals start from a
// constant-zero array. Integer casts to and from pointers keep the bits, so
// provenance travels with the value.
//
// Concrete accesses are resolved while encoding: a read at a known object
// and offset is looked up through the stores with known indices and the
// if-then-else merges (`resolve`), and a check at a known address with a
// known size is decided here, so straight-line code and loops with known
// counters reach the solver as constants. Variable indexing yields
// concat(object, offset) once it is checked to stay in its object, so the
// object stays known.
//
// Our bit patterns are not real addresses: integers derived from pointers
// (`ptrtoint` and arithmetic on it, tracked per function) are exact only in
// round trips, differences and small alignment masks; an address compared
// by order across objects, truncated, or leaving the function's SSA values
// becomes an arbitrary value (havoc).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "bmc/Bmc.h"
#include "smt/Solver.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"

#include <z3++.h>

#include <chrono>
#include <map>
#include <unordered_map>

namespace crace::bmc {

enum class EventKind {
  Failure,
  Unwinding,
  MemoryError,
  UndefinedBehavior,
  Unsupported
};

/// Something that happens on a path: reached when Guard holds.
struct Event {
  EventKind Kind;
  z3::expr Guard;
  z3::expr Havoc; ///< over-approximated values used before (failures)
  const llvm::Instruction *At = nullptr;     ///< in the clone
  std::vector<const llvm::CallBase *> Stack; ///< in the clone
  std::string Reason;
};

/// A place where a value was over-approximated.
struct HavocSite {
  z3::expr Guard;
  std::string Reason;
};

struct NondetRecord {
  z3::expr Guard, Value;
  const llvm::CallBase *Call = nullptr; ///< in the clone; null for arguments
  std::string Name;
};

struct VisitRecord {
  z3::expr Guard;
  const llvm::BasicBlock *Block;
  std::vector<const llvm::CallBase *> Stack;
};

/// Thrown to stop encoding (cancellation, limits); the message is the
/// reason every later query reports.
struct EncodingAborted {
  std::string Reason;
};

class Encoder {
public:
  Encoder(z3::context &Z, smt::Solver &S, const llvm::Module &M,
          const Options &O);
  ~Encoder();

  /// Encodes a run of Entry. Throws EncodingAborted.
  void run(const llvm::Function &Entry);

  std::vector<Event> Events;
  std::vector<HavocSite> Havocs;
  std::vector<NondetRecord> Nondets;
  std::vector<VisitRecord> Visits;
  /// Havoc flag of the initial state (extern globals) and its reason.
  std::vector<std::string> InitialHavocReasons;

private:
  struct State {
    z3::expr Guard, Mem, Alive, Havoc;
  };
  struct Incoming {
    State S;
    std::vector<z3::expr> Phis; ///< in the order of the block's phis
  };
  struct FunctionInfo {
    std::unique_ptr<llvm::DominatorTree> DT;
    std::unique_ptr<llvm::LoopInfo> LI;
    /// Per region (null: the function body; else one loop iteration) the
    /// blocks of that region and the headers of its immediate subloops, in
    /// reverse post-order.
    std::map<const llvm::Loop *, std::vector<const llvm::BasicBlock *>> Nodes;
    bool Irreducible = false;
    /// Integers computed from pointer bits (ptrtoint and what is derived
    /// from it), whose numeric value in a real run differs from ours.
    llvm::DenseSet<const llvm::Value *> AddressDerived;
  };
  struct Frame {
    const llvm::Function *F = nullptr;
    FunctionInfo *FI = nullptr;
    const llvm::CallBase *Site = nullptr;
    std::unordered_map<const llvm::Value *, z3::expr> Vals;
    std::map<const llvm::BasicBlock *, std::vector<Incoming>> Pending;
    std::map<const llvm::Loop *, std::vector<Incoming>> Back;
    std::vector<State> Returns;
    std::vector<z3::expr> RetVals;
    std::vector<unsigned> Allocas; ///< object ids killed at return
    /// Z3 reuses the ids of the terms it frees and orders terms by id (in
    /// its simplifier and solver), so terms must not be freed in an order
    /// that depends on addresses (Vals' buckets, Pending's and Back's
    /// pointer keys): that made the queries and the work they cost differ
    /// between runs. They are freed in the order of their ids instead.
    ~Frame();
    Frame() = default;
    Frame(const Frame &) = delete;
    Frame &operator=(const Frame &) = delete;
  };

  // Control flow.
  FunctionInfo &info(const llvm::Function &F);
  std::optional<State> callFunction(const llvm::Function &F,
                                    const llvm::CallBase *Site,
                                    const std::vector<z3::expr> &Args,
                                    const State &In, z3::expr *RetOut);
  void runRegion(Frame &Fr, const llvm::Loop *L);
  void runLoop(Frame &Fr, const llvm::Loop *L);
  void runBlock(Frame &Fr, const llvm::BasicBlock *BB);
  void addEdge(Frame &Fr, const llvm::BasicBlock *From,
               const llvm::BasicBlock *To, State S);
  void terminate(Frame &Fr, const llvm::Instruction &I, State &S);
  Incoming merge(std::vector<Incoming> &Ins);

  // Instructions.
  void exec(Frame &Fr, const llvm::Instruction &I, State &S);
  void execCall(Frame &Fr, const llvm::CallBase &CB, State &S);
  bool execBuiltin(Frame &Fr, const llvm::CallBase &CB, const llvm::Function &F,
                   State &S);
  bool execLLVMIntrinsic(Frame &Fr, const llvm::CallBase &CB,
                         const llvm::Function &F, State &S);
  void execDefinedCall(Frame &Fr, const llvm::CallBase &CB,
                       const llvm::Function &F, State &S);
  void execIndirectCall(Frame &Fr, const llvm::CallBase &CB, State &S);
  std::optional<z3::expr> pureOp(Frame *Fr, const llvm::Instruction &I);
  bool addressCompare(Frame &Fr, const llvm::ICmpInst &I, State &S);

  // Values.
  z3::expr val(Frame *Fr, const llvm::Value *V);
  z3::expr escape(Frame &Fr, const llvm::Value *V, State &S,
                  const llvm::Instruction &At);
  z3::expr constVal(const llvm::Constant *C);
  void constBytes(const llvm::Constant *C, uint64_t Off,
                  const std::function<void(uint64_t, z3::expr)> &Byte);
  z3::expr fresh(unsigned Bits, const char *Prefix);
  z3::expr havoc(State &S, unsigned Bits, const std::string &Reason);
  unsigned regBits(llvm::Type *T) const;
  uint64_t memBytes(llvm::Type *T) const;
  z3::expr resize(const z3::expr &E, unsigned Bits) const;
  z3::expr bv(uint64_t V, unsigned Bits);
  z3::expr toBool(const z3::expr &E);
  z3::expr fromBool(const z3::expr &B);
  z3::expr mkAnd(const z3::expr &A, const z3::expr &B);
  z3::expr mkOr(const z3::expr &A, const z3::expr &B);
  z3::expr name(const z3::expr &B);

  // Memory.
  z3::expr objOf(const z3::expr &P);
  z3::expr offOf(const z3::expr &P);
  std::optional<unsigned> objNumeral(const z3::expr &P);
  bool isConcatPointer(const z3::expr &P) const;
  z3::expr resolve(const z3::expr &A, const z3::expr &I, unsigned Depth = 0);
  z3::expr innerOf(const State &S, const z3::expr &P);
  z3::expr byteIndex(const z3::expr &Off, uint64_t K);
  z3::expr address(unsigned Obj);
  unsigned newObject(const z3::expr &Size, bool Heap);
  z3::expr validAccess(const State &S, const z3::expr &P, const z3::expr &N);
  bool checkAccess(Frame &Fr, const llvm::Instruction &I, State &S,
                   const z3::expr &P, const z3::expr &N, const char *What);
  z3::expr load(const State &S, const z3::expr &P, uint64_t Bytes);
  void store(State &S, const z3::expr &P, const z3::expr &V, uint64_t Bytes);
  void copyBytes(State &S, const z3::expr &Dst, const z3::expr &Src,
                 const z3::expr &N);
  void setBytes(State &S, const z3::expr &Dst, const z3::expr &Byte,
                const z3::expr &N);

  // Events.
  void event(EventKind K, const State &S, const z3::expr &Cond,
             const llvm::Instruction *At, std::string Reason);
  void cutIf(State &S, const z3::expr &Bad, EventKind K,
             const llvm::Instruction *At, std::string Reason);
  std::vector<const llvm::CallBase *> stack() const;
  void poll();

  // The work budget (Options::Work). Z3 builds most terms in constant time,
  // but its simplifier and its lambda abstraction visit the whole term they
  // are given, with no cache across calls, and the abstraction visits each
  // nested lambda's body anew: a term holding the memory costs as much as
  // the memory's history (a library write after merged paths that each
  // made one: exponentially more). These count those nodes first (no
  // further than the budget allows) and throw EncodingAborted when the
  // budget is spent; without a budget they only do what they stand for.
  void meterNodes(uint64_t Nodes);
  void meterTerm(const z3::expr &E);
  z3::expr simplified(const z3::expr &E);
  /// E has SimplifyNodeCap nodes or more (as meterTerm counts them): a
  /// load leaves it unsimplified. Z3's simplifier walks all of a term, the
  /// memory a select reads included (every earlier write's store or
  /// lambda), and keeps nothing between calls, so simplifying every load
  /// of a long run made the encoding quadratic (WHOOP's char/efirtc
  /// driver: over 100 s, 10 s with the cap). A much lower cap (1000)
  /// leaves so much to Z3's own preprocessing that a small program's
  /// push() no longer returns (kiss/heap_two_instances.c).
  bool tooLargeToSimplify(const z3::expr &E);
  static constexpr uint64_t SimplifyNodeCap = 100000;
  z3::expr lambdaOf(const z3::expr &X, const z3::expr &Body);

  z3::context &Z;
  smt::Solver &Solver;
  const llvm::Module &M;
  const llvm::DataLayout &DL;
  const Options &O;
  unsigned PtrBits, ObjBits, OffBits;
  z3::sort ObjSort, OffSort, ByteSort;
  z3::func_decl SizeFn, HeapFn;
  unsigned NextObj = 1, NextName = 0;
  std::map<const llvm::GlobalValue *, unsigned> GlobalIds;
  std::map<unsigned, const llvm::Function *> FunctionIds;
  std::map<unsigned, uint64_t> GlobalSizes; ///< global variables (always alive)
  std::map<unsigned, uint64_t> ConstSizes;  ///< objects of constant size
  struct Resolved {
    z3::expr A, I, R;
  };
  std::unordered_map<uint64_t, Resolved> ResolveCache;
  std::optional<z3::expr> LastGepNatural;
  std::unordered_map<const llvm::Constant *, z3::expr> ConstCache;
  std::map<const llvm::Function *, std::unique_ptr<FunctionInfo>> Infos;
  std::vector<Frame *> Frames;
  z3::expr Mem0, Alive0;
  unsigned BlockVisits = 0;
  uint64_t MeteredNodes = 0; ///< nodes not yet charged as a whole unit
  std::chrono::steady_clock::time_point Start;

public:
  unsigned blockVisits() const { return BlockVisits; }
};

/// "file:line" of I (or its function's name when it has no location).
std::string location(const llvm::Instruction *I);

} // namespace crace::bmc
