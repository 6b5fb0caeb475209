//===- Executor.h - deterministic LLVM IR executor under a scheduler ------===//
//
// Runs the program's LLVM IR concretely, one thread at a time, as the
// `explore` engine (Inspect/PDP) needs it: every thread runs until its next
// *visible* operation — an access to memory another thread may reach (a
// global, the heap, an escaped stack slot), a synchronisation intrinsic,
// thread creation/join/exit, program exit — and stops there; the engine
// picks which thread's pending operation runs next (step()).
//
// Memory is a flat, concrete address space: every object (global, stack
// slot, heap block, function) gets its own address range with a guard gap
// after it, so pointers are plain integers and pointer arithmetic, casts
// and memcpy of pointers need nothing special; an access outside every live
// object is a memory error (null, out of bounds, use after free).
// Execution is deterministic given the schedule and the values of
// nondeterministic inputs, which the engine supplies (NondetSource), so a
// prefix of a run can be replayed exactly.
//
// Whatever the executor does not support (an unknown external function, a
// vector instruction, an exotic float type, ...) stops the run with
// Status::Unsupported and the reason; the engine turns that into `unknown`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engines/explore/Pdp.h"
#include "engines/explore/Scanf.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Instructions.h"
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace llvm {
class Module;
class DataLayout;
class Function;
class GlobalVariable;
class Constant;
} // namespace llvm

namespace crace {
class ProgramModel;
} // namespace crace

namespace crace::explore {

using Word = uint64_t;

/// A register value: a scalar (integers up to 64 bits, pointers, float and
/// double bit patterns) or the bytes of an aggregate in memory layout.
struct RVal {
  Word W = 0;
  std::vector<uint8_t> Bytes;
};

/// One input draw: the thread that made it and its index among that
/// thread's draws in the run (what comparison-guided inputs edit).
struct DrawRef {
  unsigned Tid = 0;
  uint32_t Index = 0;
  /// The draw is a count of input items (__crace_nondet_count: how many
  /// bytes a read returns).
  bool Count = false;
  /// The __crace_nondet_int/longlong call whose result the draw is (the
  /// engine may know its value classes, InputClasses.h); null otherwise.
  const llvm::CallBase *Site = nullptr;
};

/// A comparison of input bytes with constant bytes that came out unequal
/// (recorded under Executor::setInputGuidance; ExploreEngine edits the
/// draws so that the next run makes it equal).
struct InputCmp {
  const llvm::Instruction *Site = nullptr;
  /// Equal: the input operand should be Want (its terminating zero kept);
  /// Contain: Want should occur in it (strstr, strchr).
  enum Kind : uint8_t { Equal, Contain } K = Equal;
  /// Overwrite the operand's first bytes in place (strncmp, memcmp, one
  /// byte) rather than replace the whole string.
  bool Overwrite = false;
  /// The draws the operand's bytes came from, its end (the terminating
  /// zero, or the byte after a bounded operand) last; none where a byte
  /// is not input.
  std::vector<std::optional<DrawRef>> Refs;
  std::string Want;
  /// The comparing thread, how many draws it had made by then, and whether
  /// any of the operand's bytes still holds the value drawn for it (a
  /// buffer the program has cleared or reused holds none).
  unsigned Tid = 0;
  uint32_t Next = 0;
  bool Fresh = false;
};

/// One memory access made by a visible operation.
struct MemRef {
  Word Addr = 0;
  uint64_t Size = 0;
  bool Write = false;
  bool Atomic = false;
  /// free(): dependent with accesses to the block, but not itself a racing
  /// access.
  bool Free = false;
  /// The object accessed (for naming), and the offset inside it.
  uint32_t Obj = 0;
  uint64_t Off = 0;
};

/// What a thread will do next: the visible operation it is paused at.
struct PendingOp {
  enum Kind {
    Memory, // loads, stores, atomics, memcpy/memset, library buffers
    Lock,   // lock / rdlock (blocks), trylock / tryrdlock (never)
    Unlock,
    AtomicBegin,
    AtomicEnd,
    CondWait, // releases the mutex, starts waiting
    CondWake, // woken: re-acquires the mutex (blocks until free)
    CondSignal,
    BarrierWait, // arrives; then BarrierLeave
    BarrierLeave,
    SemWait,
    SemPost,
    Create,
    Join,
    ThreadEnd,   // the thread's start routine returns / pthread_exit
    ProgramExit, // main returns, exit(), abort(), reach_error()
    ForkChild,   // fork() on the child's side: the other threads are gone
    Blocked,     // blocked forever (failed __VERIFIER_assume)
    Done,        // finished thread
  };
  Kind K = Done;
  const llvm::Instruction *Inst = nullptr;
  llvm::SmallVector<MemRef, 2> Refs;
  /// Lock, condition, barrier or semaphore address; joined thread id.
  Word Sync = 0;
  /// Second sync object (the mutex of a condition wait).
  Word Sync2 = 0;
  bool ReadLock = false;
  bool Try = false;
  bool Broadcast = false;
  /// For ProgramExit: an assertion failure / reach_error, not a normal exit.
  bool Error = false;
  /// For Memory: a library call the executor runs natively (printf family,
  /// string functions, fcntl F_GETLK), executed again when the operation
  /// is performed (performNative).
  const llvm::Function *Native = nullptr;
  /// Values a native call drew when it became pending (fcntl F_GETLK: the
  /// lock found and its owner), used when it is performed.
  Word Aux = 0, Aux2 = 0;
};

enum class Status { Ok, Unsupported, MemoryError, BoundHit };

/// Supplies nondeterministic values (Bits wide); the engine records them so
/// a run can be replayed.
using NondetSource = std::function<Word(unsigned Bits)>;

struct ExecLimits {
  uint64_t MaxInstructionsPerRun = 20'000'000;
  /// A thread that runs this many instructions without a visible
  /// operation (a local infinite loop) is taken as never acting again.
  uint64_t MaxLocalSteps = 2'000'000;
  unsigned MaxStackDepth = 2000;
  unsigned MaxThreads = 64;
  /// Threads parked at the thread bound in one run (see
  /// Executor::park()); beyond them the creator waits (0: it waits at
  /// the bound).
  unsigned MaxParked = 0;
};

class Executor {
public:
  Executor(const ProgramModel &PM, ExecLimits Limits);
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  /// Starts a fresh run: globals initialised, main paused at its first
  /// visible operation.
  Status reset(NondetSource Nondet);
  [[nodiscard]] unsigned numThreads() const { return Threads.size(); }
  [[nodiscard]] const PendingOp &pending(unsigned T) const {
    return Threads[T].Pending;
  }
  [[nodiscard]] bool enabled(unsigned T) const;
  /// Executes T's pending operation and runs T on to its next visible one.
  Status step(unsigned T);
  /// The program has exited (main returned, exit, abort, assertion).
  [[nodiscard]] bool exited() const { return Exited; }
  [[nodiscard]] const std::string &error() const { return Error; }
  [[nodiscard]] const llvm::Instruction *errorInst() const { return ErrorAt; }
  /// Comparison-guided inputs: remember which draw each input byte in
  /// memory came from (through byte copies), and collect the comparisons
  /// of such bytes with constants that failed (inputCmps, reset per run).
  void setInputGuidance(bool On) { Guidance = On; }
  [[nodiscard]] const std::vector<InputCmp> &inputCmps() const { return Cmps; }
  /// The draw being made (valid inside the NondetSource callback).
  [[nodiscard]] DrawRef currentDraw() const { return CurDraw; }
  /// Where a thread of this run was found looping without any visible
  /// operation (MaxLocalSteps), if one was.
  /// Where a thread of this run met what the executor cannot execute (it
  /// stopped there for good; the other threads went on), and why.
  [[nodiscard]] const llvm::Instruction *stoppedAt() const { return StoppedAt; }
  [[nodiscard]] const std::string &stoppedWhy() const { return StoppedWhy; }
  /// The engine has taken note of it (until the next thread stops).
  void clearStopped() { StoppedAt = nullptr; }
  /// A call the executor ran past without executing it (no body and no
  /// model, or a library result the models do not compute): its result
  /// was drawn as an input and its effect on memory was not modelled.
  struct HavocSite {
    const llvm::Instruction *Inst = nullptr;
    std::string What;
  };
  /// The calls run past since the last takeHavocs() (then cleared).
  [[nodiscard]] std::vector<HavocSite> takeHavocs() {
    return std::exchange(NewHavocs, {});
  }
  /// The scanf calls given one text of standard input (callScanf) since
  /// the last takeChosenInputs() (then cleared): the run covers that
  /// text, not the others (failures, other strings).
  [[nodiscard]] std::vector<const llvm::CallBase *> takeChosenInputs() {
    return std::exchange(NewChosen, {});
  }
  /// T ran past such a call in this run: what it does from there on may
  /// not be what the program does.
  [[nodiscard]] bool havocked(unsigned T) const { return Threads[T].Havocked; }
  [[nodiscard]] const llvm::Instruction *divergedAt() const {
    return DivergedAt;
  }
  [[nodiscard]] bool isSignalHandler(unsigned T) const {
    return Threads[T].SignalHandler;
  }
  [[nodiscard]] const std::string &threadName(unsigned T) const {
    return Threads[T].Name;
  }
  /// Thread that created T (T's creation event), or -1 for main.
  [[nodiscard]] int creatorOf(unsigned T) const { return Threads[T].Creator; }
  /// C-level name of the byte at Off of object Obj ("x", "s.f", "heap ...").
  [[nodiscard]] std::string describe(uint32_t Obj, uint64_t Off,
                                     uint64_t Size) const;
  /// The C name of the object at Addr ("m", "s.lock", "heap ...").
  [[nodiscard]] std::string describeAddress(Word Addr) const;
  /// Names of the locks T holds (and "atomic section").
  [[nodiscard]] std::vector<std::string> locksHeld(unsigned T) const;
  /// The addresses of the locks T owns (mutexes, write-held rwlocks), in
  /// increasing order.
  void ownedLocks(unsigned T, llvm::SmallVectorImpl<Word> &Out) const;
  [[nodiscard]] uint64_t instructionsExecuted() const { return Steps; }
  /// Where T is (innermost frame first); empty when it has no future
  /// (finished, ending, blocked for good, or the program has exited).
  [[nodiscard]] ThreadPos position(unsigned T) const;
  /// A condition signal found more than one waiter (only the longest
  /// waiter is woken: one of the possible choices).
  [[nodiscard]] bool signalChoiceCut() const { return SignalChoice; }
  /// Creations at the thread bound in this run: each returned a handle of
  /// a thread that does not run in it (parked). The run is the prefix of
  /// executions in which those threads have not started yet: every race
  /// in it is real, but the runs with them started are not explored.
  [[nodiscard]] unsigned parkedThreads() const { return Parked; }
  /// Creations past the bound park their thread, up to MaxParked a run.
  [[nodiscard]] bool parkNext() const {
    return Threads.size() >= Limits.MaxThreads && Parked < Limits.MaxParked;
  }
  /// T waits at the thread bound to create a thread (no more parking).
  [[nodiscard]] bool atThreadBound(unsigned T) const {
    return Threads[T].Pending.K == PendingOp::Create &&
           Threads.size() >= Limits.MaxThreads && !parkNext();
  }
  /// H is the handle of a parked thread (joining it waits for good).
  [[nodiscard]] bool parkedHandle(Word H) const {
    return H >= parkedBase() && H - parkedBase() < Parked;
  }
  [[nodiscard]] unsigned maxThreads() const { return Limits.MaxThreads; }
  /// Takes effect at the next reset().
  void setMaxThreads(unsigned N) { Limits.MaxThreads = N; }
  /// Takes effect at once (the next creation).
  void setMaxParked(unsigned N) { Limits.MaxParked = N; }
  /// T came back to a local state without any global change: it only
  /// spins until another thread writes what it reads.
  [[nodiscard]] bool spinning(unsigned T) const {
    return Threads[T].SpinBlocked;
  }

private:
  struct Object {
    Word Base = 0;
    uint64_t Size = 0;
    std::vector<uint8_t> Bytes;
    const llvm::Value *Site = nullptr; // GlobalVariable, AllocaInst, call
    bool Alive = true;
    bool Visible = true;
    bool IsFunction = false;
    bool Heap = false;
  };
  struct Frame {
    const llvm::Function *F = nullptr;
    const llvm::BasicBlock *BB = nullptr;
    const llvm::BasicBlock *Prev = nullptr;
    llvm::BasicBlock::const_iterator PC;
    llvm::DenseMap<const llvm::Value *, RVal> Vals;
    llvm::SmallVector<uint32_t, 4> Allocas;
    const llvm::CallBase *Caller = nullptr;
    /// A variadic function's operands after its parameters, laid out as the
    /// i386 / x86-64 ABIs put them on the stack (va_start points there).
    Word VarArgs = 0;
  };
  struct Thread {
    std::string Name;
    /// Started by a signal handler's installation (models/signal.c).
    bool SignalHandler = false;
    int Creator = -1;
    std::vector<Frame> Stack;
    PendingOp Pending;
    Word Result = 0;
    bool Finished = false;
    // Condition wait: the condition waited on, and whether signalled.
    Word WaitCond = 0;
    bool Signalled = false;
    uint64_t WaitTicket = 0;
    // Barrier: the generation this thread waits to end.
    uint64_t BarrierGen = 0;
    // Spin detection: local states seen since the last global change
    // (Epoch), the bytes and locks read on the way; a thread that comes
    // back to a local state with nothing changed is spinning.
    bool SpinBlocked = false;
    /// Ran past a call it did not execute (havoc()).
    bool Havocked = false;
    /// What the pending scanf stores (callScanf).
    std::vector<ScanStore> Scanned;
    uint64_t SpinDoneKey = 0;
    uint64_t SpinEpoch = ~uint64_t(0);
    std::set<uint64_t> SpinSeen;
    llvm::SmallVector<std::pair<Word, uint64_t>, 4> CycleRefs;
    llvm::SmallVector<Word, 2> CycleLocks;
  };
  struct LockState {
    int Owner = -1;
    unsigned Depth = 0;
    unsigned Readers = 0;
  };
  struct BarrierState {
    unsigned N = 0, Arrived = 0;
    uint64_t Generation = 0;
  };

  // Memory.
  uint32_t newObject(uint64_t Size, const llvm::Value *Site, bool Visible);
  std::optional<uint32_t> objectAt(Word Addr) const;
  /// Object containing [Addr, Addr+Size), or an error message.
  bool checkAccess(Word Addr, uint64_t Size, uint32_t &Obj, const char *What);
  bool load(Word Addr, uint64_t Size, uint8_t *Out);
  bool store(Word Addr, uint64_t Size, const uint8_t *In);
  void writeConstant(const llvm::Constant *C, uint8_t *Out);
  Word globalAddress(const llvm::GlobalVariable *GV, unsigned T);

  // Values.
  RVal get(const llvm::Value *V, unsigned T);
  RVal constant(const llvm::Constant *C, unsigned T);
  bool evalPure(const llvm::Instruction &I, llvm::ArrayRef<RVal> Ops,
                RVal &Out);
  uint64_t sizeOf(llvm::Type *Ty) const;

  // Running.
  /// Runs thread T until it is at a visible operation (sets Pending).
  Status runToVisible(unsigned T);
  /// Executes one invisible instruction or recognises a visible one (sets
  /// Pending and returns true in Visible).
  Status execute(unsigned T, bool &Visible);
  Status callFunction(unsigned T, const llvm::Function *F,
                      const llvm::CallBase &CB, llvm::ArrayRef<RVal> Args);
  Status callExternal(unsigned T, const llvm::Function *F,
                      const llvm::CallBase &CB, bool &Visible);
  /// The result of a known library function without a model, when the
  /// executor can compute it (math, ctype) or it is an input (time).
  std::optional<Word> externalValue(const llvm::Function *F,
                                    const llvm::CallBase &CB, unsigned T);
  /// The printf family (printf, fprintf, dprintf, sprintf, snprintf and
  /// their v- forms), executed exactly (Printf.cpp): the text formatted,
  /// its reads recorded in P when P is given; nullopt with Error set when
  /// the call cannot be executed.
  std::optional<std::string> printfText(unsigned T, const llvm::Function *F,
                                        const llvm::CallBase &CB, PendingOp *P);
  /// The number of bytes the call writes into its buffer for Text (0 for
  /// the ones that print to a stream).
  uint64_t printfWriteSize(unsigned T, const llvm::Function *F,
                           const llvm::CallBase &CB, const std::string &Text);
  /// Whether F is one of the family (and one that writes a buffer, the
  /// sprintf forms); callPrintf runs it.
  static bool isPrintf(const llvm::Function *F);
  static bool isSprintf(const llvm::Function *F);
  /// fcntl(fd, F_GETLK/F_GETLK64/F_OFD_GETLK, &lock): the one fcntl
  /// command that writes through its third operand.
  bool isFcntlGetLock(const llvm::Function *F, const llvm::CallBase &CB,
                      unsigned T);
  Status callPrintf(unsigned T, const llvm::Function *F,
                    const llvm::CallBase &CB, bool &Visible);
  /// strlen, strcmp, ... computed exactly (Strings.cpp); reads in P.
  static bool isStringBuiltin(const llvm::Function *F);
  // Comparison-guided inputs (Guidance.cpp).
  /// Draws an input of Bits bits for thread T (Count: a read's length).
  Word draw(unsigned T, unsigned Bits, bool Count = false,
            const llvm::CallBase *Site = nullptr);
  std::optional<DrawRef> taintAt(Word A) const;
  void noteLoad(unsigned T, const llvm::LoadInst &LI, Word A);
  /// SI stored the byte Stored at A.
  void noteStore(unsigned T, const llvm::StoreInst &SI, Word A, uint8_t Stored);
  void noteCopy(Word Dst, Word Src, uint64_t N);
  void noteICmp(unsigned T, const llvm::ICmpInst &I, llvm::ArrayRef<RVal> Ops);
  void noteStringCall(unsigned T, const llvm::Function *F,
                      const llvm::CallBase &CB, Word Result);
  /// The N bytes at A, read without an access and leaving Error as it was
  /// (guidance only looks); unset when they are not all readable.
  std::optional<std::string> peek(Word A, uint64_t N);
  /// The draws of the bytes of [A, A + N) or, with N unset, of the string
  /// at A and its zero (at most 4096 bytes); unset when none is input.
  std::optional<std::vector<std::optional<DrawRef>>>
  inputRefs(Word A, std::optional<uint64_t> N, bool *Fresh = nullptr);
  /// Records Cmp as made by thread T now.
  void addInputCmp(unsigned T, InputCmp Cmp, bool Fresh);
  bool Guidance = false;
  std::vector<uint32_t> DrawCount;
  DrawRef CurDraw;
  /// Per byte of memory an input draw wrote: the draw and the value.
  llvm::DenseMap<Word, std::pair<DrawRef, uint8_t>> Taint;
  llvm::DenseMap<std::pair<unsigned, const llvm::Value *>, DrawRef> CallDraw;
  llvm::DenseMap<std::pair<unsigned, const llvm::Value *>, Word> LoadAddr;
  std::vector<InputCmp> Cmps;
  std::optional<Word> stringResult(unsigned T, const llvm::Function *F,
                                   const llvm::CallBase &CB, PendingOp *P);
  Status callStringBuiltin(unsigned T, const llvm::Function *F,
                           const llvm::CallBase &CB, bool &Visible);
  /// fcntl(fd, F_GETLK, &flock): the kernel reports no lock or another
  /// process's lock (input), or fails.
  Status callFcntlGetLock(unsigned T, const llvm::Function *F,
                          const llvm::CallBase &CB, bool &Visible);
  Status performFcntlGetLock(unsigned T, const llvm::CallBase &CB);
  /// sscanf, executed exactly (Scanf.cpp): what it stores and returns; its
  /// reads (input and format) and writes recorded in P when P is given.
  static bool isSscanf(const llvm::Function *F);
  std::optional<ScanResult> sscanfResult(unsigned T, const llvm::CallBase &CB,
                                         PendingOp *P);
  Status callSscanf(unsigned T, const llvm::Function *F,
                    const llvm::CallBase &CB, bool &Visible);
  Status performSscanf(unsigned T, const llvm::CallBase &CB);
  /// scanString on Input with CB's pointer operands from FirstPtr on.
  std::optional<ScanResult> scanInto(unsigned T, const llvm::CallBase &CB,
                                     llvm::StringRef Input, llvm::StringRef Fmt,
                                     unsigned FirstPtr, PendingOp *P);
  /// scanf from standard input, given a text it reads in full (Scanf.cpp);
  /// nullopt when the call is left to the generic library path.
  static bool isScanf(const llvm::Function *F);
  std::optional<Status> callScanf(unsigned T, const llvm::Function *F,
                                  const llvm::CallBase &CB, bool &Visible);
  Status performScanf(unsigned T, const llvm::CallBase &CB);
  /// Makes a scanf call's stores (CB's, for the error message).
  Status storeScanned(const llvm::CallBase &CB,
                      llvm::ArrayRef<ScanStore> Stores);
  /// This run's scanf calls have read standard input.
  bool StdinRead = false;
  /// The C string at Addr (without its zero), at most Max bytes of it (a
  /// string cut at Max needs no zero), the bytes read (the zero too when
  /// reached) recorded as reads in P when P is given; nullopt (Error set)
  /// when Addr is not a string in live memory.
  std::optional<std::string>
  readCString(Word Addr, PendingOp *P,
              uint64_t Max = std::numeric_limits<uint64_t>::max());
  /// Performs the pending natively executed call CB of thread T.
  Status performNative(unsigned T, const llvm::CallBase &CB);
  /// A library call the executor runs natively (F): a memory operation
  /// whose reads and writes the caller adds to the returned op, done when
  /// the thread is stepped (performMemory computes it again).
  PendingOp nativeCall(const llvm::Function *F, const llvm::CallBase &CB);
  /// Sets CB's integer result, makes P T's pending operation and performs
  /// it at once when it touches no shared memory.
  Status pendNative(unsigned T, const llvm::CallBase &CB, PendingOp P,
                    Word Result, bool &Visible);
  /// Lays out a variadic call's extra operands (callFunction).
  Status setUpVarArgs(unsigned T, Frame &Fr, const llvm::CallBase &CB,
                      llvm::ArrayRef<RVal> Args);
  /// llvm.va_start / va_copy / va_end.
  Status vaIntrinsic(unsigned T, const llvm::CallBase &CB);
  Status callLLVMIntrinsic(unsigned T, const llvm::Function *F,
                           const llvm::CallBase &CB, bool &Visible);
  void returnFrom(unsigned T, RVal V);
  void advance(unsigned T);
  void setResult(unsigned T, const llvm::Instruction *I, RVal V);
  Status unsupported(const llvm::Instruction *I, const std::string &What);
  Status memoryError(const llvm::Instruction *I, const std::string &What);
  bool memRef(Word Addr, uint64_t Size, bool Write, bool Atomic, PendingOp &P,
              const char *What);
  Status performMemory(unsigned T);
  unsigned spawn(const llvm::Function *F, Word Arg, unsigned Creator);
  Status stepImpl(unsigned T);
  PendingOp LastStepped;

  const ProgramModel &PM;
  const llvm::Module &M;
  const llvm::DataLayout &DL;
  ExecLimits Limits;
  const llvm::Instruction *DivergedAt = nullptr;
  const llvm::Instruction *StoppedAt = nullptr;
  std::string StoppedWhy;
  std::vector<HavocSite> NewHavocs;
  std::vector<const llvm::CallBase *> NewChosen;
  Status stopIfUnsupported(unsigned T, Status S);
  /// Runs T past the call CB without executing it (What says why it
  /// cannot be executed): an integer or floating-point result is an input
  /// of its width, a pointer result is null or a fresh zeroed block of
  /// HavocBlockBytes; T is marked havocked.
  Status havoc(unsigned T, const llvm::CallBase &CB, std::string What);
  static constexpr uint64_t HavocBlockBytes = 4096;
  unsigned PtrBytes;
  NondetSource Nondet;

  std::vector<Object> Objects;
  std::map<Word, uint32_t> ByBase;
  Word NextAddr = 0;
  llvm::DenseMap<const llvm::GlobalVariable *, uint32_t> Globals;
  std::map<std::pair<const llvm::GlobalVariable *, unsigned>, uint32_t> TLS;
  llvm::DenseMap<const llvm::Function *, Word> FunctionAddr;
  llvm::DenseMap<Word, const llvm::Function *> FunctionAt;
  llvm::DenseMap<const llvm::Constant *, RVal> ConstCache;
  /// Memory of all globals right after initialisation, copied on reset.
  std::vector<Object> InitialObjects;
  Word InitialNextAddr = 0;
  bool Initialised = false;

  std::vector<Thread> Threads;
  std::map<Word, LockState> Locks;
  int AtomicOwner = -1;
  unsigned AtomicDepth = 0;
  std::map<Word, BarrierState> Barriers;
  std::map<Word, int64_t> Semaphores;
  uint64_t NextTicket = 0;
  bool Exited = false;
  bool SignalChoice = false;
  /// pthread_create's handle store.
  bool storeHandle(unsigned T, const llvm::CallBase &Create, Word H);
  /// A creation at the thread bound: the new thread is parked, with a
  /// handle of its own, and does not run in this run; the creator goes on.
  /// The runs explored are those where the thread has not started yet:
  /// never a wrong race, and never a proof (the search notes the bound).
  bool park(unsigned T, const llvm::CallBase &Create);
  unsigned Parked = 0;
  /// Parked handles lie far above the real ones (a thread's index + 1).
  Word parkedBase() const { return Word(1) << (PtrBytes * 8 - 2); }
  /// Bumped by every change of global state a spinning thread could see.
  uint64_t Epoch = 0;
  uint64_t localHash(unsigned T) const;
  /// Identifies the other threads' pending operations that would change
  /// what spinning thread T reads (0: none).
  uint64_t enablerKey(unsigned T) const;
  void noteSpin(unsigned T, const PendingOp &Done, uint64_t EpochBefore);
  void unblockSpinners(Word Addr, uint64_t Size, Word Lock, unsigned By);
  uint64_t Steps = 0;
  std::string Error;
  const llvm::Instruction *ErrorAt = nullptr;
};

} // namespace crace::explore
