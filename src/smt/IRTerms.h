//===- IRTerms.h - LLVM integer semantics as SMT bit-vector terms ---------===//
//
// The one meaning of LLVM's integer instructions in SMT, shared by every
// encoder of LLVM IR (the bmc's Encoder, whoop's symbolic execution, the
// engines to come): an integer of N bits is a bit-vector of N bits, and an
// operation whose result LLVM leaves undefined (poison or immediate
// undefined behaviour) says when; each encoder decides what that means for
// it (the bmc cuts the path and reports it, whoop makes the value
// arbitrary).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instruction.h"

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

/// The value of the integer binary operator Opcode (llvm::Instruction::Add
/// ... AShr) on two bit-vectors of one width; nullopt for any other opcode.
/// Where undefinedTerm holds, the value is Z3's (bvudiv by zero is all
/// ones, ...), not LLVM's: the caller decides what an undefined result is.
inline std::optional<z3::expr> binaryTerm(unsigned Opcode, const z3::expr &A,
                                          const z3::expr &B) {
  switch (Opcode) {
  case llvm::Instruction::Add:
    return A + B;
  case llvm::Instruction::Sub:
    return A - B;
  case llvm::Instruction::Mul:
    return A * B;
  case llvm::Instruction::And:
    return A & B;
  case llvm::Instruction::Or:
    return A | B;
  case llvm::Instruction::Xor:
    return A ^ B;
  case llvm::Instruction::UDiv:
    return z3::udiv(A, B);
  case llvm::Instruction::URem:
    return z3::urem(A, B);
  case llvm::Instruction::SDiv:
    return A / B;
  case llvm::Instruction::SRem:
    return z3::srem(A, B);
  case llvm::Instruction::Shl:
    return z3::shl(A, B);
  case llvm::Instruction::LShr:
    return z3::lshr(A, B);
  case llvm::Instruction::AShr:
    return z3::ashr(A, B);
  default:
    return std::nullopt;
  }
}

/// When LLVM gives the integer binary operator Opcode on A and B no value
/// (poison or immediate undefined behaviour): division or remainder by
/// zero, signed division overflow (the minimum divided by -1), a shift by
/// the width or more. nullopt: always defined (wrapping arithmetic), or
/// not an integer binary operator.
inline std::optional<z3::expr> undefinedTerm(unsigned Opcode, const z3::expr &A,
                                             const z3::expr &B) {
  z3::context &C = A.ctx();
  unsigned W = A.get_sort().bv_size();
  auto Num = [&](const llvm::APInt &V) {
    return C.bv_val(llvm::toString(V, 10, false).c_str(), W);
  };
  switch (Opcode) {
  case llvm::Instruction::UDiv:
  case llvm::Instruction::URem:
    return B == C.bv_val(0, W);
  case llvm::Instruction::SDiv:
  case llvm::Instruction::SRem:
    return B == C.bv_val(0, W) ||
           (A == Num(llvm::APInt::getSignedMinValue(W)) &&
            B == Num(llvm::APInt::getAllOnes(W)));
  case llvm::Instruction::Shl:
  case llvm::Instruction::LShr:
  case llvm::Instruction::AShr:
    return z3::uge(B, C.bv_val(W, W));
  default:
    return std::nullopt;
  }
}

/// E (a bit-vector) as To bits: truncated, or extended by sign (Signed) or
/// by zeros, as trunc, sext and zext do.
inline z3::expr resizeTerm(const z3::expr &E, unsigned To, bool Signed) {
  unsigned From = E.get_sort().bv_size();
  if (From == To)
    return E;
  if (From > To)
    return E.extract(To - 1, 0);
  return Signed ? z3::sext(E, To - From) : z3::zext(E, To - From);
}

} // namespace crace
