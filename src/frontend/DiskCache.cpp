//===- DiskCache.cpp - crace's on-disk cache (--cache-dir) ----------------===//
#include "frontend/DiskCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace crace {

namespace {

/// The first line of every entry; raised when the format changes.
constexpr StringRef Magic = "crace-cache 1\n";

std::string hex64(uint64_t V) {
  std::string S = utohexstr(V, /*LowerCase=*/true);
  return std::string(16 - S.size(), '0') + S;
}

} // namespace

CacheKey &CacheKey::add(StringRef S) {
  std::string Len = std::to_string(S.size()) + ":";
  H.update(Len);
  H.update(S);
  return *this;
}

std::string CacheKey::hex() {
  auto Digest = H.final();
  return toHex(ArrayRef<uint8_t>(Digest.data(), Digest.size()),
               /*LowerCase=*/true);
}

void putField(std::string &Out, StringRef S) {
  Out += std::to_string(S.size());
  Out += ':';
  Out += S;
}

bool takeField(StringRef &In, StringRef &Field) {
  size_t Colon = In.find(':');
  if (Colon == StringRef::npos || Colon == 0 || Colon > 19)
    return false;
  uint64_t Len = 0;
  if (In.take_front(Colon).getAsInteger(10, Len) || Len > In.size() - Colon - 1)
    return false;
  Field = In.substr(Colon + 1, Len);
  In = In.drop_front(Colon + 1 + Len);
  return true;
}

std::string defaultCacheDir(StringRef BuildDir) {
  SmallString<256> P(BuildDir);
  if (!sys::fs::is_directory(P))
    sys::path::remove_filename(P); // -p build/compile_commands.json
  sys::path::append(P, ".crace-cache");
  return std::string(P);
}

std::unique_ptr<DiskCache> DiskCache::open(StringRef Dir, raw_ostream &Warn) {
  SmallString<256> Abs(Dir);
  sys::fs::make_absolute(Abs);
  auto Fail = [&](const std::error_code &EC) -> std::unique_ptr<DiskCache> {
    WithColor::warning(Warn, "crace")
        << "cannot use the cache directory '" << Abs << "' (" << EC.message()
        << "): running without a cache\n";
    return nullptr;
  };
  for (StringRef Sub : {"", "units", "results"}) {
    SmallString<256> P(Abs);
    if (!Sub.empty())
      sys::path::append(P, Sub);
    if (std::error_code EC = sys::fs::create_directories(P))
      return Fail(EC);
  }
  // Writable? A file created and removed again.
  SmallString<256> Probe(Abs);
  sys::path::append(Probe, "probe-%%%%%%%%");
  int FD;
  SmallString<256> Made;
  if (std::error_code EC = sys::fs::createUniqueFile(Probe, FD, Made))
    return Fail(EC);
  sys::fs::closeFile(FD);
  sys::fs::remove(Made);
  return std::unique_ptr<DiskCache>(new DiskCache(std::string(Abs)));
}

std::optional<std::string> DiskCache::get(StringRef Kind, StringRef Key) const {
  SmallString<256> P(Dir);
  sys::path::append(P, Kind, Key);
  auto Buf = MemoryBuffer::getFile(P, /*IsText=*/false,
                                   /*RequiresNullTerminator=*/false);
  if (!Buf)
    return std::nullopt;
  StringRef Text = (*Buf)->getBuffer();
  // Magic, the payload's xxh3 in hex, a newline, the payload.
  if (!Text.consume_front(Magic) || Text.size() < 17 || Text[16] != '\n')
    return std::nullopt;
  StringRef Sum = Text.take_front(16);
  StringRef Payload = Text.drop_front(17);
  if (Sum != hex64(xxh3_64bits(Payload)))
    return std::nullopt;
  return Payload.str();
}

void DiskCache::put(StringRef Kind, StringRef Key, StringRef Data) const {
  SmallString<256> Final(Dir);
  sys::path::append(Final, Kind, Key);
  SmallString<256> Model(Final);
  Model += ".tmp-%%%%%%%%";
  int FD;
  SmallString<256> Temp;
  if (sys::fs::createUniqueFile(Model, FD, Temp))
    return;
  bool Ok;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Magic << hex64(xxh3_64bits(Data)) << '\n' << Data;
    OS.close();
    Ok = !OS.has_error();
    OS.clear_error();
  }
  if (!Ok || sys::fs::rename(Temp, Final))
    sys::fs::remove(Temp);
}

std::optional<uint64_t> DiskCache::fileHash(const std::string &Path) const {
  {
    std::lock_guard<std::mutex> G(M);
    if (auto It = Hashes.find(Path); It != Hashes.end())
      return It->second;
  }
  std::optional<uint64_t> H;
  if (auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                       /*RequiresNullTerminator=*/false))
    H = xxh3_64bits((*Buf)->getBuffer());
  std::lock_guard<std::mutex> G(M);
  Hashes.emplace(Path, H);
  return H;
}

const std::string &DiskCache::buildIdentity() {
  static const std::string Id = [] {
    std::string S = "crace " CRACE_VERSION;
    std::string Exe = sys::fs::getMainExecutable(nullptr, nullptr);
    sys::fs::file_status St;
    if (!Exe.empty() && !sys::fs::status(Exe, St))
      S += "|" + Exe + "|" + std::to_string(St.getSize()) + "|" +
           std::to_string(
               St.getLastModificationTime().time_since_epoch().count());
    return S;
  }();
  return Id;
}

} // namespace crace
