//===- DriverTest.cpp - unit tests of the driver's error handling ---------===//
#include "driver/Driver.h"
#include "model/Errors.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

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
  EXPECT_EQ(reportBuildError(llvm::make_error<InternalError>("x"), OS),
            ExitInternal);
  EXPECT_EQ(Out, "crace: error: internal error: x\n");
  Out.clear();
  EXPECT_EQ(reportBuildError(
                llvm::createStringError(llvm::inconvertibleErrorCode(),
                                        "internal error: only worded like one"),
                OS),
            ExitUsage);
  EXPECT_EQ(Out, "crace: error: internal error: only worded like one\n");
  EXPECT_EQ(reportBuildError(llvm::make_error<CompileError>("no"), OS),
            ExitCompile);
}
