//===- Engine.cpp - the engine interface ----------------------------------===//
#include "engines/Engine.h"

namespace crace {

Engine::~Engine() = default;

} // namespace crace
