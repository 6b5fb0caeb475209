//===- AsmLowering.h - inline assembly with a known meaning, as LLVM IR ---===//
//
// glibc's headers, as preprocessed by GCC for i386 (the CIL-combined
// programs keep them), expand byte swaps (`htonl`, `ntohs`), `FD_ZERO`,
// `FD_SET`, `FD_CLR`, `FD_ISSET` and the cycle counter (`rdtsc`) into inline
// assembly. Every engine would otherwise stop at it (explore, kiss) or report
// it as not analysed. `lowerKnownInlineAsm` replaces each such statement by
// the LLVM IR with the same meaning for the program's memory and values:
//   - `bswap %0` ("=r,0")            -> llvm.bswap
//   - `rorw $8, %w0` ("=r,0", i16)   -> llvm.bswap.i16
//   - `rdtsc` ("=A", i64)            -> a nondeterministic 64-bit value
//                                       (two __crace_nondet_bits(32) draws)
//   - `cld; rep; stosl` (FD_ZERO: ={cx},={di},{ax},0,1) -> a store of the
//                                       32-bit value in eax to count words
//                                       at edi (memset when eax is 0),
//                                       outputs ecx = 0, edi = the end
//   - `btsl %1,%0` / `btrl %1,%0` ("=*m,r") -> set/clear bit (bit & 31) of
//                                       the 32-bit word (bit >> 5) words
//                                       past the operand (x86 bit-string
//                                       addressing), a plain load and store
//   - `btl %1,%2 ; setcb %b0` ("=q,r,*m") -> read that bit
// Every other inline assembly statement is left as it is (engines treat it
// as unknown). Matching is on the assembly text with blanks normalised and
// on the constraint string up to clobbers, so only these exact shapes are
// rewritten.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace llvm {
class Module;
} // namespace llvm

namespace crace {

/// Rewrites the inline assembly statements of M listed above; returns how
/// many were rewritten.
unsigned lowerKnownInlineAsm(llvm::Module &M);

} // namespace crace
