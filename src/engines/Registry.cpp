//===- Registry.cpp - the engines, generated from Engines.def -------------===//
//
// Engines.def is the only list of engines: the enum (Engine.h), the names
// and descriptions (allEngines, engineName, the --engine help) and the
// factory below are all generated from it. Each engine defines its own
// `create<Enum>Engine()`, so this file includes no engine's header and the
// interface's room points at none of them.
//
//===----------------------------------------------------------------------===//
#include "engines/Engine.h"

namespace crace {

#define ENGINE(E, N, D) std::unique_ptr<Engine> create##E##Engine();
#include "engines/Engines.def"

const std::vector<EngineInfo> &allEngines() {
  static const std::vector<EngineInfo> Infos = {
#define ENGINE(E, N, D) {EngineKind::E, N, D},
#include "engines/Engines.def"
  };
  return Infos;
}

std::optional<EngineKind> engineByName(llvm::StringRef Name) {
  for (const EngineInfo &I : allEngines())
    if (I.Name == Name)
      return I.Kind;
  return std::nullopt;
}

llvm::StringRef engineName(EngineKind K) {
  switch (K) {
#define ENGINE(E, N, D)                                                        \
  case EngineKind::E:                                                          \
    return N;
#include "engines/Engines.def"
  }
  return "";
}

std::unique_ptr<Engine> createEngine(EngineKind K) {
  switch (K) {
#define ENGINE(E, N, D)                                                        \
  case EngineKind::E:                                                          \
    return create##E##Engine();
#include "engines/Engines.def"
  }
  return nullptr;
}

} // namespace crace
