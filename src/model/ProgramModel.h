//===- ProgramModel.h - the program as every engine sees it --------------===//
//
// Built once from the linked, cleaned-up llvm::Module: thread templates (main
// and one per thread-creation site, with their multiplicity), the joins that
// order them, points-to and escape facts, the memory accesses to possibly
// shared locations, and the list of reasons why an analysis of this program
// cannot be sound (unknown external calls, inline assembly, unresolved
// function pointers, ...). Engines read this and the IR; they never see
// Clang.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/PointsTo.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Dominators.h"
#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
class Function;
class Instruction;
class CallBase;
class BasicBlock;
class DIType;
class GlobalVariable;
class Loop;
class LoopInfo;
class SCEV;
class SCEVAddRecExpr;
class ScalarEvolution;
} // namespace llvm

namespace crace {

struct SourceLoc {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  /// The C function the location is in (the inlined one, for code inlined
  /// by crace's front end).
  std::string Function;
  [[nodiscard]] bool valid() const { return Line != 0; }
  /// Whether File names a file: code without debug information has only
  /// its function, shown as File "f()" (ProgramModel::location).
  [[nodiscard]] bool hasFile() const {
    return !File.empty() && File != Function + "()";
  }
  [[nodiscard]] std::string str() const;
};

/// A function that runs as a thread: main, or the start routine of one
/// thread-creation site.
/// The name a thread running F is shown with (F's name, without the
/// front end's trampoline prefix).
std::string threadName(const llvm::Function *F);

/// An object of the entry-point harness (frontend/HarnessWriter.cpp), which
/// allocates it at the #line file "/crace-harness/<type>" (driver mode) or
/// "/crace-harness/library/<type>" (library mode): its name ("kernel
/// object <struct dev>", "library object <struct counter>"), and in Type
/// its type's name; nullopt for any other file.
std::optional<std::string> harnessObjectName(llvm::StringRef File,
                                             std::string *Type = nullptr);

/// Whether a __crace_thread_create call starts a signal handler
/// (models/signal.c installs handlers as threads).
bool isSignalHandlerCreate(const llvm::CallBase &CB);

struct ThreadTemplate {
  unsigned Id = 0;
  std::string Name;
  const llvm::Function *Entry = nullptr;
  /// The __crace_thread_create call; null for main.
  const llvm::CallBase *CreateSite = nullptr;
  /// More than one instance may exist (creation in a loop, in recursion, in
  /// a thread, in a function called from several places).
  bool Multi = false;
  /// CreateSite lies in main's own body (so main's control flow orders it).
  bool CreatedInMain = false;
  /// A signal handler installed at CreateSite (models/signal.c).
  bool SignalHandler = false;
  /// Joins in main that wait for this (single) instance.
  std::vector<const llvm::CallBase *> Joins;
  /// For a template created in a loop of main: a block of main that is
  /// reached only after a join loop has waited for every instance.
  const llvm::BasicBlock *AllJoinedAt = nullptr;
  /// CreatorsInMain is known (main is not called by the program itself).
  bool CreatorsKnown = false;
  /// The instructions of main's own body whose execution may create an
  /// instance of this template: its create site when that is in main, the
  /// calls in main that may reach the create site through calls, and the
  /// creators of every template whose code may reach it (a thread created
  /// by a thread). No instance exists before main executes one of them.
  std::vector<const llvm::Instruction *> CreatorsInMain;
};

enum class AccessKind { Read, Write };

/// One memory access instruction (or modelled access) in the program.
struct MemAccess {
  const llvm::Instruction *Inst = nullptr;
  const llvm::Value *Ptr = nullptr;
  AccessKind Kind = AccessKind::Read;
  bool Atomic = false;
  /// Bytes accessed, 0 when unknown.
  uint64_t Size = 0;
  /// Made by a library function on behalf of the program (printf reading
  /// its arguments): library-internal memory (FILE objects) is not tracked.
  bool Library = false;
};

class ProgramModel {
public:
  /// Builds the model. Returns null when cancelled.
  static std::unique_ptr<ProgramModel>
  build(llvm::Module &M, const std::atomic<bool> *Cancel = nullptr);
  ProgramModel(const ProgramModel &) = delete;
  ProgramModel &operator=(const ProgramModel &) = delete;

  [[nodiscard]] llvm::Module &module() const { return M; }
  [[nodiscard]] const PointsTo &pointsTo() const { return *PTA; }
  [[nodiscard]] const std::vector<ThreadTemplate> &threads() const {
    return Threads;
  }
  [[nodiscard]] const llvm::Function *mainFunction() const { return Main; }
  /// Why no analysis of this program can claim race freedom (empty: none).
  [[nodiscard]] const std::vector<std::string> &unsoundness() const {
    return Unsound;
  }
  /// Assumptions every sound verdict on this program rests on.
  [[nodiscard]] std::vector<std::string> assumptions() const;

  /// Functions a call may call (resolved through points-to).
  [[nodiscard]] llvm::SmallVector<const llvm::Function *, 4>
  callees(const llvm::CallBase &CB) const {
    return PTA->callees(CB);
  }
  /// The memory accesses an instruction performs (empty for most).
  [[nodiscard]] llvm::SmallVector<MemAccess, 2>
  accessesOf(const llvm::Instruction &I) const;

  /// A as the lockset pairs it: an access through pointer arithmetic that
  /// starts at a decayed array member (`p = s->buf; ... p[i]`, a string
  /// model's loop inlined at `strncpy(s->buf, ...)`) is one access to the
  /// whole member, which it cannot leave without undefined behaviour (the
  /// member not its struct's last, nor in a union: memberArrayBytes). Its
  /// pointer is then the member's, whose locations keep an element's
  /// offset where the walk's own would be anywhere. Otherwise A itself.
  [[nodiscard]] MemAccess withinMember(MemAccess A) const;
  /// True when the access through Ptr touches only the running thread's own
  /// copy (a direct access to a __thread variable whose address never
  /// escapes to another thread).
  [[nodiscard]] bool isThreadPrivateAccess(const llvm::Value *Ptr) const;
  /// Objects that stand for exactly one concrete object at run time.
  [[nodiscard]] bool isSingleton(uint32_t Obj) const;
  /// The one concrete lock a lock pointer denotes (a singleton object at a
  /// known offset), when points-to shows it can be only that one.
  [[nodiscard]] std::optional<Loc> lockLocation(const llvm::Value *P) const;
  /// The block can execute more than once in one run of its function.
  [[nodiscard]] bool inCycle(const llvm::BasicBlock *BB) const;
  /// The instructions that may write into global G (through points-to),
  /// in code that may run (model/CounterJoins.cpp).
  [[nodiscard]] std::vector<const llvm::Instruction *>
  writersOf(const llvm::GlobalVariable &G) const;
  /// F may run: main reaches it by calls, thread creations or function
  /// pointers (findThreads); every function when there is no main.
  [[nodiscard]] bool mayRun(const llvm::Function &F) const {
    return Reachable.empty() || Reachable.contains(&F);
  }
  /// The fork call whose child process alone runs BB (model/ForkRegions.cpp:
  /// BB lies in the code the child's side of the fork's result test
  /// dominates, and that code never leaves it), the innermost one; null
  /// for code that may run in the process that forked.
  [[nodiscard]] const llvm::CallBase *
  forkChild(const llvm::BasicBlock *BB) const {
    return ForkChild.lookup(BB);
  }
  /// Every call of F is made by main's thread, at most once per run.
  [[nodiscard]] bool runsOnceInMain(const llvm::Function *F) const;

  /// Order facts inside main: A executes and then B may execute after it.
  [[nodiscard]] bool mayReachInMain(const llvm::Instruction *From,
                                    const llvm::Instruction *To) const;
  [[nodiscard]] bool dominatesInMain(const llvm::Instruction *A,
                                     const llvm::Instruction *B) const;
  [[nodiscard]] bool dominatesInMain(const llvm::BasicBlock *A,
                                     const llvm::Instruction *B) const;
  /// Instructions of main after which threads may exist.
  [[nodiscard]] const std::vector<const llvm::Instruction *> &
  spawnPointsInMain() const {
    return SpawnPoints;
  }

  /// Source location of an instruction (of the user's call for inlined
  /// model code).
  [[nodiscard]] SourceLoc location(const llvm::Instruction *I) const;
  /// "counter", "s.field", "a[3]", "heap object (malloc at f.c:3)".
  /// A heap block without a struct type of its own is named after the
  /// struct field Access (the accessing pointer, if given) reaches.
  [[nodiscard]] std::string describe(Loc L, uint64_t Size = 0,
                                     const llvm::Value *Access = nullptr) const;

private:
  ProgramModel(llvm::Module &M);
  void findThreads();
  void findJoins();
  void findJoinLoops();
  /// A loop of main that joins a handle loaded from an add-recurrence
  /// address on every iteration (findJoinLoops).
  struct JoinLoop {
    const llvm::Loop *L;
    /// The address the handle is loaded from.
    const llvm::SCEVAddRecExpr *Handle;
    /// The back edge's count.
    const llvm::SCEV *Count;
    const llvm::BasicBlock *Exit;
    /// The block of the join call.
    const llvm::BasicBlock *Join;
  };
  void joinLoopsOverCounters(llvm::ScalarEvolution &SE,
                             llvm::ArrayRef<JoinLoop> Joins);
  /// Templates whose instances main waits for by a count of running ones
  /// (model/CounterJoins.cpp).
  void findCounterJoins();
  [[nodiscard]] const llvm::BasicBlock *
  counterJoin(const ThreadTemplate &T, const llvm::LoopInfo &LI) const;
  /// The functions that may run after main executed From (false: any).
  bool mayRunAfter(const llvm::Instruction *From,
                   llvm::DenseSet<const llvm::Function *> &Out) const;
  void findCreators();
  void checkSoundness();
  void findForkChildren();
  void findVaListReaders();

  llvm::Module &M;
  const llvm::Function *Main = nullptr;
  std::unique_ptr<PointsTo> PTA;
  std::vector<ThreadTemplate> Threads;
  std::vector<std::string> Unsound;
  std::vector<const llvm::Instruction *> SpawnPoints;
  std::unique_ptr<llvm::DominatorTree> MainDT;
  /// mayReachInMain's answers per pair of blocks (a block reaches another
  /// through its successors): the lockset pairing asks for the same few
  /// blocks millions of times. Not safe to share between threads.
  mutable llvm::DenseMap<
      std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>, bool>
      BlockReach;
  llvm::DenseSet<const llvm::BasicBlock *> CycleBlocks;
  mutable llvm::DenseMap<const llvm::Function *, bool> OnceCache;
  /// Per pointer parameter that every call passes a decayed array member
  /// (memberArrayBytes; a caller's such parameter in turn): the most bytes
  /// from where a call points to its member's end, and the most of a whole
  /// member when every call points to one's start (0: not so).
  llvm::DenseMap<const llvm::Argument *, std::pair<uint64_t, uint64_t>>
      ArgMemberBytes;
  void boundArguments();
  /// memberArrayBytes of P, or a parameter's ArgMemberBytes.
  [[nodiscard]] uint64_t memberBytes(const llvm::Value *P,
                                     bool WholeOnly) const;
  /// Accesses of unknown length through a decayed array member end with
  /// it.
  void boundByMembers(llvm::SmallVectorImpl<MemAccess> &Out) const;
  /// "struct job.done": the struct field Access addresses, at object
  /// offset Off (UnknownOffset: any); empty when it cannot say.
  std::string accessedField(const llvm::Value *Access, int64_t Off) const;
  /// The complete struct or union of debug information named Name.
  const llvm::DIType *namedType(llvm::StringRef Name) const;
  /// The struct type of each heap allocation site's block (null: none),
  /// found once per site (describe() names every finding's accesses).
  mutable llvm::DenseMap<const llvm::Value *, const llvm::DIType *> HeapStructs;
  /// Debug-info types by name (driver harness objects), built on demand.
  mutable std::map<std::string, const llvm::DIType *> NamedTypes;
  mutable bool NamedTypesBuilt = false;
  llvm::DenseSet<const llvm::Function *> Reachable;
  llvm::DenseMap<const llvm::BasicBlock *, const llvm::CallBase *> ForkChild;
  /// Defined functions that call a VA_LIST_READER library function,
  /// directly or through the functions they call (findVaListReaders).
  llvm::DenseSet<const llvm::Function *> VaListReaders;
};

} // namespace crace
