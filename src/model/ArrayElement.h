//===- ArrayElement.h - addresses of the form base + index * size + c -----===//
//
// An in-bounds address computed from a base pointer, one variable index
// scaled by an element size, and constant offsets (fields of the element).
// In bounds, the arithmetic does not wrap: two such addresses from one base
// and one element size, each at an offset inside the element, overlap only
// when their indices are equal. The per-instance memory of threads
// (InstanceMemory.h) and locks chosen by the index of the data they guard
// (Lockset.cpp) rest on this.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <utility>

namespace llvm {
class DataLayout;
class GlobalVariable;
class Value;
} // namespace llvm

namespace crace {

struct ArrayElement {
  /// The base pointer (casts stripped).
  const llvm::Value *Base = nullptr;
  /// The element size: the index's scale.
  uint64_t Elem = 0;
  /// The constant offset from the element's start.
  int64_t Offset = 0;
  /// The variable index as the address computation uses it.
  const llvm::Value *Index = nullptr;
  /// Whether Size bytes at Offset stay inside one element.
  [[nodiscard]] bool inside(uint64_t Size) const {
    return Size != 0 && Offset >= 0 && uint64_t(Offset) + Size <= Elem;
  }
};

/// Ptr as base + index * Elem + Offset, when it is one in-bounds address
/// computation with exactly one variable index.
[[nodiscard]] std::optional<ArrayElement>
arrayElement(const llvm::DataLayout &DL, const llvm::Value *Ptr);

/// E's base as the same value in every run that satisfies Stable: a
/// global's address (second false), or a global pointer read from G for
/// which Stable(G) holds -- no write changes it meanwhile (G, second true).
[[nodiscard]] std::optional<std::pair<const llvm::Value *, bool>>
stableBase(const ArrayElement &E,
           llvm::function_ref<bool(const llvm::GlobalVariable *)> Stable);

/// V with sign and zero extensions removed (they are injective).
[[nodiscard]] const llvm::Value *stripExtensions(const llvm::Value *V);

/// P with bit and address-space casts removed, but not the GEPs of zero
/// indices that stripPointerCasts also drops (an array member's decay,
/// `&s->name[0]`, names the member).
[[nodiscard]] const llvm::Value *stripAddressCasts(const llvm::Value *P);

} // namespace crace
