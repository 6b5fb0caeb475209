//===- SourceText.cpp - lines of the analysed sources, read once ----------===//
#include "report/SourceText.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace crace {

std::string shortPath(const std::string &File) {
  static const std::string Cwd = [] {
    SmallString<256> D;
    if (sys::fs::current_path(D))
      return std::string();
    return D.str().str() + "/";
  }();
  if (!Cwd.empty() && StringRef(File).starts_with(Cwd))
    return File.substr(Cwd.size());
  return File;
}

std::optional<std::string> SourceCache::line(const std::string &File,
                                             unsigned Line) {
  auto It = Files.find(File);
  if (It == Files.end()) {
    std::vector<std::string> Lines;
    if (auto Buf = MemoryBuffer::getFile(File, /*IsText=*/true)) {
      StringRef Text = (*Buf)->getBuffer();
      while (!Text.empty()) {
        auto [L, Rest] = Text.split('\n');
        Lines.push_back(L.rtrim('\r').str());
        Text = Rest;
      }
    }
    It = Files.insert({File, std::move(Lines)}).first;
  }
  if (Line == 0 || Line > It->second.size())
    return std::nullopt;
  return It->second[Line - 1];
}

std::string fingerprint(const Finding &F, SourceCache &Sources) {
  auto Part = [&](const AccessInfo &A) {
    return sys::path::filename(A.Loc.File).str() + "|" +
           StringRef(Sources.line(A.Loc.File, A.Loc.Line).value_or(""))
               .trim()
               .str();
  };
  std::string P1 = Part(F.First), P2 = Part(F.Second);
  if (P2 < P1)
    std::swap(P1, P2);
  const char *Category = F.Category == FindingCategory::Deadlock ? "deadlock"
                         : F.Category == FindingCategory::AssertionFailure
                             ? "assertion-failure"
                             : "data-race";
  MD5 H;
  H.update(Category);
  H.update("|" + F.First.Variable + "|" + P1 + "|" + P2);
  MD5::MD5Result Out;
  H.final(Out);
  return Out.digest().str().str();
}

} // namespace crace
