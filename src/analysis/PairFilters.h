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

#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace llvm {
class GlobalVariable;
} // namespace llvm

namespace crace {

class PairFilters {
public:
  PairFilters(const ProgramModel &PM, const std::vector<AccessRecord> &Recs);

  enum class Apart { No, Types, OwnInstance, Taken };
  /// Whether X and Y, which may overlap by points-to, touch different
  /// bytes whenever both run. Obj: the object both may touch, when known.
  [[nodiscard]] Apart apart(const AccessRecord &X, const AccessRecord &Y,
                            const AbsObject *Obj = nullptr);
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

private:
  /// No write to G's first pointer-sized bytes may happen in parallel with
  /// template T: every access of T reads one value from G.
  bool stable(const llvm::GlobalVariable *G, unsigned T);
  bool takenApart(const AccessRecord &X, const AccessRecord &Y);

  const ProgramModel &PM;
  const std::vector<AccessRecord> &Recs;
  std::map<std::pair<const llvm::GlobalVariable *, unsigned>, bool> StableCache;
  std::unique_ptr<InstanceMemory> Instances;
  std::unique_ptr<Tickets> Takes;
};

} // namespace crace
