//===- InputClasses.h - inputs the program only compares with constants --===//
//
// `int res = __VERIFIER_nondet_int(); if (res) goto fail;`: a 32-bit input
// the program uses only in comparisons with constants (icmp, switch)
// splits its 2^32 values into a few classes that every one of those
// comparisons treats alike: the values between two consecutive cut points
// (a constant K cuts before K and before K+1, a signed comparison also
// before INT_MIN). Two values of one class give every comparison the same
// outcome and nothing else reads them, so they give the same runs; trying
// one value of each class is trying every value. explore enumerates such
// an input over its classes' lowest members (0 first) instead of sampling
// it, which lets it prove programs that branch on a nondeterministic
// value.
//
//===----------------------------------------------------------------------===//
#ifndef CRACE_ENGINES_EXPLORE_INPUTCLASSES_H
#define CRACE_ENGINES_EXPLORE_INPUTCLASSES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <vector>

namespace crace::explore {

class InputClasses {
public:
  /// Inputs with more classes than MaxClasses are left to sampling.
  explicit InputClasses(llvm::Module &M, unsigned MaxClasses = 64);

  /// The lowest member of each class of the input Site draws (ascending,
  /// as unsigned numbers of the call's width; the first is 0), or null
  /// when Site is not such an input.
  const std::vector<uint64_t> *lookup(const llvm::CallBase *Site) const;
  bool empty() const { return Classes.empty(); }

  /// The classes of the value V (an integer of at most 64 bits) when its
  /// only users are comparisons with constants, or (given its function's
  /// dominator tree) users where the conditions that hold leave V at most
  /// MaxValues values, each then a class; empty otherwise.
  static std::vector<uint64_t> classesOf(const llvm::Value &V,
                                         unsigned MaxClasses,
                                         llvm::DominatorTree *DT = nullptr);
  static constexpr unsigned MaxValues = 16;

private:
  llvm::DenseMap<const llvm::CallBase *, std::vector<uint64_t>> Classes;
};

} // namespace crace::explore

#endif
