//===- CountedCreates.h - handles stored at a counter of creates ----------===//
//
// pthread_create(&tid[n], ...); n++;   (in loops, nested ones too)
// for (i = 0; i < n; i++) pthread_join(tid[i], ...);
//
// A forward dataflow analysis over main's CFG tracks K, the number of
// creates into the handle array executed so far, and the SSA values known
// to equal K (and K - 1, K + 1: n++ before or after the create). Each create
// must store its handle at tid[v] with v equal to K at that point; it then
// increments K. So the k-th create wrote slot k, slots are never reused, and at
// a point where a value b equals K, slots [0, b) hold the handles of every
// thread created into the array. A join loop over tid[0..b) then waits for all
// of them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class BasicBlock;
class CallBase;
class Function;
class Value;
} // namespace llvm

namespace crace {

/// Every execution of main reaching the end of block At has executed the
/// creates in Sites (the only writers of the handle array) exactly B times
/// so far, the k-th of them storing its handle at index k (the index
/// operand given by Index(Site)).
[[nodiscard]] bool countsCreates(
    const llvm::Function &Main, llvm::ArrayRef<const llvm::CallBase *> Sites,
    llvm::function_ref<const llvm::Value *(const llvm::CallBase *)> Index,
    const llvm::Value *B, const llvm::BasicBlock *At);

} // namespace crace
