//===- ProgramsTest.cpp - compilation databases: targets, one command -----===//
#include "frontend/Programs.h"

#include "gtest/gtest.h"

using namespace crace;
using clang::tooling::CompileCommand;

namespace {

CompileCommand command(const std::string &File, std::vector<std::string> Args) {
  std::vector<std::string> Line = {"cc"};
  Line.insert(Line.end(), Args.begin(), Args.end());
  Line.push_back("-c");
  Line.push_back(File);
  return CompileCommand("/build", File, Line, "");
}

TEST(ProgramsTest, CMakeTargetFromTheObjectPath) {
  EXPECT_EQ(cmakeTarget(
                command("/src/a.c", {"-o", "CMakeFiles/xzdec.dir/src/a.c.o"})),
            "xzdec");
  EXPECT_EQ(
      cmakeTarget(command("/src/a.c", {"-osub/CMakeFiles/lib_x.dir/a.c.o"})),
      "lib_x");
  EXPECT_EQ(cmakeTarget(command("/src/a.c", {"-o", "a.o"})), "");
  EXPECT_EQ(cmakeTarget(command("/src/a.c", {})), "");
  // The "output" key of the database wins over -o.
  CompileCommand C = command("/src/a.c", {"-o", "a.o"});
  C.Output = "CMakeFiles/t.dir/a.c.o";
  EXPECT_EQ(cmakeTarget(C), "t");
}

TEST(ProgramsTest, OneCommandPerFilePrefersTheStaticObject) {
  CommandListDatabase Db({command("/src/a.c", {"-fPIC", "-o", "a.lo"}),
                          command("/src/a.c", {"-DSTATIC", "-o", "a.o"}),
                          command("/src/b.c", {"-fPIC", "-o", "b.lo"}),
                          command("/src/b.c", {"-fpic", "-o", ".libs/b.o"})});
  EXPECT_EQ(Db.getCompileCommands("/src/a.c").size(), 2u);
  auto One = oneCommandPerFile(Db, {"/src/a.c", "/src/b.c", "/src/c.c"});
  auto A = One->getCompileCommands("/src/a.c");
  ASSERT_EQ(A.size(), 1u);
  EXPECT_EQ(A[0].CommandLine[1], "-DSTATIC");
  // Only shared objects: the first.
  auto B = One->getCompileCommands("/src/b.c");
  ASSERT_EQ(B.size(), 1u);
  EXPECT_EQ(B[0].CommandLine[1], "-fPIC");
  EXPECT_TRUE(One->getCompileCommands("/src/c.c").empty());
  EXPECT_EQ(One->getAllFiles(),
            (std::vector<std::string>{"/src/a.c", "/src/b.c"}));
}

TEST(ProgramsTest, RelativeFilesAreResolvedAgainstTheDirectory) {
  CommandListDatabase Db({CompileCommand("/build/x", "../src/./a.c",
                                         {"cc", "-c", "../src/a.c"}, "")});
  EXPECT_EQ(Db.getAllFiles(), (std::vector<std::string>{"/build/src/a.c"}));
  EXPECT_EQ(Db.getCompileCommands("/build/src/a.c").size(), 1u);
}

} // namespace
