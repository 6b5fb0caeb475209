//===- Z3Ops.h - LLVM integer operations as Z3 bit-vector terms ----------===//
//
// Shared by the engines that encode LLVM IR into Z3 (the bmc's Encoder and
// whoop's symbolic execution), so that both give an instruction the same
// meaning.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/IR/InstrTypes.h"

#include <optional>
#include <z3++.h>

namespace crace {

/// The Boolean term of an integer comparison of two bit-vectors of one
/// width; nullopt for a predicate that is not an integer one.
inline std::optional<z3::expr> icmpTerm(llvm::CmpInst::Predicate P,
                                        const z3::expr &A, const z3::expr &B) {
  switch (P) {
  case llvm::CmpInst::ICMP_EQ:
    return A == B;
  case llvm::CmpInst::ICMP_NE:
    return A != B;
  case llvm::CmpInst::ICMP_UGT:
    return z3::ugt(A, B);
  case llvm::CmpInst::ICMP_UGE:
    return z3::uge(A, B);
  case llvm::CmpInst::ICMP_ULT:
    return z3::ult(A, B);
  case llvm::CmpInst::ICMP_ULE:
    return z3::ule(A, B);
  case llvm::CmpInst::ICMP_SGT:
    return A > B;
  case llvm::CmpInst::ICMP_SGE:
    return A >= B;
  case llvm::CmpInst::ICMP_SLT:
    return A < B;
  case llvm::CmpInst::ICMP_SLE:
    return A <= B;
  default:
    return std::nullopt;
  }
}

} // namespace crace
