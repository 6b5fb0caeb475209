//===- OwnFrames.h - pointers that reach only the running thread's stack --===//
//
// A stack slot lives in one frame of one thread. A pointer computed from an
// alloca by address arithmetic alone (GEPs, casts, phis, selects, integer
// arithmetic), or handed down through call arguments and back up through
// return values, can only point into a frame of the thread that evaluates
// it: every step of its computation ran on that thread. Such a pointer is
// "own-frame". Two accesses to the same stack object through own-frame
// pointers from different threads touch different copies of it (each
// thread's own frame), so they cannot race, even when the object is shared
// because its address also escapes (then the accesses through the escaped
// address still pair with both).
//
// A pointer is foreign (may reach another thread's frame) when it comes
// from memory (a load, an atomic read-modify-write), from code crace cannot
// see (a call without a body, an unresolved call, inline assembly, va_arg),
// or is a parameter of a function that runs as a thread's start routine or
// that code outside the program may call; foreignness flows through the
// same steps as own-frame pointers do. Only pointers whose points-to set
// holds a stack object matter.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/DenseSet.h"

namespace llvm {
class Value;
} // namespace llvm

namespace crace {

class ProgramModel;

class OwnFrames {
public:
  explicit OwnFrames(const ProgramModel &PM);

  /// Every stack slot P may point to is in a frame of the thread that
  /// evaluates P.
  [[nodiscard]] bool own(const llvm::Value *P) const {
    return !Foreign.contains(P);
  }

private:
  llvm::DenseSet<const llvm::Value *> Foreign;
};

} // namespace crace
