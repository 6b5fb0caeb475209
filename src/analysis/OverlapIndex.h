//===- OverlapIndex.h - which accesses to one object may meet -------------===//
//
// The lockset stage pairs every two accesses to one abstract object, and
// most pairs in a large object (a program-wide state struct, a receive
// buffer) are on bytes far apart: mayOverlap refuses them, but only after
// the pair was enumerated (mt-daapd: 104 million pairs for 36 thousand
// candidates). An OverlapIndex over the locations of one object's accesses
// lists, for access I, every access J >= I whose byte hull may meet I's,
// in increasing J: the pairs the nested loop over (I, J >= I) would have
// kept, in the order it would have met them, so the report does not change.
// Two reads never race, so for a read I it lists only the J that write
// (mt-daapd: most accesses to its program-wide struct read it).
//
// The hull of a location is [first offset, last offset + size). Hulls up
// to Short bytes long sit in a list sorted by start; one that meets I's
// starts less than Short bytes before I's start. Longer hulls, a location
// anywhere in the object and an access of unknown size are "wide": they
// are kept in one list and tested against every I (the pair test proper,
// mayOverlap, still decides).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/PointsTo.h"

#include <cstdint>
#include <vector>

namespace crace {

class OverlapIndex {
public:
  /// Locations and access sizes (0: unknown) of one object's accesses.
  struct Item {
    Loc Where;
    uint64_t Size;
    bool Writes = true;
  };
  explicit OverlapIndex(const std::vector<Item> &Items);

  /// The J >= I whose hulls may meet I's and of which one of I and J
  /// writes, in increasing order (into Out, which is cleared first).
  void meeting(size_t I, std::vector<size_t> &Out) const;

  static constexpr int64_t Short = 256;

private:
  struct Hull {
    int64_t Start, End; // [Start, End); Wide: the whole object
    bool Wide;
    bool Writes;
  };
  std::vector<Hull> Hulls;
  struct Lists {
    /// Indices of the short hulls, by start.
    std::vector<size_t> ByStart;
    /// Indices of the wide hulls, increasing.
    std::vector<size_t> WideOnes;
  };
  /// Over every access, and over the writes alone (for a read I).
  Lists All, Writers;
};

} // namespace crace
