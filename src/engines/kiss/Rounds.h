//===- Rounds.h - the K-round (Lal-Reps) sequentialisation ---------------===//
//
// Issue 5, item 6: `--rounds=K`. Instead of KISS's balanced executions the
// sequential program simulates the K-round round-robin executions of Lal &
// Reps (eager form): the threads run one after another (main, then the
// created threads in creation order, which is the round-robin order), each
// with a round counter that grows at nondeterministic context switches;
// the shared state has K copies (copy r is the memory of round r), copies
// 1..K-1 start from guessed values that are checked at the end (the end of
// round r must be the guessed start of round r+1). The transform itself is
// KissTransform.cpp's (KissOptions::Rounds) and KissRoundsTransform.cpp's;
// the runtime (thread table, rounds, one lock table per round) is
// runtime/rounds_runtime.c, compiled by KissRuntime.h's compileRuntime.
//
//===----------------------------------------------------------------------===//
#pragma once
