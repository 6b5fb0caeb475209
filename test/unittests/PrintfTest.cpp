//===- PrintfTest.cpp - explore's printf formatting against the host's ----===//

#include "engines/explore/Printf.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstring>
#include <map>

using namespace crace::explore;

namespace {

PrintfArg intArg(long long V, unsigned W = 32) {
  PrintfArg A;
  A.K = PrintfArg::Int;
  A.Width = W;
  A.Bits = uint64_t(V);
  return A;
}
PrintfArg ptrArg(uint64_t V) {
  PrintfArg A;
  A.K = PrintfArg::Pointer;
  A.Width = 64;
  A.Bits = V;
  return A;
}
PrintfArg dblArg(double D) {
  PrintfArg A;
  A.K = PrintfArg::Double;
  std::memcpy(&A.Bits, &D, 8);
  return A;
}

/// Formats with the given operands; strings live at the "addresses" of
/// Strings.
std::optional<std::string> format(const char *Fmt, std::vector<PrintfArg> Args,
                                  std::map<uint64_t, std::string> Strings,
                                  std::string &Error,
                                  std::vector<uint64_t> *Counts = nullptr) {
  size_t Next = 0;
  auto Read = [&](uint64_t Addr, uint64_t Max) -> std::optional<std::string> {
    auto It = Strings.find(Addr);
    if (It == Strings.end())
      return std::nullopt;
    return It->second.substr(0, Max);
  };
  auto Store = [&](uint64_t, unsigned, uint64_t N, std::string &) {
    if (Counts)
      Counts->push_back(N);
    return Counts != nullptr;
  };
  return formatPrintf(
      Fmt,
      [&](PrintfArg::Kind K, unsigned, std::string &E) {
        return nextPrintfOperand(Args, Next, K, E);
      },
      64, Read, Error, PrintfCountStore(Store));
}

TEST(PrintfTest, MatchesTheHostForCommonConversions) {
  std::string Error;
  char Want[256];
  std::snprintf(Want, sizeof Want, "%d|%5d|%-5d|%05d|%+d|%u|%x|%#X|%o|%c|%%",
                -42, 7, 7, 7, 7, 4000000000u, 255, 255, 8, 'z');
  auto Got = format("%d|%5d|%-5d|%05d|%+d|%u|%x|%#X|%o|%c|%%",
                    {intArg(-42), intArg(7), intArg(7), intArg(7), intArg(7),
                     intArg(4000000000u), intArg(255), intArg(255), intArg(8),
                     intArg('z')},
                    {}, Error);
  ASSERT_TRUE(Got) << Error;
  EXPECT_EQ(*Got, Want);

  std::snprintf(Want, sizeof Want, "%.2f|%e|%g|%10.3f|%lld|%llu", 1.5, 1e10,
                0.0001, -3.14159, -123456789012LL, 18446744073709551615ull);
  Got = format("%.2f|%e|%g|%10.3f|%lld|%llu",
               {dblArg(1.5), dblArg(1e10), dblArg(0.0001), dblArg(-3.14159),
                intArg(-123456789012LL, 64), intArg(-1, 64)},
               {}, Error);
  ASSERT_TRUE(Got) << Error;
  EXPECT_EQ(*Got, Want);
}

TEST(PrintfTest, StringsPrecisionStarAndNull) {
  std::string Error;
  auto Got = format("[%s][%.2s][%*s][%-*.*s][%s]",
                    {ptrArg(16), ptrArg(16), intArg(6), ptrArg(32), intArg(5),
                     intArg(1), ptrArg(32), ptrArg(0)},
                    {{16, "hello"}, {32, "ab"}}, Error);
  ASSERT_TRUE(Got) << Error;
  EXPECT_EQ(*Got, "[hello][he][    ab][a    ][(null)]");
  Got = format("%p %p", {ptrArg(0), ptrArg(0x1000)}, {}, Error);
  ASSERT_TRUE(Got) << Error;
  EXPECT_EQ(*Got, "(nil) 0x1000");
}

TEST(PrintfTest, LengthModifiersNarrow) {
  std::string Error;
  auto Got = format("%hhd %hu %hhx", {intArg(300), intArg(70000), intArg(511)},
                    {}, Error);
  ASSERT_TRUE(Got) << Error;
  EXPECT_EQ(*Got, "44 4464 ff");
}

TEST(PrintfTest, CountConversionStoresTheLengthSoFar) {
  std::string Error;
  std::vector<uint64_t> Counts;
  auto Got = format("abc%n%5d%n", {ptrArg(8), intArg(1), ptrArg(16)}, {}, Error,
                    &Counts);
  ASSERT_TRUE(Got) << Error;
  EXPECT_EQ(*Got, "abc    1");
  EXPECT_EQ(Counts, (std::vector<uint64_t>{3, 8}));
}

TEST(PrintfTest, RefusesWhatItCannotFormat) {
  std::string Error;
  EXPECT_FALSE(format("%d %d", {intArg(1)}, {}, Error));
  EXPECT_NE(Error.find("more arguments"), std::string::npos);
  EXPECT_FALSE(format("%f", {intArg(1)}, {}, Error));
  EXPECT_FALSE(format("%Lf", {dblArg(1)}, {}, Error));
  EXPECT_FALSE(format("%m", {}, {}, Error));
  EXPECT_FALSE(format("%1$d", {intArg(1)}, {}, Error));
  EXPECT_FALSE(format("%s", {ptrArg(99)}, {}, Error)); // not a string
  EXPECT_FALSE(format("abc%", {}, {}, Error));
}

} // namespace

// On ILP32 a long is as wide as an int: %ld takes a 32-bit operand and only
// %lld a 64-bit one (a va_list walk that took 8 bytes for %ld read past
// the operands of knot's `output("...%ldM\n", n)`).
TEST(PrintfTest, LongIsPointerWidthOnIlp32) {
  std::vector<unsigned> Widths;
  std::string Error;
  auto Text = formatPrintf(
      "%ld|%lld|%d|%lu",
      [&](PrintfArg::Kind K, unsigned Width, std::string &) {
        Widths.push_back(Width);
        PrintfArg A;
        A.K = K;
        A.Width = Width;
        A.Bits = 7;
        return std::optional<PrintfArg>(A);
      },
      32, [](uint64_t, uint64_t) { return std::optional<std::string>(); },
      Error, PrintfCountStore([](uint64_t, unsigned, uint64_t, std::string &) {
        return false;
      }));
  ASSERT_TRUE(Text) << Error;
  EXPECT_EQ(*Text, "7|7|7|7");
  EXPECT_EQ(Widths, (std::vector<unsigned>{32, 64, 32, 32}));
}
