//===- LockTable.h - lock identities for the lockset-based engines --------===//
//
// The lockset and whoop engines name locks the same way: lock 0 is the
// atomic section, the others are the concrete lock objects
// (ProgramModel::lockLocation) in the order they are first met.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/ProgramModel.h"

#include <optional>
#include <string>
#include <vector>

namespace crace {

struct LockTable {
  explicit LockTable(const ProgramModel &PM) : PM(PM) {}

  /// The lock identity of pointer P, when P surely denotes one concrete
  /// lock object.
  std::optional<uint32_t> lockOf(const llvm::Value *P) {
    std::optional<Loc> Where = PM.lockLocation(P);
    if (!Where)
      return std::nullopt;
    return idOf(*Where);
  }

  /// The identity of the lock at Where (named Name when it is new, else
  /// after its location).
  uint32_t idOf(Loc Where, const std::string &Name = "") {
    for (uint32_t I = 1; I < Keys.size(); ++I)
      if (Keys[I] == Where)
        return I;
    Keys.push_back(Where);
    Names.push_back(Name.empty() ? PM.describe(Where) : Name);
    return uint32_t(Keys.size() - 1);
  }

  /// Whether an unlock through P, which has no single lock identity, may
  /// release lock Id (not the atomic section): P may point to its object,
  /// or P's origin is unknown and a pointer of unknown origin may reach it.
  bool mayRelease(const llvm::Value *P, uint32_t Id) const {
    const PointsTo &PTA = PM.pointsTo();
    for (Loc L : PTA.pointsTo(P))
      if (L.Obj == Keys[Id].Obj || (L.Obj == PointsTo::UnknownObj &&
                                    PTA.reachableByUnknown(Keys[Id].Obj)))
        return true;
    return false;
  }

  const ProgramModel &PM;
  std::vector<Loc> Keys{{PointsTo::UnknownObj, 0}};
  std::vector<std::string> Names{"atomic section"};
};

} // namespace crace
