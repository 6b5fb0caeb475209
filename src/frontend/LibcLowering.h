//===- LibcLowering.h - variadic C library calls with fixed-arity models --===//
//
// A C model cannot read a variadic operand portably for every engine, so
// the calls of variadic library functions whose operands matter are turned
// into calls of fixed-arity models (models/posix.c) after the models are
// linked in:
//   - `ioctl(fd, request, arg)` -> `__crace_libc_ioctl(fd, request, p, how)`
//     where p is arg (a pointer; an integer of pointer width is converted)
//     or null when there is none, and how is 1 for a pointer operand, 2 for
//     an integer one, 0 for none;
//   - `syscall(nr, fd, buf, n)` with a constant nr that is read or write
//     on the target (i386 3/4, x86_64 0/1) -> `read`/`write(fd, buf, n)`,
//     whose models say what moves.
// A call whose callee is the program's own definition, or whose model is
// absent, is left as it is.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace crace {

/// Rewrites the calls described above; returns how many.
unsigned lowerVariadicLibraryCalls(llvm::Module &M);

/// A function of the linked-in C library models (section .crace_model or
/// .crace_model_call).
bool isModelFunction(const llvm::Function &F);

} // namespace crace
