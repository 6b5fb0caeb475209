//===- DriverMode.h - driver mode's options (private to driver/) ----------===//
#pragma once

#include "driver/Driver.h"

#include "llvm/Support/Error.h"

namespace crace::driver {

/// The front end's options with driver mode applied: DM (the command line)
/// and the --harness-config file it names; the command line wins over the
/// file. Engine (std::nullopt: the portfolio) picks the harness form for
/// --harness=auto. An error for a bad --harness, --not-concurrent pair or
/// config line.
llvm::Expected<FrontendOptions> withDriverMode(const FrontendOptions &In,
                                               std::optional<EngineKind> Engine,
                                               const DriverModeOptions &DM);

} // namespace crace::driver
