//===- UnitCompilerTest.cpp - units compiled in parallel, used in order ---===//
#include "frontend/UnitCompiler.h"
#include "frontend/Programs.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <atomic>
#include <chrono>
#include <thread>

using namespace crace;
using namespace llvm;

namespace {

TEST(UnitCompilerTest, ResultsAreConsumedInOrder) {
  for (unsigned Jobs : {1u, 2u, 4u}) {
    std::vector<size_t> Seen;
    runInOrder<size_t>(
        20, Jobs,
        [](size_t I) {
          // Later work finishes first.
          std::this_thread::sleep_for(std::chrono::milliseconds(20 - I));
          return I * I;
        },
        [&](size_t I, size_t &R) {
          EXPECT_EQ(R, I * I);
          Seen.push_back(I);
          return true;
        });
    ASSERT_EQ(Seen.size(), 20u) << Jobs;
    for (size_t I = 0; I < Seen.size(); ++I)
      EXPECT_EQ(Seen[I], I);
  }
}

TEST(UnitCompilerTest, StoppingSkipsLaterResultsAndWork) {
  for (unsigned Jobs : {1u, 2u}) {
    std::atomic<unsigned> Started{0};
    std::vector<size_t> Seen;
    runInOrder<int>(
        200, Jobs,
        [&](size_t) {
          ++Started;
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
          return 0;
        },
        [&](size_t I, int &) {
          Seen.push_back(I);
          return I < 3;
        });
    EXPECT_EQ(Seen, (std::vector<size_t>{0, 1, 2, 3})) << Jobs;
    EXPECT_LT(Started.load(), 200u) << Jobs;
  }
}

/// Several units compiled at once give the bitcode and diagnostics each
/// gives alone.
TEST(UnitCompilerTest, ParallelCompilesMatchSerialOnes) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("crace-units", Dir));
  std::vector<clang::tooling::CompileCommand> Commands;
  for (int I = 0; I < 6; ++I) {
    std::string Name = "u" + std::to_string(I) + ".c";
    SmallString<128> Path(Dir);
    sys::path::append(Path, Name);
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << "int g" << I << ";\nint f" << I << "(int x) { return x + g" << I
       << "; }\n";
    if (I == 3)
      OS << "int broken(void) { return undeclared; }\n";
    Commands.emplace_back(std::string(Dir), Name,
                          std::vector<std::string>{"cc", "-c", Name}, "");
  }
  CommandListDatabase Db(Commands);
  ClangSetup Setup;
  Setup.Flags = {"-g"};
  auto CompileAll = [&](unsigned Jobs) {
    std::vector<CompiledUnit> All;
    runInOrder<CompiledUnit>(
        Commands.size(), Jobs,
        [&](size_t I) {
          SmallString<128> Path(Dir);
          sys::path::append(Path, Commands[I].Filename);
          return compileToBitcode(std::string(Path), Db, Setup);
        },
        [&](size_t, CompiledUnit &U) {
          All.push_back(std::move(U));
          return true;
        });
    return All;
  };
  std::vector<CompiledUnit> One = CompileAll(1), Two = CompileAll(3);
  ASSERT_EQ(One.size(), Commands.size());
  ASSERT_EQ(Two.size(), Commands.size());
  for (size_t I = 0; I < One.size(); ++I) {
    EXPECT_EQ(One[I].Status,
              I == 3 ? CompiledUnit::Failed : CompiledUnit::Compiled);
    EXPECT_EQ(One[I].Status, Two[I].Status);
    EXPECT_EQ(One[I].Bitcode, Two[I].Bitcode) << I;
    EXPECT_EQ(One[I].Diagnostics, Two[I].Diagnostics) << I;
  }
  EXPECT_NE(One[3].Diagnostics.find("use of undeclared identifier"),
            std::string::npos)
      << One[3].Diagnostics;
  EXPECT_NE(One[3].Diagnostics.find("1 error generated."), std::string::npos)
      << One[3].Diagnostics;
  sys::fs::remove_directories(Dir);
}

} // namespace
