//===- WorkMeter.cpp - deterministic work budgets for Z3-based stages -----===//
//
// Calibration (UnitsPerSecond, StepCost): see docs/usage.md, "Work
// budgets", and bench/results/goblint-default-run.md.
//
//===----------------------------------------------------------------------===//
#include "smt/WorkMeter.h"

#include <algorithm>
#include <limits>

namespace crace {

uint64_t z3ResourceCount(z3::solver &Reader) {
  z3::stats St = Reader.statistics();
  for (unsigned I = 0; I < St.size(); ++I)
    if (St.key(I) == "rlimit count")
      return St.is_uint(I) ? uint64_t(St.uint_value(I))
                           : uint64_t(St.double_value(I));
  return 0;
}

WorkMeter::WorkMeter(uint64_t Limit, z3::context *Ctx, uint64_t Cost)
    : Limit(Limit), Cost(Cost) {
  if (Ctx) {
    Reader.emplace(*Ctx);
    Z3Base = z3ResourceCount(*Reader);
  }
}

void WorkMeter::detach() {
  poll();
  Z3Earlier = Z3Used;
  Z3Base = 0;
  Reader.reset();
}

void WorkMeter::attach(z3::context &Ctx) {
  detach();
  Reader.emplace(Ctx);
  Z3Base = z3ResourceCount(*Reader);
}

void WorkMeter::follow() {
  if (!LimitFeed)
    return;
  uint64_t New = LimitFeed->load(std::memory_order_relaxed);
  if (New == Limit)
    return;
  // Everything decided so far was decided with less used than the new
  // budget (used() only grows) exactly when the work counted up to now,
  // Z3's included, is below it.
  readZ3();
  if (New && used() >= New)
    LoweredLate = true;
  Limit = New;
}

bool WorkMeter::step(uint64_t N) {
  follow();
  uint64_t Before = Steps;
  Steps += N;
  if ((Before >> 8) != (Steps >> 8))
    return poll();
  if (Limit && used() >= Limit)
    Exhausted = true;
  return Exhausted;
}

bool WorkMeter::charge(uint64_t Units) {
  follow();
  Charged += Units;
  if (Limit && used() >= Limit)
    Exhausted = true;
  return Exhausted;
}

uint64_t WorkMeter::left() const {
  if (!Limit)
    return std::numeric_limits<uint64_t>::max();
  return Limit > used() ? Limit - used() : 0;
}

void WorkMeter::readZ3() {
  if (Reader) {
    uint64_t Now = z3ResourceCount(*Reader);
    Z3Used = Z3Earlier + (Now > Z3Base ? Now - Z3Base : 0);
  } else {
    Z3Used = Z3Earlier;
  }
}

bool WorkMeter::poll() {
  follow();
  readZ3();
  if (Publish)
    Publish->store(used(), std::memory_order_relaxed);
  if (Limit && used() >= Limit)
    Exhausted = true;
  return Exhausted;
}

unsigned WorkMeter::queryLimit(uint64_t PerQuery) {
  poll(); // follows LimitFeed
  uint64_t L = PerQuery;
  if (Limit) {
    uint64_t Left = Limit > used() ? Limit - used() : 0;
    L = L ? std::min(L, Left) : Left;
    L = std::max<uint64_t>(L, 1);
  }
  return unsigned(std::min<uint64_t>(L, std::numeric_limits<unsigned>::max()));
}

} // namespace crace
