//===- DriverTest.cpp - unit tests of the driver's outcomes ---------------===//
#include "driver/Driver.h"
#include "crace/ExitCodes.h"
#include "driver/Watchdog.h"
#include "model/Errors.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <csignal>

using namespace crace;

TEST(DriverTest, InternalErrorKeepsItsMessage) {
  llvm::Error E = llvm::make_error<InternalError>("clang crashed");
  EXPECT_TRUE(E.isA<InternalError>());
  EXPECT_EQ(llvm::toString(std::move(E)), "internal error: clang crashed");
}

// An internal error is told by its type: a StringError worded like one is
// a usage error, an InternalError worded otherwise is internal.
TEST(DriverTest, BuildErrorsAreToldByType) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  RunStatus S = reportBuildError(llvm::make_error<InternalError>("x"), OS);
  EXPECT_EQ(S, RunStatus::Internal);
  EXPECT_EQ(exitCodeOf(S), 5);
  EXPECT_EQ(Out, "crace: error: internal error: x\n");
  Out.clear();
  EXPECT_EQ(reportBuildError(
                llvm::createStringError(llvm::inconvertibleErrorCode(),
                                        "internal error: only worded like one"),
                OS),
            RunStatus::Usage);
  EXPECT_EQ(Out, "crace: error: internal error: only worded like one\n");
  EXPECT_EQ(reportBuildError(llvm::make_error<CompileError>("no"), OS),
            RunStatus::Compile);
}

// The tool's mapping is the table of docs/usage.md ("Verdicts and exit
// codes").
TEST(DriverTest, ExitCodesAreTheDocumentedOnes) {
  EXPECT_EQ(exitCodeOf(RunOutcome(Verdict::RaceFree)), 0);
  EXPECT_EQ(exitCodeOf(RunOutcome(Verdict::Race)), 1);
  EXPECT_EQ(exitCodeOf(RunOutcome(Verdict::PossibleRace)), 2);
  EXPECT_EQ(exitCodeOf(RunStatus::Usage), 3);
  EXPECT_EQ(exitCodeOf(RunStatus::Compile), 4);
  EXPECT_EQ(exitCodeOf(RunStatus::Internal), 5);
  EXPECT_EQ(exitCodeOf(RunOutcome(Verdict::Unknown)), 6);
  EXPECT_EQ(exitCodeOf(RunStatus::VerifyPassed), 0);
  EXPECT_EQ(exitCodeOf(RunStatus::VerifyFailed), 1);
  EXPECT_EQ(exitCodeOf(RunStatus::Listed), 0);
}

// A hard stop ends the process through the tool's handler, with the exit
// code of an unknown verdict; without a handler it aborts.
TEST(DriverTest, HardStopLeavesThroughTheToolsHandler) {
  EXPECT_EXIT(
      {
        setHardStopExit(exitNow);
        driver::hardStop("a test");
      },
      testing::ExitedWithCode(6), "");
  EXPECT_EXIT(
      {
        setHardStopExit(nullptr);
        driver::hardStop("a test");
      },
      testing::KilledBySignal(SIGABRT), "");
}
