//===- PointsTo.h - field-sensitive Andersen points-to analysis ----------===//
//
// Flow- and context-insensitive inclusion-based points-to analysis over LLVM
// IR. Abstract objects are globals, stack slots, heap allocation sites (one
// per inlined __crace_alloc call) and functions, plus one Unknown object for
// memory crace cannot see (integers cast to pointers, results of unknown
// external functions). Pointer values carry (object, byte offset) pairs, the
// offset becoming Unknown after variable indexing; object contents are
// tracked per field (byte offset), with stores to an unknown field kept
// apart and seen by every load of that object. Integers derived from pointers
// keep their targets, so pointer arithmetic through integers is followed.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <atomic>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace llvm {
class Module;
class Value;
class Function;
class CallBase;
class Constant;
class Instruction;
class LoadInst;
class StoreInst;
class BinaryOperator;
class DataLayout;
class Type;
class ArrayType;
class GEPOperator;
class StructType;
class InlineAsm;
class raw_ostream;
class StringRef;
} // namespace llvm

namespace crace {

/// T is a pointer, or an aggregate with one, or (with IntBits) an integer
/// of at least IntBits bits, or an aggregate with one.
bool holdsPointer(llvm::Type *T,
                  std::optional<unsigned> IntBits = std::nullopt);

/// A byte loaded from memory (Root) may be stored again: directly, through
/// phis and selects, or as an argument of a function that may store it
/// (a byte-wise copy of a pointer).
bool bytesMayBeStored(const llvm::Value *Root);

/// Every instruction of IA computes a number in registers (crc32, bswap,
/// popcnt, bit scans, rdtsc, cpuid): what it yields is no pointer.
bool asmYieldsNumbers(const llvm::InlineAsm &IA);

/// An upper bound of the unsigned integer Len (a copy's length) from its
/// constant, casts, arithmetic, selects and phis; nullopt if none below
/// 2^32.
std::optional<uint64_t> lengthBound(const llvm::Value *Len,
                                    const llvm::DataLayout &DL);

/// F returns a fresh heap block (or null) on every path, and does nothing
/// else with it: the pointer is only compared and returned, never stored,
/// passed on or read or written through (a wrapper such as my_malloc()
/// around malloc, typically called through a function pointer). Each call
/// of F then makes an object no other call's result points to, and F
/// itself never touches it.
bool returnsUntouchedAllocation(const llvm::Function &F);

/// Where F's result points when it is always one of F's pointer arguments
/// moved by a byte offset, or null (strchr's model, a helper that skips
/// blanks): the arguments it may be, each with its offset (UnknownOffset
/// when the offset varies). None when a result may come from elsewhere
/// (memory, another call, an integer).
std::optional<llvm::SmallVector<std::pair<unsigned, int64_t>, 2>>
argumentResult(const llvm::Function &F, const llvm::DataLayout &DL);

enum class ObjKind { Unknown, Global, ThreadLocal, Stack, Heap, Function };

struct AbsObject {
  ObjKind Kind = ObjKind::Unknown;
  /// GlobalVariable, AllocaInst, allocating CallBase or Function.
  const llvm::Value *Site = nullptr;
  /// Size in bytes, 0 when unknown.
  uint64_t Size = 0;
  /// May be reached by more than one thread (set by escape analysis).
  bool Shared = false;
  /// A heap block's type when known (heapBlockType), else null.
  llvm::Type *BlockType = nullptr;
};

inline constexpr int64_t UnknownOffset = INT64_MIN;
/// More elements than this, and a strided location is any offset.
inline constexpr uint64_t MaxStridedCount = 1 << 20;

/// A strided location's Count when the array's length is not known: a
/// heap block whose size is computed at run time (`malloc(n * sizeof *a)`)
/// stepped through by its element size. Every offset Off + k*Stride,
/// k >= 0, to the end of the block (last() is then past any real offset).
inline constexpr uint32_t UnboundedCount = UINT32_MAX;

/// A location: an object and a byte offset into it (or UnknownOffset).
/// With Stride > 0 it is one of Count offsets Off, Off + Stride, ...: an
/// element (or a field of one) of an array member picked by a variable
/// index, so what is stored there stays apart from the object's other
/// fields.
struct Loc {
  uint32_t Obj;
  int64_t Off;
  uint32_t Stride = 0;
  uint32_t Count = 0;
  /// One known offset.
  [[nodiscard]] bool exact() const { return Off != UnknownOffset && !Stride; }
  /// Any offset into the object.
  [[nodiscard]] bool anywhere() const { return Off == UnknownOffset; }
  /// The last offset it may be (Off when exact).
  [[nodiscard]] int64_t last() const {
    if (Stride && Count == UnboundedCount)
      return INT64_MAX / 4;
    return Stride ? Off + int64_t(Stride) * (int64_t(Count) - 1) : Off;
  }
  /// Off is one of the offsets this location may be.
  [[nodiscard]] bool covers(int64_t O) const {
    if (anywhere())
      return true;
    if (!Stride)
      return O == Off;
    return O >= Off && O <= last() && (O - Off) % Stride == 0;
  }
  bool operator<(const Loc &O) const {
    if (Obj != O.Obj)
      return Obj < O.Obj;
    if (Off != O.Off)
      return Off < O.Off;
    return Stride != O.Stride ? Stride < O.Stride : Count < O.Count;
  }
  bool operator==(const Loc &O) const {
    return Obj == O.Obj && Off == O.Off && Stride == O.Stride &&
           Count == O.Count;
  }
};
using PtsSet = std::set<Loc>;

/// Accesses of SizeA bytes at A and of SizeB bytes at B may touch a common
/// byte (size 0: unknown, up to the object's end). The unknown object
/// overlaps everything.
[[nodiscard]] bool mayOverlap(const Loc &A, uint64_t SizeA, const Loc &B,
                              uint64_t SizeB);

/// Where a copy of at most Len bytes to D may put what it copies: any
/// offset in [D, D + Len) when D is one known offset and Len is known
/// (memcached's `memcpy(&c->binary_header, c->rcurr, 24)` from a buffer
/// position crace does not know), else anywhere in D's object.
[[nodiscard]] Loc copyTarget(const Loc &D, std::optional<uint64_t> Len);

/// The type of a global or stack object, or of a heap block allocated as
/// one struct (AbsObject::BlockType); null: unknown, as for other heap
/// blocks, whose size may exceed their type's.
[[nodiscard]] llvm::Type *objectType(const AbsObject &O);

/// The struct a heap block of Size bytes allocated at Site is: the source
/// type of every struct GEP that indexes the allocation's result (through
/// casts, phis and selects) from its start, when they agree and the type
/// is exactly Size bytes, so no member can run past its end (a "struct
/// hack"). Null otherwise.
[[nodiscard]] llvm::Type *heapBlockType(const llvm::Value *Site, uint64_t Size,
                                        const llvm::DataLayout &DL);

/// A and B (in one object) may be the same offset.
[[nodiscard]] bool mayShareOffset(const Loc &A, const Loc &B);

/// How a pointer moves: by Delta bytes, then (Stride > 0) by one of
/// 0, Stride, ..., (Count - 1) * Stride bytes (any multiple of Stride
/// with UnboundedCount); or to an unknown offset.
struct Shift {
  int64_t Delta = 0;
  bool Unknown = false;
  uint32_t Stride = 0;
  uint32_t Count = 0;
  /// The location does not move on: it cannot be where the step starts
  /// (memberOfOtherType).
  bool Drop = false;
};

/// The struct a GEP names a member of (`&p->m`, `&p->m.n[2]`: a GEP on a
/// named struct type, not a union, with a first index of 0), else null.
[[nodiscard]] llvm::StructType *
memberAccessStruct(const llvm::GEPOperator &GEP);

/// An object of type T may hold a struct of type S starting at byte Off:
/// T is S there, or has a member or an element there that may, or what
/// lies at Off is not known from T (a union, a literal struct clang made
/// for an initializer, a byte array: storage for any object).
[[nodiscard]] bool mayHoldStructAt(const llvm::DataLayout &DL, llvm::Type *T,
                                   int64_t Off, llvm::StructType *S);

/// A GEP with variable indices that pick elements of arrays of known
/// length: its constant part, then one of Count offsets Stride apart. An
/// index outside its array is undefined behaviour (C11 6.5.6), so the
/// element stays inside the array member and away from the object's other
/// fields. Nothing when an index is on the pointer itself (p[i]) or the
/// array may reach past its length. When the GEP steps in an array whose
/// container it does not show (optimisation folds `&s.first_member`), that
/// array is *Outside: each base location must show it (arrayInObject), or
/// else, when PtrScale is set, take the elements of PtrScale bytes of the
/// array around it (elementsAround). Arrays nested directly in arrays are
/// one array: `m[0][i]` may reach the next rows, as C programs expect.
/// When the GEP is p + i alone, PtrScale is i's scale (withinArray).
std::optional<Shift> arraySteps(const llvm::DataLayout &DL,
                                const llvm::GEPOperator &GEP,
                                llvm::ArrayType *&Outside, uint64_t &PtrScale);

/// The GEP a pointer p + i starts from: Ptr itself, or the one start of a
/// loop `p = phi(&a[C], p + i)` whose other inputs step by variable
/// indices (withinArray makes no exact location of those, so an exact
/// location there is the start's).
const llvm::GEPOperator *decayOf(const llvm::Value *Ptr);

class PointsTo {
public:
  static constexpr uint32_t UnknownObj = 0;

  explicit PointsTo(const llvm::Module &M);
  PointsTo(const PointsTo &) = delete;
  PointsTo &operator=(const PointsTo &) = delete;

  /// Runs the analysis to its fixpoint. Returns false when cancelled.
  bool solve(const std::atomic<bool> *Cancel = nullptr);

  /// Objects and offsets V may point to (empty: V is not a pointer, or only
  /// null). Constants are evaluated on the fly.
  [[nodiscard]] const PtsSet &pointsTo(const llvm::Value *V) const;
  /// Pointers stored anywhere in Obj (the union over its fields).
  [[nodiscard]] PtsSet contents(uint32_t Obj) const;
  [[nodiscard]] const AbsObject &object(uint32_t Id) const {
    return Objects[Id];
  }
  [[nodiscard]] AbsObject &object(uint32_t Id) { return Objects[Id]; }
  [[nodiscard]] size_t numObjects() const { return Objects.size(); }
  [[nodiscard]] uint32_t objectOf(const llvm::Value *Site) const;
  /// False when no pointer of unknown origin can point into object Obj: a
  /// global that only crace knows by name (internal linkage, or a
  /// `__crace_` name) and whose address is only loaded from, stored to,
  /// compared and handed to lock-like intrinsics, so it never reaches
  /// memory, a call or an integer. True for every other object.
  [[nodiscard]] bool reachableByUnknown(uint32_t Obj) const;
  /// Object Obj holds no struct of type S anywhere: a function, or a
  /// global or a heap block of one struct type whose type contains no S
  /// (memberOfOtherType at no particular offset).
  [[nodiscard]] bool holdsNoStruct(uint32_t Obj, llvm::StructType *S) const {
    return memberOfOtherType({Obj, UnknownOffset}, S);
  }
  /// Computes which objects code outside the program may reach (after
  /// solve()): the objects it can name (declared globals, globals with
  /// external linkage), what the program hands it (arguments of calls to
  /// functions without a body or a model, of unresolved indirect calls and
  /// of inline assembly, a variadic function's variadic arguments, pointers
  /// stored through a pointer of unknown origin), and everything reachable
  /// from those; every object when inline assembly yields a pointer or the
  /// program takes a nondet pointer. A pointer of unknown origin points
  /// into one of these; reachableByUnknown() answers false for the others.
  void computeEscaped();

  /// More targets than this in a variadic function's arguments, and they
  /// are not followed (varArgsUntracked).
  static constexpr size_t VarArgTargetCap = 16;
  /// A variadic function whose arguments were not followed (too many
  /// targets): what its va_arg yields points nowhere known.
  [[nodiscard]] bool varArgsUntracked(const llvm::Function &F) const {
    return CollapsedVarArgs.contains(&F);
  }

  /// Functions an indirect or direct call may call. Unresolved is set when
  /// the callee pointer may be something other than a known function.
  [[nodiscard]] llvm::SmallVector<const llvm::Function *, 4>
  callees(const llvm::CallBase &CB, bool *Unresolved = nullptr) const;

  /// Prints what every value of the comma-separated Functions points to
  /// and what the objects reached hold (debugging: CRACE_DUMP_PTS).
  void dump(llvm::raw_ostream &OS, llvm::StringRef Functions) const;

  /// Entry functions of created threads and the values threads return.
  [[nodiscard]] const PtsSet &threadResults() const { return ThreadResults; }

  /// Marks objects reachable by more than one thread: globals, thread
  /// arguments and results, and everything reachable from their contents.
  void computeShared(const std::vector<const llvm::Value *> &ExtraRoots);

private:
  void addObject(ObjKind K, const llvm::Value *Site, uint64_t Size);
  bool add(PtsSet &S, Loc L);
  /// Adds L to S; L becomes what was inserted (its offset may collapse).
  bool addImpl(PtsSet &S, Loc &L);
  /// addAll of what From gained since the visited instruction's last visit
  /// (VisitSince; all of From when 0 or when From has no log).
  bool addNew(PtsSet &S, const PtsSet &From, const Shift &By) {
    return addNew(S, From, [&](const Loc &) { return By; });
  }
  /// ShiftOf says how each location moves.
  bool addNew(PtsSet &S, const PtsSet &From,
              llvm::function_ref<Shift(const Loc &)> ShiftOf);
  /// An array of type AT at L lies inside a global or stack object of
  /// known type, and not as a row of a larger array there.
  [[nodiscard]] bool arrayInObject(Loc L, llvm::ArrayType *AT) const;
  /// L cannot be the start of a struct of type S: its object is a global,
  /// or a heap block of one struct type, that holds no S at L's offset
  /// (mayHoldStructAt). A member access through L would then break C's
  /// effective-type rules, the printed strict-aliasing assumption, so
  /// `&p->m` does not point there (container_of on a list's head, p - 8,
  /// is not a node, and what its `->ap` would read is not a pointer).
  [[nodiscard]] bool memberOfOtherType(Loc L, llvm::StructType *S) const;
  /// Functions with type-based alias tags: compiled with strict aliasing.
  llvm::DenseSet<const llvm::Function *> StrictAliasing;
  /// How L + i * Scale moves: inside the array Decay (&a[C]) points into,
  /// when bounded, or the innermost array of Scale-byte elements around L
  /// in a global or stack object of known type, or to an unknown offset.
  /// Residue: the step's known multiple (Scale times the index's known
  /// power of two; 0: Scale), for sameResidue.
  [[nodiscard]] Shift withinArray(Loc L, uint64_t Scale,
                                  const llvm::GEPOperator *Decay,
                                  uint64_t Residue = 0) const;
  /// Ptr is `&a[C]` (a GEP [N x T], p, 0, C) and L a location it points
  /// to: a's type, where a starts in L's object, and C, when the GEPs'
  /// syntax (a member other than the last) or arrayInObject shows a
  /// bounded.
  struct DecayedArray {
    llvm::ArrayType *Type;
    int64_t Start;
    int64_t Index;
  };
  [[nodiscard]] std::optional<DecayedArray>
  boundedDecay(Loc L, const llvm::Value *Ptr) const;
  /// The bytes from L to the end of the array Ptr points into when Ptr is
  /// `&a[C]` of a bounded array (boundedDecay: a copy from or to it stays
  /// inside it); nullopt when not known.
  [[nodiscard]] std::optional<uint64_t>
  arrayBytesFrom(Loc L, const llvm::Value *Ptr) const;
  /// arrayBytesFrom's bound where boundedDecay gives none, in an object of
  /// known type: from L to the end of the largest array, union or object
  /// that holds the decayed array AT starting at byte Start.
  [[nodiscard]] std::optional<uint64_t>
  regionBytesFrom(Loc L, llvm::ArrayType *AT, int64_t Start) const;
  /// The bytes from L to the end of its object when L is one known offset
  /// inside an object of known size (a copy reads and writes no byte past
  /// the end of an object); nullopt when not known.
  [[nodiscard]] std::optional<uint64_t> bytesToEnd(Loc L) const;
  /// Every offset of L's object that L + i * Scale may reach when no array
  /// says more: those congruent to L's modulo Scale, from L when it lies
  /// before the object (container_of's) else from the first, to the
  /// object's end (pointer arithmetic stays inside its base object, the
  /// printed assumption); any offset when the object's size is unknown.
  [[nodiscard]] Shift sameResidue(Loc L, uint64_t Scale) const;
  /// All elements of the innermost array of Scale-byte elements of L's
  /// object's type that holds Bytes bytes from L, or an unknown offset.
  [[nodiscard]] Shift elementsAround(Loc L, uint64_t Scale, uint64_t Bytes,
                                     uint64_t Residue = 0) const;
  /// One location for the locations [Lo, Hi) of one object in a set: the
  /// innermost array of the object's type that holds them all, as a
  /// strided location, or any offset.
  [[nodiscard]] Loc arrayAround(PtsSet::const_iterator Lo,
                                PtsSet::const_iterator Hi) const;
  bool addNew(PtsSet &S, const PtsSet &From, int64_t Delta = 0,
              bool Unknown = false) {
    return addNew(S, From, Shift{Delta, Unknown});
  }
  [[nodiscard]] bool changedSince(const PtsSet &S, uint32_t Since) const;
  /// Appends, sorted, the locations add() inserted into S from tick Since.
  void addedSince(const PtsSet &S, uint32_t Since, std::vector<Loc> &Out) const;
  /// The pointer an instruction reads or writes through, or the callee
  /// (or thread function) it may call: when its set grows, a call
  /// propagates all it reads again, a memory access all it reads or
  /// writes through the places it gained (visitModule).
  [[nodiscard]] const llvm::Value *
  outerOperand(const llvm::Instruction &I) const;
  /// Drops the bookkeeping of a temporary set that add() filled.
  void forgetTemporary(const PtsSet &S) {
    Log.erase(&S);
    SetChangedAt.erase(&S);
  }
  /// Semi-naive iteration: an instruction is visited again only when one of
  /// its inputs (operand sets, objects it reads, callee returns) changed
  /// since its last visit (at tick Since; 0: never visited). Calls are
  /// asked this on every pass; every other instruction is marked Dirty by
  /// the changes that make it true (valueChanged, objectChanged), so a
  /// pass visits only those and does not look at the rest (mt-daapd:
  /// asking every instruction on every pass took a tenth of the run).
  [[nodiscard]] bool needsVisit(const llvm::Instruction &I,
                                uint32_t Since) const;
  /// The instructions in visiting order, each one's index, and the tick of
  /// its last visit (0: none).
  std::vector<const llvm::Instruction *> Order;
  llvm::DenseMap<const llvm::Instruction *, uint32_t> IndexOf;
  std::vector<uint32_t> VisitedAt;
  /// Instructions (by index) to visit on this or the next pass; a call's
  /// bit stays set.
  llvm::BitVector Dirty;
  /// The value whose set each of Pts's sets is (ptsOf).
  llvm::DenseMap<const PtsSet *, const llvm::Value *> SetOwner;
  /// Per object, the loads and atomics (by index) whose pointer may reach
  /// it: they read what changes in it.
  std::vector<llvm::SmallVector<uint32_t, 2>> ObjReaders;
  llvm::DenseSet<uint64_t> Registered;
  void numberInstructions();
  /// The pointer a load or atomic reads memory through (null for others).
  static const llvm::Value *readThrough(const llvm::Instruction &I);
  /// V's set gained a location in Obj: its users are to be visited, and a
  /// load through V reads Obj from now on.
  void valueChanged(const llvm::Value *V, uint32_t Obj);
  void readsObject(uint32_t Obj, uint32_t Index);
  bool addAll(PtsSet &S, const PtsSet &From,
              llvm::function_ref<Shift(const Loc &)> ShiftOf);
  bool addAll(PtsSet &S, const PtsSet &From, int64_t Delta = 0,
              bool Unknown = false) {
    Shift By{Delta, Unknown};
    return addAll(S, From, [&](const Loc &) { return By; });
  }
  void constantPts(const llvm::Constant *C, PtsSet &Out) const;
  PtsSet &ptsOf(const llvm::Value *V) {
    auto [It, New] = Pts.try_emplace(V);
    if (New)
      SetOwner[&It->second] = V;
    return It->second;
  }
  bool visitModule();
  /// A value of type T can hold a whole pointer: a pointer, an integer at
  /// least as wide, or an aggregate with one. Only such results of code
  /// crace cannot see (a call without body or model, an unresolved call,
  /// inline assembly, va_arg) are of unknown origin; an int from a library
  /// on a 64-bit target, or a double, points nowhere.
  [[nodiscard]] bool mayHoldPointer(llvm::Type *T) const;
  /// T is an integer narrower than a pointer: at most some of a pointer's
  /// bytes.
  [[nodiscard]] bool isBytes(llvm::Type *T) const;
  /// I applies a rule that reads an empty set (the final pass visits it).
  [[nodiscard]] bool readsEmptySet(const llvm::Instruction &I) const;

  const llvm::Module &M;
  const llvm::DataLayout &DL;
  mutable llvm::DenseMap<uint32_t, bool> ReachableByUnknown;
  /// Per object: reachable by code outside the program (computeEscaped());
  /// empty when not computed or when every object is.
  std::vector<bool> Escaped;
  std::vector<AbsObject> Objects;
  llvm::DenseMap<const llvm::Value *, uint32_t> ObjectIds;
  // Node-based maps: references to sets stay valid while others are added.
  std::unordered_map<const llvm::Value *, PtsSet> Pts;
  mutable std::unordered_map<const llvm::Value *, PtsSet> ConstantPts;
  /// Pointers stored at (object, offset); offset UnknownOffset holds what
  /// was stored at an unknown field. Node-based: references stay valid.
  std::map<Loc, PtsSet> Contents;
  /// Objects with a strided key in Contents: a load from them looks at
  /// every key that may share its offset.
  llvm::DenseSet<uint32_t> StridedContents;
  void initContents(const llvm::Constant *C, uint32_t Obj, int64_t Off);
  /// The store writes its own address moved by a constant (`p->next = p`,
  /// `rr->rdata = &rr->storage`: value and address are one SSA pointer
  /// plus constant offsets): that distance, else nullopt. visitModule then
  /// stores, at each location the address may be, that location moved, so
  /// the objects a shared `p->next = p` reaches do not each get every
  /// other's address.
  [[nodiscard]] std::optional<int64_t>
  ownAddressStored(const llvm::StoreInst &SI) const;
  std::unordered_map<const llvm::Function *, PtsSet> Returns;
  /// Functions that return an untouched fresh heap block: a call of one
  /// points to the call's own heap object (its site is the call).
  llvm::DenseSet<const llvm::Function *> FreshResult;
  /// Functions whose result is always one of their pointer arguments moved
  /// by an offset (UnknownOffset: varies), or null: a call points where its
  /// own arguments do (context sensitivity where it is free).
  llvm::DenseMap<const llvm::Function *,
                 llvm::SmallVector<std::pair<unsigned, int64_t>, 2>>
      ArgumentResults;
  /// Per variadic function, the objects standing for the variadic
  /// arguments its va_start calls make a va_list reach (one per call, its
  /// Site): what every call of the function passes after its fixed
  /// parameters.
  llvm::DenseMap<const llvm::Function *, llvm::SmallVector<uint32_t, 1>>
      VarArgAreas;
  /// Obj is one of VarArgAreas (its site is a va_start). What calls pass
  /// as pointers is stored in an area at UnknownOffset; what they pass as
  /// numbers (integers, floating point) at VarArgNumbersOff, the only
  /// place a load of a number from the area reads.
  [[nodiscard]] bool isVarArgArea(uint32_t Obj) const;
  static constexpr int64_t VarArgNumbersOff = UnknownOffset + 1;
  /// Variadic functions handed more than VarArgTargetCap targets: their
  /// arguments are not followed (following hundreds of strings through a
  /// logging function's formatting costs minutes on mt-daapd), their
  /// variadic arguments escape, and ProgramModel gives the reason.
  llvm::DenseSet<const llvm::Function *> CollapsedVarArgs;
  /// Functions with a va_arg instruction (whose result is of unknown
  /// origin; clang reads variadic arguments through the va_list instead).
  llvm::DenseSet<const llvm::Function *> VAArgUsers;
  /// Loads of bytes that are never stored again (bytesMayBeStored): they
  /// read numbers, not pointers.
  llvm::DenseSet<const llvm::LoadInst *> NumberLoads;
  /// Integer arithmetic that computes a number, not a pointer (isNumber):
  /// its result points nowhere.
  llvm::DenseSet<const llvm::Instruction *> Numbers;
  static constexpr uint64_t SmallNumberBound = 4096;
  /// I is the distance between two pointers, or always below
  /// SmallNumberBound (a remainder, masked bits, a digit): no object lies
  /// in the first page, and a pointer is not rebuilt from such numbers
  /// (assumptions()).
  [[nodiscard]] bool isNumber(const llvm::BinaryOperator &I) const;
  PtsSet ThreadResults;
  /// A clock: a tick per pass and per instruction visit (visitModule).
  uint32_t Tick = 0;
  /// The pass that applies the rules reading an empty set (solve()).
  bool Final = false;
  llvm::DenseMap<const PtsSet *, uint32_t> SetChangedAt;
  /// Per set, what add() inserted, in order, with the tick.
  struct Stamped {
    uint32_t Tick;
    Loc L;
  };
  std::unordered_map<const PtsSet *, std::vector<Stamped>> Log;
  /// What add() inserted into S from tick Since on, in order; nullopt when
  /// S has no log (a constant's set, a temporary's after forgetTemporary).
  [[nodiscard]] std::optional<llvm::ArrayRef<Stamped>>
  loggedSince(const PtsSet &S, uint32_t Since) const;

  /// The visited instruction's previous visit (0: propagate everything).
  uint32_t VisitSince = 0;
  /// The places a visited memory access gained since VisitSince, sorted:
  /// for them it propagates everything (visitModule's EachPlace).
  std::vector<Loc> Fresh;
  /// A visited copy's destinations gained since VisitSince, sorted.
  std::vector<Loc> FreshDsts;
  [[nodiscard]] static bool isFresh(const std::vector<Loc> &New, Loc L) {
    return std::binary_search(New.begin(), New.end(), L);
  }
  /// The copies (memcpy) and sources copied whole, not field by field.
  std::set<std::pair<const llvm::Instruction *, Loc>> WholeCopies;
  /// Per object, the tick its contents last changed at (0: never).
  std::vector<uint32_t> ObjChangedAt;
  void objectChanged(uint32_t Obj) {
    if (Obj >= ObjChangedAt.size())
      ObjChangedAt.resize(Obj + 1, 0);
    ObjChangedAt[Obj] = Tick;
    if (Obj < ObjReaders.size())
      for (uint32_t Index : ObjReaders[Obj])
        Dirty.set(Index);
  }
  llvm::DenseMap<const llvm::Function *, uint32_t> ReturnsChangedAt;
  bool InitDone = false;
  PtsSet Empty;
};

} // namespace crace
