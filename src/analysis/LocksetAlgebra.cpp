//===- LocksetAlgebra.cpp - sets of held locks (LockSet, Lockset.h) -------===//
//
// The value the must-lockset analysis (Lockset.cpp) computes per program
// point: which locks are held, for reading or writing; the meet of two
// paths and whether two accesses' sets exclude each other. Moved out of
// Lockset.cpp, which issue 15 keeps under 800 lines.
//
//===----------------------------------------------------------------------===//
#include "analysis/Lockset.h"

#include <algorithm>

namespace crace {

bool LockSet::holds(uint32_t Id) const {
  for (auto &[L, R] : Held)
    if (L == Id)
      return true;
  return false;
}

void LockSet::acquire(uint32_t Id, bool Read) {
  if (Top)
    return;
  for (auto &[L, R] : Held)
    if (L == Id) {
      R = R && Read;
      return;
    }
  Held.push_back({Id, Read});
  std::sort(Held.begin(), Held.end());
}

void LockSet::release(uint32_t Id) {
  if (Top)
    return;
  Held.erase(std::remove_if(Held.begin(), Held.end(),
                            [&](auto &P) { return P.first == Id; }),
             Held.end());
}

LockSet LockSet::meet(const LockSet &A, const LockSet &B) {
  if (A.Top)
    return B;
  if (B.Top)
    return A;
  LockSet Out;
  for (auto &[L, R] : A.Held)
    for (auto &[L2, R2] : B.Held)
      if (L == L2)
        Out.Held.push_back({L, R || R2});
  return Out;
}

bool LockSet::protects(const LockSet &A, const LockSet &B) {
  for (auto &[L, R] : A.Held)
    for (auto &[L2, R2] : B.Held)
      if (L == L2 && L < SymbolicLockBase && !(R && R2))
        return true;
  return false;
}

} // namespace crace
