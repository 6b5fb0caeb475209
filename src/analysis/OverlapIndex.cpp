//===- OverlapIndex.cpp - which accesses to one object may meet -----------===//

#include "analysis/OverlapIndex.h"

#include <algorithm>

namespace crace {

OverlapIndex::OverlapIndex(const std::vector<Item> &Items) {
  Hulls.reserve(Items.size());
  for (size_t I = 0; I < Items.size(); ++I) {
    const Item &It = Items[I];
    Hull H{0, 0, true, It.Writes};
    if (!It.Where.anywhere() && It.Size) {
      H.Start = It.Where.Off;
      H.End = It.Where.last() + int64_t(It.Size);
      H.Wide = H.End - H.Start > Short;
    }
    Hulls.push_back(H);
    (H.Wide ? All.WideOnes : All.ByStart).push_back(I);
    if (H.Writes)
      (H.Wide ? Writers.WideOnes : Writers.ByStart).push_back(I);
  }
  for (Lists *L : {&All, &Writers})
    std::stable_sort(
        L->ByStart.begin(), L->ByStart.end(),
        [&](size_t A, size_t B) { return Hulls[A].Start < Hulls[B].Start; });
}

void OverlapIndex::meeting(size_t I, std::vector<size_t> &Out) const {
  Out.clear();
  const Hull &HI = Hulls[I];
  if (HI.Wide) {
    for (size_t J = I; J < Hulls.size(); ++J)
      if (HI.Writes || Hulls[J].Writes)
        Out.push_back(J);
    return;
  }
  const Lists &L = HI.Writes ? All : Writers;
  const std::vector<size_t> &ByStart = L.ByStart, &WideOnes = L.WideOnes;
  // A short hull J meets I's when J.Start < I.End and J.End > I.Start;
  // J.End <= J.Start + Short, so J.Start > I.Start - Short.
  auto Lo =
      std::upper_bound(ByStart.begin(), ByStart.end(), HI.Start - Short,
                       [&](int64_t S, size_t J) { return S < Hulls[J].Start; });
  for (auto It = Lo; It != ByStart.end() && Hulls[*It].Start < HI.End; ++It)
    if (*It >= I && Hulls[*It].End > HI.Start)
      Out.push_back(*It);
  for (auto It = std::lower_bound(WideOnes.begin(), WideOnes.end(), I);
       It != WideOnes.end(); ++It)
    Out.push_back(*It);
  std::sort(Out.begin(), Out.end());
}

} // namespace crace
