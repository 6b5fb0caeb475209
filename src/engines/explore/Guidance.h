//===- Guidance.h - comparison-guided inputs for explore -------*- C++ -*-===//
//
// The engine's half of comparison-guided inputs (the executor's half, which
// records where input bytes went and which comparisons of them failed, is
// in Guidance.cpp): from one failed comparison of a run, the edits of that
// run's draws that make it come out equal next time.
//
// A run's draws are kept per thread, in the order the thread made them
// (DrawRef). An edit changes one thread's stream at the positions the
// compared bytes came from:
//   - Equal (strcmp): the input string's bytes are replaced by the wanted
//     ones (its terminator stays where the stream has it); an empty string
//     gets them inserted at its end;
//   - Equal, Overwrite (strncmp, memcmp, one byte): the first bytes are
//     overwritten in place; for one byte, inserting it before is tried too
//     (a separator the input lacks);
//   - Contain (strstr, strchr): the wanted bytes are inserted at the
//     string's end, and at its start.
// An edit that makes the bytes more or fewer changes the count of the read
// they came from (the last count drawn before them) by as much, so that the
// read returns exactly the edited bytes. Edits need the operand's bytes to
// come from consecutive draws of one thread; others give nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "engines/explore/Executor.h"

#include <map>
#include <set>
#include <vector>

namespace crace::explore {

/// Failed comparisons the executor records per run, and the bytes of an
/// input string it looks at.
constexpr size_t MaxInputCmpsPerRun = 256;
constexpr uint64_t MaxInputStringBytes = 4096;

/// Draw values per thread, in the order each thread drew them.
using DrawStreams = std::map<unsigned, std::vector<Word>>;
/// Per thread, the indices of its draws that were counts (DrawRef::Count).
using DrawCounts = std::map<unsigned, std::set<uint32_t>>;

/// The streams to try so that the comparison C of the run whose draws
/// were Run comes out equal (at most two; empty when C cannot be mapped
/// back to consecutive draws of one thread).
std::vector<DrawStreams> guidedEdits(const InputCmp &C, const DrawStreams &Run,
                                     const DrawCounts &Counts);

} // namespace crace::explore
