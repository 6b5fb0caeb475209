//===- Engine.cpp - engine registry and factory ---------------------------===//
#include "engines/Engine.h"
#include "engines/explore/ExploreEngine.h"
#include "engines/kiss/KissEngine.h"
#include "engines/lockset/LocksetEngine.h"
#include "engines/whoop/WhoopEngine.h"

namespace crace {

Engine::~Engine() = default;

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

std::unique_ptr<Engine> createEngine(EngineKind K) {
  switch (K) {
  case EngineKind::Lockset:
    return std::make_unique<LocksetEngine>();
  case EngineKind::Explore:
    return std::make_unique<ExploreEngine>();
  case EngineKind::Kiss:
    return std::make_unique<KissEngine>();
  case EngineKind::Whoop:
    return std::make_unique<WhoopEngine>();
  }
  return nullptr;
}

} // namespace crace
