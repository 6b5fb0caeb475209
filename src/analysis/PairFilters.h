//===- PairFilters.h - conflicting accesses that touch different bytes ----===//
//
// Two accesses the points-to analysis lets overlap may still never touch one
// byte: their types cannot name one object (C's effective-type rules, as
// clang's type-based alias metadata states them), each thread instance's
// own memory (InstanceMemory.h), or elements of one array indexed by
// numbers taken from a counter (Tickets.h). Built once
// over the lockset analysis's records, which give both the facts these need
// (which writes may run while a thread runs, which locks a take holds).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "analysis/AccessRecord.h"
#include "analysis/InstanceMemory.h"
#include "analysis/Tickets.h"
#include "model/ArrayElement.h"

#include "llvm/ADT/DenseMap.h"

#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace llvm {
class DataLayout;
class Function;
class GlobalVariable;
class MDNode;
class StructType;
} // namespace llvm

namespace crace {

class PairFilters {
public:
  PairFilters(const ProgramModel &PM, const std::vector<AccessRecord> &Recs);

  enum class Apart { No, Types, OwnInstance, Taken };
  /// Whether X and Y, which may overlap by points-to, touch different
  /// bytes whenever both run. Obj: the object both may touch, when known.
  [[nodiscard]] Apart apart(const AccessRecord &X, const AccessRecord &Y,
                            uint32_t Obj = PointsTo::UnknownObj);
  /// Why a pair is apart, for debug output.
  [[nodiscard]] static const char *why(Apart A);

  [[nodiscard]] unsigned instanceTemplates() const {
    return Instances->numTemplates();
  }

  /// X and Y are loads or stores whose type-based alias tags (clang's
  /// !tbaa, emitted unless a unit is compiled with -fno-strict-aliasing)
  /// say they cannot access one object: e.g. a field of `struct A` and a
  /// field of `struct B`, neither struct containing the other there.
  [[nodiscard]] static bool typesApart(const llvm::Instruction &X,
                                       const llvm::Instruction &Y);
  /// I is a load or store of a struct member (its type-based alias tag
  /// names a struct) and Obj is a global variable of scalar type (a
  /// pointer or a number, not an array or struct): a member of a struct
  /// object cannot be that variable.
  [[nodiscard]] static bool memberCannotBe(const llvm::Instruction &I,
                                           const AbsObject &Obj);

  /// A is a member access of a struct S (its pointer a GEP on S with first
  /// index 0, in a function compiled with strict aliasing) and object Obj
  /// holds no S anywhere (PointsTo::holdsNoStruct): C's effective-type
  /// rules put no S there, so A does not touch Obj. This is the points-to
  /// analysis's rule for member addresses, applied where the pointer's
  /// origin is unknown (an undefined function's result) and points-to
  /// pairs it with every object such a pointer may reach.
  [[nodiscard]] bool memberOutside(const MemAccess &A, uint32_t Obj);
  /// The bytes an access touches inside one element of a struct type: A's
  /// pointer is a member's address (`&p[i].f.g`: a GEP on S whose indices
  /// after the first select members and array elements; an array indexed
  /// by a variable stands for all of it) and A's size is known and stays
  /// inside the element.
  struct MemberBytes {
    llvm::StructType *S;
    uint64_t Begin, End;
  };
  [[nodiscard]] static std::optional<MemberBytes>
  memberBytes(const llvm::DataLayout &DL, const MemAccess &A);
  /// X and Y touch disjoint members of one struct type S. Two objects of
  /// type S never overlap in part (a store to one would change the other
  /// in a way C's effective-type rules forbid), so such accesses touch
  /// different bytes wherever they land: this covers accesses without
  /// type tags (library effects on a member, thread creation writing
  /// `&p->tid`) and array elements inside structs, whose tags lose the
  /// struct.
  [[nodiscard]] bool membersApart(const MemAccess &X, const MemAccess &Y);

private:
  /// No write to G's first pointer-sized bytes may happen in parallel with
  /// template T: every access of T reads one value from G.
  bool stable(const llvm::GlobalVariable *G, unsigned T);
  bool takenApart(const AccessRecord &X, const AccessRecord &Y);
  /// arrayElement of Ptr, remembered (the pairing asks once per pair).
  std::optional<ArrayElement> elementOf(const llvm::Value *Ptr);
  /// typesApart, remembered per pair of tags (the answer depends on the
  /// two tags only; the lockset pairing asks for the same few many times).
  bool tagsApart(const llvm::Instruction &X, const llvm::Instruction &Y);
  /// F has type-based alias tags (compiled with strict aliasing).
  bool strict(const llvm::Function *F);

  const ProgramModel &PM;
  const std::vector<AccessRecord> &Recs;
  std::map<std::pair<const llvm::GlobalVariable *, unsigned>, bool> StableCache;
  std::unique_ptr<InstanceMemory> Instances;
  std::unique_ptr<Tickets> Takes;
  /// Functions with type-based alias tags (compiled with strict aliasing).
  llvm::DenseMap<const llvm::Function *, bool> StrictFunctions;
  llvm::DenseMap<std::pair<const llvm::MDNode *, const llvm::MDNode *>, bool>
      TagPairs;
  /// holdsNoStruct per object and struct type (it walks the object's type
  /// tree; mt-daapd's pairing asked it millions of times on a few dozen).
  llvm::DenseMap<std::pair<uint32_t, llvm::StructType *>, bool> NoStruct;
  llvm::DenseMap<const llvm::Value *, std::optional<ArrayElement>> Elements;
};

} // namespace crace
