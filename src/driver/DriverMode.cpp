//===- DriverMode.cpp - driver mode's options and harness config ----------===//
//
// Driver mode (kernel modules): docs/usage.md, "Drivers". Turns the
// command line's driver-mode options and a --harness-config file into the
// front end's harness options.
//
//===----------------------------------------------------------------------===//
#include "driver/DriverMode.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include <algorithm>

using namespace llvm;

namespace crace::driver {

namespace {

/// Adds a --not-concurrent pair "f:g" (or "f g" from a config file).
Error addNotConcurrent(DriverHarnessOptions &D, StringRef A, StringRef B,
                       StringRef Where) {
  A = A.trim();
  B = B.trim();
  if (A.empty() || B.empty() || A.contains(' ') || B.contains(' '))
    return createStringError(inconvertibleErrorCode(),
                             Where + ": expected two entry points, e.g. f:g");
  D.NotConcurrent.push_back({A.str(), B.str()});
  return Error::success();
}

/// --harness-config FILE: one directive per line, '#' starts a comment.
///   entry f g ...          like --entry=f,g,...
///   not-concurrent f g     like --not-concurrent=f:g
///   harness threads|dispatch
///   no-init-exit-order | no-rtnl | no-irq-lock | distinct-params
Error readHarnessConfig(StringRef Path, DriverHarnessOptions &D,
                        std::string &Form) {
  auto Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read harness config '" + Path +
                                 "': " + Buf.getError().message());
  SmallVector<StringRef, 32> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (size_t N = 0; N < Lines.size(); ++N) {
    std::string Where = formatv("{0}:{1}", Path, N + 1);
    StringRef L = Lines[N].split('#').first.trim();
    if (L.empty())
      continue;
    SmallVector<StringRef, 8> W;
    L.split(W, ' ', -1, false);
    StringRef Key = W[0];
    size_t Args = W.size() - 1;
    if (Key == "entry" && Args >= 1) {
      for (size_t I = 1; I < W.size(); ++I)
        D.Entries.push_back(W[I].trim().str());
    } else if (Key == "not-concurrent" && Args == 2) {
      if (Error E = addNotConcurrent(D, W[1], W[2], Where))
        return E;
    } else if (Key == "harness" && Args == 1 &&
               (W[1] == "threads" || W[1] == "dispatch")) {
      Form = W[1].str();
    } else if (Key == "no-init-exit-order" && Args == 0) {
      D.InitExitOrder = false;
    } else if (Key == "no-rtnl" && Args == 0) {
      D.RtnlSerialised = false;
    } else if (Key == "no-irq-lock" && Args == 0) {
      D.IrqLock = false;
    } else if (Key == "distinct-params" && Args == 0) {
      D.DistinctParams = true;
    } else {
      return createStringError(
          inconvertibleErrorCode(),
          Where + ": cannot read '" + L +
              "' (expected 'entry f ...', 'not-concurrent f g', 'harness "
              "threads|dispatch', 'no-init-exit-order', 'no-rtnl', "
              "'no-irq-lock' or 'distinct-params')");
    }
  }
  return Error::success();
}

} // namespace

Expected<FrontendOptions> withDriverMode(const FrontendOptions &In,
                                         std::optional<EngineKind> Engine,
                                         const DriverModeOptions &DM) {
  FrontendOptions Out = In;
  DriverHarnessOptions &D = Out.Driver;
  if (DM.Driver && DM.Library)
    return createStringError(inconvertibleErrorCode(),
                             "--driver and --library exclude each other");
  D.Enabled = D.Enabled || DM.Driver || DM.Library || !DM.Entries.empty() ||
              DM.ListEntryPoints || !DM.HarnessConfig.empty() ||
              !DM.NotConcurrent.empty();
  D.Library = D.Library || DM.Library;
  std::string Form = DM.HarnessForm;
  if (!DM.HarnessConfig.empty())
    if (Error E = readHarnessConfig(DM.HarnessConfig, D, Form))
      return std::move(E);
  if (DM.HarnessFormGiven)
    Form = DM.HarnessForm; // the command line wins over the file
  for (const std::string &E : DM.Entries)
    if (!E.empty())
      D.Entries.push_back(E);
  for (const std::string &P : DM.NotConcurrent) {
    auto [A, B] = StringRef(P).split(':');
    if (Error E = addNotConcurrent(D, A, B, "--not-concurrent=" + P))
      return std::move(E);
  }
  if (Form != "auto" && Form != "threads" && Form != "dispatch")
    return createStringError(inconvertibleErrorCode(),
                             "unknown --harness '" + Form +
                                 "' (expected auto, threads or dispatch)");
  D.Dispatch =
      Form == "dispatch" || (Form == "auto" && Engine == EngineKind::Kiss);
  D.InitExitOrder = D.InitExitOrder && !DM.NoInitExitOrder;
  D.RtnlSerialised = D.RtnlSerialised && !DM.NoRtnl;
  D.IrqLock = D.IrqLock && !DM.NoIrqLock;
  D.DistinctParams = D.DistinctParams || DM.DistinctParams;
  D.Instances = std::max(2u, DM.EntryInstances);
  return Out;
}

} // namespace crace::driver
