//===- CacheTest.cpp - the on-disk cache: keys, entries, results ----------===//
#include "driver/ResultCache.h"
#include "frontend/DiskCache.h"
#include "report/Report.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace crace;
using namespace llvm;

namespace {

/// A fresh directory, removed at the end.
struct TempDir {
  SmallString<256> Path;
  TempDir() {
    EXPECT_FALSE(sys::fs::createUniqueDirectory("crace-cache-test", Path));
  }
  ~TempDir() { sys::fs::remove_directories(Path); }
};

TEST(CacheTest, KeysSeparateTheirFields) {
  auto Key = [](StringRef A, StringRef B) {
    return CacheKey().add(A).add(B).hex();
  };
  EXPECT_EQ(Key("ab", "c"), Key("ab", "c"));
  EXPECT_NE(Key("ab", "c"), Key("a", "bc"));
  EXPECT_EQ(Key("ab", "c").size(), 64u);
}

TEST(CacheTest, FieldsRoundTripAndRejectGarbage) {
  std::string E;
  putField(E, "one");
  putField(E, "");
  putField(E, StringRef("t\0o", 3));
  StringRef In = E, F;
  ASSERT_TRUE(takeField(In, F));
  EXPECT_EQ(F, "one");
  ASSERT_TRUE(takeField(In, F));
  EXPECT_EQ(F, "");
  ASSERT_TRUE(takeField(In, F));
  EXPECT_EQ(F, StringRef("t\0o", 3));
  EXPECT_TRUE(In.empty());
  StringRef Cut = "10:short";
  EXPECT_FALSE(takeField(Cut, F));
  StringRef NoLength = ":x";
  EXPECT_FALSE(takeField(NoLength, F));
}

TEST(CacheTest, CorruptEntriesAreMisses) {
  TempDir T;
  std::string Dev;
  raw_string_ostream Warn(Dev);
  auto Disk = DiskCache::open(T.Path, Warn);
  ASSERT_TRUE(Disk);
  EXPECT_TRUE(Dev.empty());
  std::string Key = CacheKey().add("k").hex();
  EXPECT_FALSE(Disk->get("units", Key));
  Disk->put("units", Key, "payload of the entry");
  auto Got = Disk->get("units", Key);
  ASSERT_TRUE(Got);
  EXPECT_EQ(*Got, "payload of the entry");
  // Cut short, then changed in place: both are misses.
  SmallString<256> File(T.Path);
  sys::path::append(File, "units", Key);
  for (StringRef Text : {StringRef("crace-cache 1\n0123"),
                         StringRef("crace-cache 1\n0000000000000000\npayload "
                                   "of the entry")}) {
    std::error_code EC;
    raw_fd_ostream OS(File, EC);
    ASSERT_FALSE(EC);
    OS << Text;
    OS.close();
    EXPECT_FALSE(Disk->get("units", Key)) << Text.str();
  }
  // No temporary file is left behind.
  std::error_code EC;
  unsigned Files = 0;
  SmallString<256> Units(T.Path);
  sys::path::append(Units, "units");
  for (sys::fs::directory_iterator I(Units, EC), E; I != E && !EC;
       I.increment(EC))
    ++Files;
  EXPECT_EQ(Files, 1u);
}

TEST(CacheTest, AnUnwritableDirectoryIsOneWarning) {
  std::string Text;
  raw_string_ostream Warn(Text);
  EXPECT_FALSE(DiskCache::open("/proc/crace-cache-test", Warn));
  EXPECT_NE(Text.find("running without a cache"), std::string::npos);
}

TEST(CacheTest, ResultsRoundTrip) {
  Result R;
  R.Program = Verdict::Race;
  R.Engine = "explore";
  Finding F;
  F.Kind = Verdict::Race;
  F.Engine = "explore";
  F.Schedule = "{\"steps\": [1, 2]}";
  F.First = {"worker#1",
             AccessKind::Write,
             false,
             4,
             SourceLoc{"a.c", 9, 12, "worker"},
             "counter",
             {"m"}};
  F.Second = {"worker#2",
              AccessKind::Read,
              true,
              4,
              SourceLoc{"a.c", 10, 3, "worker"},
              "counter",
              {}};
  F.Trace.push_back({"main", 0, SourceLoc{"a.c", 15, 3, "main"}, "create"});
  F.Concurrency = "both created by main";
  R.Findings.push_back(F);
  R.Omitted = 3;
  R.Assumptions = {"sequential consistency"};
  R.reason(ReasonKind::Budget, "the pair search stopped");
  R.reason(ReasonKind::Unmodelled, "unknown external function 'f'");
  R.stat("explore_seconds", 0.125);
  R.Counters.push_back({"crace-model", "NumThreads", "threads", 2});
  R.SearchComplete = true;
  auto Back = driver::loadResult(driver::saveResult(R));
  ASSERT_TRUE(Back);
  EXPECT_EQ(Back->Reasons, R.Reasons);
  EXPECT_EQ(Back->Stats, R.Stats);
  EXPECT_TRUE(Back->SearchComplete);
  ASSERT_EQ(Back->Findings.size(), 1u);
  EXPECT_EQ(Back->Findings[0].Schedule, F.Schedule);
  EXPECT_EQ(Back->Findings[0].First.Loc.Function, "worker");
  EXPECT_EQ(Back->Findings[0].First.Locks, F.First.Locks);
  EXPECT_TRUE(Back->Findings[0].Second.Atomic);
  auto Json = [](const Result &X) {
    std::string S;
    raw_string_ostream OS(S);
    writeJson(X, OS);
    return S;
  };
  EXPECT_EQ(Json(*Back), Json(R));
  EXPECT_FALSE(driver::loadResult("{\"program\": 1"));
  EXPECT_FALSE(driver::loadResult("[]"));
}

} // namespace
