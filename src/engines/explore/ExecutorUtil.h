//===- ExecutorUtil.h - value helpers shared by the executor's files ------===//
//
// Private to src/engines/explore/Executor*.cpp: bit masks, sign extension
// and the floating-point views of a Word, and the layout of the address
// space the executor hands out.
//
//===----------------------------------------------------------------------===//
#ifndef CRACE_ENGINES_EXPLORE_EXECUTORUTIL_H
#define CRACE_ENGINES_EXPLORE_EXECUTORUTIL_H

#include "engines/explore/Executor.h"

#include "llvm/ADT/bit.h"
#include "llvm/IR/Type.h"
#include "llvm/Support/MathExtras.h"

namespace crace::explore::detail {

/// The first address given to an object, and the gap left between two.
constexpr Word FirstAddress = 0x10000;
constexpr Word Gap = 16;

inline Word mask(Word V, unsigned Bits) {
  return Bits >= 64 ? V : (V & ((Word(1) << Bits) - 1));
}
inline int64_t sext(Word V, unsigned Bits) {
  return Bits >= 64 ? int64_t(V) : llvm::SignExtend64(V, Bits);
}
inline double asDouble(Word W, llvm::Type *Ty) {
  if (Ty->isFloatTy())
    return double(llvm::bit_cast<float>(uint32_t(W)));
  return llvm::bit_cast<double>(W);
}
inline Word fromDouble(double D, llvm::Type *Ty) {
  if (Ty->isFloatTy())
    return llvm::bit_cast<uint32_t>(float(D));
  return llvm::bit_cast<Word>(D);
}
inline bool supportedFP(llvm::Type *Ty) {
  return Ty->isFloatTy() || Ty->isDoubleTy();
}

} // namespace crace::explore::detail

#endif
