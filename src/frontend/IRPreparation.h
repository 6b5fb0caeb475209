//===- IRPreparation.h - the linked module made ready for the engines -----===//
//
// Passes buildModule (Frontend.cpp) runs on the linked program, in this
// order: SV-COMP's atomic functions become atomic sections; the program is
// cleaned up (always-inline, mem2reg/SROA, jump threading, simplify-CFG);
// constant offsets are folded;
// pointer-typed atomic accesses get their pointee type; thread spawners
// are inlined into main, so each creation site is its own.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace llvm {
class Module;
} // namespace llvm

namespace crace {

/// Makes every function named __VERIFIER_atomic_* an atomic section.
void instrumentAtomicFunctions(llvm::Module &M);
/// Marks model functions for inlining and lets every function be optimised.
void prepareForCleanup(llvm::Module &M);
/// The cleanup pipeline (always-inline, mem2reg, SROA, jump threading,
/// simplify-CFG) whose result every engine analyses.
void runCleanupPasses(llvm::Module &M);
/// GEP indices that are constant expressions over the data layout become
/// numbers: CIL's container_of, `(char *)p - (unsigned long)&((T *)0)->f`,
/// indexes by `sub (0, ptrtoint (gep null, ...))`, which the points-to
/// analysis would otherwise read as an unknown offset (the whole object).
void foldConstantOffsets(llvm::Module &M);
/// Atomic loads and stores of pointers, which clang lowers to integer ones,
/// become pointer-typed again.
void typeAtomicPointerAccesses(llvm::Module &M);
/// Inlines into main the functions it calls from one place that may create
/// or join threads.
void inlineSpawnersIntoMain(llvm::Module &M);

} // namespace crace
