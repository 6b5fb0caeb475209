//===- GuidanceTest.cpp - explore's edits of a run's input draws ----------===//

#include "engines/explore/Guidance.h"

#include "gtest/gtest.h"

using namespace crace::explore;

namespace {

/// Thread 1 read "abc" through read(): [failure bit, count, bytes...].
DrawStreams readOf(const std::string &Bytes, std::vector<Word> After = {}) {
  std::vector<Word> S = {0, Word(Bytes.size())};
  for (char C : Bytes)
    S.push_back(uint8_t(C));
  S.insert(S.end(), After.begin(), After.end());
  return {{1, S}};
}
const DrawCounts Counts = {{1, {1}}};

std::optional<DrawRef> ref(uint32_t I) { return DrawRef{1, I}; }

std::string bytesOf(const std::vector<Word> &S, size_t From, size_t N) {
  std::string R;
  for (size_t I = From; I < From + N && I < S.size(); ++I)
    R += char(S[I]);
  return R;
}

// strstr(line, "\r\n") found nothing in "abc" (the read's end, not input,
// ends the string): the wanted bytes go after "abc" — and, the other edit,
// before it — and the read returns two bytes more.
TEST(GuidanceTest, ContainInsertsAtEndAndStartAndLengthensTheRead) {
  InputCmp C;
  C.K = InputCmp::Contain;
  C.Refs = {ref(2), ref(3), ref(4), std::nullopt};
  C.Want = "\r\n";
  C.Tid = 1;
  C.Fresh = true;
  auto E = guidedEdits(C, readOf("abc"), Counts);
  ASSERT_EQ(E.size(), 2u);
  EXPECT_EQ(E[0].at(1)[1], 5u);
  EXPECT_EQ(bytesOf(E[0].at(1), 2, 5), "abc\r\n");
  EXPECT_EQ(E[1].at(1)[1], 5u);
  EXPECT_EQ(bytesOf(E[1].at(1), 2, 5), "\r\nabc");
}

// strcmp(method, "GET") with method "abcd": the four bytes become three.
TEST(GuidanceTest, EqualReplacesTheString) {
  InputCmp C;
  C.K = InputCmp::Equal;
  C.Refs = {ref(2), ref(3), ref(4), ref(5), ref(6)};
  C.Want = "GET";
  C.Tid = 1;
  C.Fresh = true;
  auto E = guidedEdits(C, readOf("abcd x"), Counts);
  ASSERT_EQ(E.size(), 1u);
  EXPECT_EQ(E[0].at(1)[1], 5u);
  EXPECT_EQ(bytesOf(E[0].at(1), 2, 5), "GET x");
}

// One byte compared with '/': overwritten in place, or inserted before it.
TEST(GuidanceTest, ByteIsOverwrittenOrInserted) {
  InputCmp C;
  C.K = InputCmp::Equal;
  C.Overwrite = true;
  C.Refs = {ref(3), ref(4)};
  C.Want = "/";
  C.Tid = 1;
  C.Fresh = true;
  auto E = guidedEdits(C, readOf("a b"), Counts);
  ASSERT_EQ(E.size(), 2u);
  EXPECT_EQ(bytesOf(E[0].at(1), 2, 3), "a/b");
  EXPECT_EQ(E[0].at(1)[1], 3u);
  EXPECT_EQ(bytesOf(E[1].at(1), 2, 4), "a/ b");
  EXPECT_EQ(E[1].at(1)[1], 4u);
}

// An emptied buffer (its bytes no longer what was read): the thread's next
// read, made after the comparison, returns the wanted bytes.
TEST(GuidanceTest, StaleOperandMakesTheNextReadReturnIt) {
  InputCmp C;
  C.K = InputCmp::Contain;
  C.Refs = {ref(2)};
  C.Want = "\r\n";
  C.Tid = 1;
  C.Next = 5;
  C.Fresh = false;
  DrawStreams Run = readOf("abc", {1, 9, 'x'});
  DrawCounts RunCounts = {{1, {1, 6}}};
  auto E = guidedEdits(C, Run, RunCounts);
  ASSERT_FALSE(E.empty());
  const std::vector<Word> &S = E[0].at(1);
  EXPECT_EQ(S[5], 0u); // the read does not fail
  EXPECT_EQ(S[6], 2u); // and returns two bytes
  EXPECT_EQ(bytesOf(S, 7, 2), "\r\n");
}

// Bytes of two threads' input, or not consecutive draws: no edit.
TEST(GuidanceTest, NoEditWithoutOneConsecutiveSource) {
  InputCmp C;
  C.K = InputCmp::Equal;
  C.Refs = {ref(2), DrawRef{2, 3}, std::nullopt};
  C.Want = "GE";
  C.Tid = 1;
  C.Fresh = true;
  EXPECT_TRUE(guidedEdits(C, readOf("ab"), Counts).empty());
  C.Refs = {ref(2), ref(5), std::nullopt};
  EXPECT_TRUE(guidedEdits(C, readOf("abcd"), Counts).empty());
}

} // namespace
