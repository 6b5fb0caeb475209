//===- DiskCache.h - crace's on-disk cache (--cache-dir) ------------------===//
//
// Incremental re-analysis (docs/usage.md, "The cache"): a directory of
// entries, each a file named by the SHA-256 of its key, under a folder per
// kind ("units": a translation unit's bitcode, "results": a program's
// analysis result). Entries are written atomically (a temporary file in
// the same folder, then a rename), so concurrent runs and a killed run
// never leave a half-written entry, and each carries a checksum of its
// contents: an entry that is missing, unreadable or corrupt is a miss,
// never an error.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SHA256.h"
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace crace {

/// A key: fields fed in order (each with its length, so "ab","c" and
/// "a","bc" differ), hashed with SHA-256.
class CacheKey {
public:
  CacheKey &add(llvm::StringRef S);
  CacheKey &add(uint64_t N) { return add(llvm::StringRef(std::to_string(N))); }
  /// The key in hex (64 characters).
  std::string hex();
  llvm::SHA256 &hasher() { return H; }

private:
  llvm::SHA256 H;
};

/// An entry's fields, each with its length: putField appends one,
/// takeField takes the next from In (false when In is malformed).
void putField(std::string &Out, llvm::StringRef S);
bool takeField(llvm::StringRef &In, llvm::StringRef &Field);

/// --cache-dir's default with -p BUILD_DIR: BUILD_DIR/.crace-cache.
std::string defaultCacheDir(llvm::StringRef BuildDir);

class DiskCache {
public:
  /// Opens Dir, creating it when needed. When it cannot be created or
  /// written, prints one warning on Warn and returns null (the run goes on
  /// without a cache).
  static std::unique_ptr<DiskCache> open(llvm::StringRef Dir,
                                         llvm::raw_ostream &Warn);
  /// The entry of Kind under Key, or nothing (missing, unreadable,
  /// corrupt).
  std::optional<std::string> get(llvm::StringRef Kind,
                                 llvm::StringRef Key) const;
  /// Stores Data under Key, atomically; a failure is ignored (the next
  /// run does the work again).
  void put(llvm::StringRef Kind, llvm::StringRef Key,
           llvm::StringRef Data) const;
  /// The xxh3 hash of a file's contents, read once per run; nothing when
  /// it cannot be read.
  std::optional<uint64_t> fileHash(const std::string &Path) const;
  /// What identifies this crace: its version and its executable (path,
  /// size, modification time), so that a rebuilt crace never reuses what
  /// an older one stored.
  static const std::string &buildIdentity();
  const std::string &dir() const { return Dir; }

  /// What this run reused: translation units (compileToBitcode) and
  /// programs' analysis results (the driver).
  mutable std::atomic<unsigned> UnitsReused{0}, UnitsCompiled{0},
      ResultsReused{0}, ResultsAnalysed{0};

private:
  explicit DiskCache(std::string Dir) : Dir(std::move(Dir)) {}
  std::string Dir;
  mutable std::mutex M;
  mutable std::map<std::string, std::optional<uint64_t>> Hashes;
};

} // namespace crace
