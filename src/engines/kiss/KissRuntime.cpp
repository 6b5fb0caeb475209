//===- KissRuntime.cpp - the sequential program's runtime
//-------------------===//
//
// The scheduler, thread table and lock table the KISS transform links into
// the sequential program (IR text), and the synchronisation calls it
// replaces.
//
//===----------------------------------------------------------------------===//
#include "engines/kiss/KissTransformImpl.h"

#include "smt/WorkBudget.h"
#include "smt/WorkMeter.h"

#include "engines/kiss/Rounds.h"
#include "model/PointsTo.h"
#include "model/SyncAPI.h"

#include "llvm/ADT/MapVector.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace crace::kiss {

namespace detail {

/// The scheduler, thread table and lock table of the sequential program,
/// as LLVM IR text (H: bits of a thread handle, Max: slots of ts, NT:
/// thread ids, L: lock table slots). Helpers are external while linking and
/// made internal afterwards.
std::string runtimeIR(unsigned H, unsigned Max, unsigned NT, unsigned L) {
  std::string S;
  raw_string_ostream OS(S);
  std::string IH = "i" + std::to_string(H);
  auto Arr = [](unsigned N, StringRef T) {
    return formatv("[{0} x {1}]", N, T).str();
  };
  auto Gep = [&](StringRef Name, unsigned N, StringRef T, StringRef IdxTy,
                 StringRef Idx, StringRef Res) {
    OS << formatv("  {0} = getelementptr {1}, ptr @{2}, i32 0, {3} {4}\n", Res,
                  Arr(N, T), Name, IdxTy, Idx);
  };
  OS << "@__kiss_raise = global i1 false\n"
     << "@__kiss_atomic = global i1 false\n"
     << "@__kiss_self = global " << IH << " 0\n"
     << "@__kiss_next = global " << IH << " 0\n"
     << "@__kiss_ts_used = global " << Arr(Max, "i1") << " zeroinitializer\n"
     << "@__kiss_ts_fn = global " << Arr(Max, "ptr") << " zeroinitializer\n"
     << "@__kiss_ts_arg = global " << Arr(Max, "ptr") << " zeroinitializer\n"
     << "@__kiss_ts_id = global " << Arr(Max, IH) << " zeroinitializer\n"
     << "@__kiss_done = global " << Arr(NT, "i1") << " zeroinitializer\n"
     << "@__kiss_result = global " << Arr(NT, "ptr") << " zeroinitializer\n"
     << "@__kiss_locks = global " << Arr(L, "ptr") << " zeroinitializer\n"
     << "declare i32 @__crace_nondet_int()\n"
     << "declare void @__crace_assume(i32)\n"
     << "declare void @__crace_bmc_fail()\n\n";
  OS << "define i1 @__kiss_nondet() {\n"
        "  %v = call i32 @__crace_nondet_int()\n"
        "  %b = icmp ne i32 %v, 0\n  ret i1 %b\n}\n";
  OS << "define void @__kiss_assume(i1 %c) {\n"
        "  %z = zext i1 %c to i32\n"
        "  call void @__crace_assume(i32 %z)\n  ret void\n}\n";
  // Runs one thread to completion or to its RAISE.
  OS << "define void @__kiss_run(ptr %fn, ptr %arg, " << IH << " %id) {\n"
     << "  %saved = load " << IH << ", ptr @__kiss_self\n"
     << "  store " << IH << " %id, ptr @__kiss_self\n"
     << "  %r = call ptr %fn(ptr %arg)\n"
     << "  %rz = load i1, ptr @__kiss_raise\n"
     << "  br i1 %rz, label %out, label %fin\nfin:\n";
  Gep("__kiss_done", NT, "i1", IH, "%id", "%d");
  OS << "  store i1 true, ptr %d\n";
  Gep("__kiss_result", NT, "ptr", IH, "%id", "%rp");
  OS << "  store ptr %r, ptr %rp\n  br label %out\nout:\n"
     << "  store i1 false, ptr @__kiss_raise\n"
     << "  store i1 false, ptr @__kiss_atomic\n"
     << "  store " << IH << " %saved, ptr @__kiss_self\n  ret void\n}\n";
  // schedule(): Max rounds; each may run one thread of ts.
  OS << "define void @__kiss_schedule() {\nentry:\n"
     << "  %a = load i1, ptr @__kiss_atomic\n"
     << "  br i1 %a, label %done, label %it0\n";
  for (unsigned K = 0; K < Max; ++K) {
    OS << formatv("it{0}:\n  br label %it{0}s0\n", K);
    for (unsigned J = 0; J < Max; ++J) {
      std::string B = formatv("{0}s{1}", K, J).str();
      std::string Next = J + 1 < Max ? formatv("it{0}s{1}", K, J + 1).str()
                                     : formatv("it{0}", K + 1).str();
      OS << formatv("it{0}:\n", B);
      Gep("__kiss_ts_used", Max, "i1", "i32", std::to_string(J), "%up" + B);
      OS << formatv("  %u{0} = load i1, ptr %up{0}\n"
                    "  br i1 %u{0}, label %c{0}, label %{1}\n"
                    "c{0}:\n  %g{0} = call i1 @__kiss_nondet()\n"
                    "  br i1 %g{0}, label %run{0}, label %{1}\nrun{0}:\n"
                    "  store i1 false, ptr %up{0}\n",
                    B, Next);
      Gep("__kiss_ts_fn", Max, "ptr", "i32", std::to_string(J), "%fp" + B);
      Gep("__kiss_ts_arg", Max, "ptr", "i32", std::to_string(J), "%ap" + B);
      Gep("__kiss_ts_id", Max, IH, "i32", std::to_string(J), "%ip" + B);
      OS << formatv("  %f{0} = load ptr, ptr %fp{0}\n"
                    "  %x{0} = load ptr, ptr %ap{0}\n"
                    "  %i{0} = load {1}, ptr %ip{0}\n"
                    "  call void @__kiss_run(ptr %f{0}, ptr %x{0}, {1} %i{0})\n"
                    "  br label %it{2}\n",
                    B, IH, K + 1);
    }
  }
  OS << formatv("it{0}:\n  br label %done\ndone:\n  ret void\n}\n", Max);
  // Thread creation: a fresh id, then put into ts or run at once.
  OS << "define void @__kiss_create(ptr %h, ptr %fn, ptr %arg) {\nentry:\n"
     << "  %n = load " << IH << ", ptr @__kiss_next\n"
     << "  %id = add " << IH << " %n, 1\n"
     << "  store " << IH << " %id, ptr @__kiss_next\n"
     << "  %ok = icmp ult " << IH << " %id, " << NT << "\n"
     << "  call void @__kiss_assume(i1 %ok)\n"
     << "  %hn = icmp ne ptr %h, null\n"
     << "  br i1 %hn, label %wh, label %slot0\nwh:\n"
     << "  store " << IH << " %id, ptr %h\n  br label %slot0\n";
  for (unsigned J = 0; J < Max; ++J) {
    OS << formatv("slot{0}:\n", J);
    Gep("__kiss_ts_used", Max, "i1", "i32", std::to_string(J),
        formatv("%up{0}", J).str());
    OS << formatv("  %u{0} = load i1, ptr %up{0}\n"
                  "  br i1 %u{0}, label %slot{1}, label %put{0}\nput{0}:\n"
                  "  store i1 true, ptr %up{0}\n",
                  J, J + 1);
    Gep("__kiss_ts_fn", Max, "ptr", "i32", std::to_string(J),
        formatv("%fp{0}", J).str());
    Gep("__kiss_ts_arg", Max, "ptr", "i32", std::to_string(J),
        formatv("%ap{0}", J).str());
    Gep("__kiss_ts_id", Max, IH, "i32", std::to_string(J),
        formatv("%ip{0}", J).str());
    OS << formatv("  store ptr %fn, ptr %fp{0}\n  store ptr %arg, ptr %ap{0}\n"
                  "  store {1} %id, ptr %ip{0}\n  ret void\n",
                  J, IH);
  }
  OS << formatv("slot{0}:\n", Max)
     << "  call void @__kiss_run(ptr %fn, ptr %arg, " << IH << " %id)\n"
     << "  ret void\n}\n";
  // Join: the thread must have completed (not merely stopped by RAISE).
  OS << "define void @__kiss_join(" << IH << " %h, ptr %ret) {\n"
     << "  %ok = icmp ult " << IH << " %h, " << NT << "\n"
     << "  call void @__kiss_assume(i1 %ok)\n";
  Gep("__kiss_done", NT, "i1", IH, "%h", "%dp");
  OS << "  %d = load i1, ptr %dp\n  call void @__kiss_assume(i1 %d)\n"
     << "  %rn = icmp ne ptr %ret, null\n"
     << "  br i1 %rn, label %w, label %out\nw:\n";
  Gep("__kiss_result", NT, "ptr", IH, "%h", "%rp");
  OS << "  %r = load ptr, ptr %rp\n  store ptr %r, ptr %ret\n"
     << "  br label %out\nout:\n  ret void\n}\n";
  OS << "define " << IH << " @__kiss_thread_self() {\n"
     << "  %s = load " << IH << ", ptr @__kiss_self\n  ret " << IH
     << " %s\n}\n";
  OS << "define void @__kiss_thread_exit(ptr %r) {\n"
     << "  %s = load " << IH << ", ptr @__kiss_self\n";
  Gep("__kiss_done", NT, "i1", IH, "%s", "%dp");
  OS << "  store i1 true, ptr %dp\n";
  Gep("__kiss_result", NT, "ptr", IH, "%s", "%rp");
  OS << "  store ptr %r, ptr %rp\n  store i1 true, ptr @__kiss_raise\n"
     << "  ret void\n}\n";
  // Locks: a table of held locks.
  rounds::writeLockTableIR(OS, L, "", "", "", [&](unsigned J, StringRef Res) {
    Gep("__kiss_locks", L, "ptr", "i32", std::to_string(J), Res);
  });
  OS << rounds::sharedRuntimeIR();
  return S;
}

SyncOp syncOp(StringRef N) {
  std::optional<Intrinsic> I = lookupIntrinsic(N);
  if (!I)
    return SyncOp::None;
  switch (*I) {
  case Intrinsic::ThreadCreate:
    return SyncOp::Create;
  case Intrinsic::ThreadJoin:
    return SyncOp::Join;
  case Intrinsic::ThreadExit:
    return SyncOp::Exit;
  case Intrinsic::ThreadSelf:
    return SyncOp::Self;
  case Intrinsic::Lock:
  case Intrinsic::RdLock:
    return SyncOp::Lock;
  case Intrinsic::Unlock:
    return SyncOp::Unlock;
  case Intrinsic::TryLock:
  case Intrinsic::TryRdLock:
    return SyncOp::TryLock;
  case Intrinsic::CondWait:
    return SyncOp::CondWait;
  case Intrinsic::CondSignal:
  case Intrinsic::CondBroadcast:
  case Intrinsic::BarrierInit:
  case Intrinsic::SemInit:
  case Intrinsic::SemPost:
    return SyncOp::NoOp;
  case Intrinsic::AtomicBegin:
    return SyncOp::AtomicBegin;
  case Intrinsic::AtomicEnd:
    return SyncOp::AtomicEnd;
  case Intrinsic::BarrierWait:
    return SyncOp::BlockI32;
  case Intrinsic::SemWait:
    return SyncOp::Block;
  default:
    return SyncOp::None;
  }
}

SyncOp syncOpOf(const Instruction &I) {
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (const Function *F = CB->getCalledFunction())
      return syncOp(F->getName());
  return SyncOp::None;
}

} // namespace detail

} // namespace crace::kiss
