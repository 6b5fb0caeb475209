//===- ScanfTest.cpp - explore's sscanf against the host's glibc ----------===//
//
// A differential test: each case runs the host's sscanf (glibc, LP64) and
// scanString on the same input and format, with eight destination buffers
// filled with a marker, and compares the return value and every byte of
// every buffer (so a store of the wrong width, a missing terminator or a
// store that should not happen all show).
//
//===----------------------------------------------------------------------===//

#include "engines/explore/Scanf.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstring>

using namespace crace::explore;
using llvm::StringRef;

namespace {

constexpr unsigned NBuf = 8, BufSize = 48;

struct Buffers {
  alignas(16) unsigned char B[NBuf][BufSize];
  Buffers() { std::memset(B, 0xAA, sizeof B); }
};

void expectSameAsHost(const char *Input, const char *Fmt) {
  SCOPED_TRACE(std::string("sscanf(\"") + Input + "\", \"" + Fmt + "\")");
  Buffers Host, Ours;
  int Want = std::sscanf(Input, Fmt, Host.B[0], Host.B[1], Host.B[2], Host.B[3],
                         Host.B[4], Host.B[5], Host.B[6], Host.B[7]);
  unsigned Next = 0;
  std::string Error;
  auto Got = scanString(
      Input, Fmt,
      [&](std::string &E) -> std::optional<uint64_t> {
        if (Next >= NBuf) {
          E = "too few";
          return std::nullopt;
        }
        return Next++;
      },
      64, 64, Error);
  ASSERT_TRUE(Got) << Error;
  EXPECT_EQ(Got->Return, Want);
  for (const ScanStore &S : Got->Stores) {
    ASSERT_LT(S.Addr, NBuf);
    ASSERT_LE(S.Bytes.size(), BufSize);
    std::memcpy(Ours.B[S.Addr], S.Bytes.data(), S.Bytes.size());
  }
  for (unsigned I = 0; I < NBuf; ++I)
    EXPECT_EQ(0, std::memcmp(Host.B[I], Ours.B[I], BufSize))
        << "destination " << I << " differs";
}

TEST(ScanfTest, IntegersAsGlibcConvertsThem) {
  expectSameAsHost("42", "%d");
  expectSameAsHost("  -17 +5", "%d%d");
  expectSameAsHost("123456789012", "%d");
  expectSameAsHost("123456789012", "%lld");
  expectSameAsHost("99999999999999999999", "%ld");
  expectSameAsHost("-99999999999999999999", "%ld");
  expectSameAsHost("-1", "%u");
  expectSameAsHost("70000 300", "%hu %hhu");
  expectSameAsHost("0x1f 0X2A ff", "%x %X %x");
  expectSameAsHost("0x", "%x");
  expectSameAsHost("0x1g", "%i");
  expectSameAsHost("017 0x11 11", "%i %i %i");
  expectSameAsHost("777 8", "%o %o");
  expectSameAsHost("12345", "%3d%d");
  expectSameAsHost("+", "%d");
  expectSameAsHost("-x", "%d");
  expectSameAsHost("0x7fff1234", "%p");
  expectSameAsHost("42 43", "%*d %d");
  expectSameAsHost("8080-8090", "%hu-%hu");
}

TEST(ScanfTest, StringsSetsAndChars) {
  expectSameAsHost("host.example/24", "%[^/]/%hu");
  expectSameAsHost("abc123def", "%[a-z]%[0-9]%s");
  expectSameAsHost("]]x", "%[]]%c");
  expectSameAsHost("a-b", "%[a-]%s");
  expectSameAsHost("deadBEEF!", "%[0-9a-fA-F]");
  expectSameAsHost("  word  next", "%s%s");
  expectSameAsHost("abcdefgh", "%3s%2c%s");
  expectSameAsHost("  x", "%c");
  expectSameAsHost("  x", " %c");
  expectSameAsHost("ab", "%5c");
  expectSameAsHost("a:b:c", "%[^:]:%[^:]:%[^:]");
  expectSameAsHost("/x", "%[^/]");
}

TEST(ScanfTest, LiteralsFailuresAndCounts) {
  expectSameAsHost("", "%d");
  expectSameAsHost("   ", "%d");
  expectSameAsHost("abc", "%d");
  expectSameAsHost("x=1", "y=%d");
  expectSameAsHost("x=", "x=%d");
  expectSameAsHost("5%", "%d%%");
  expectSameAsHost("5 %", "%d%%");
  expectSameAsHost("12 ab", "%d%n %s%n");
  expectSameAsHost("", "");
  expectSameAsHost("", "%n");
  expectSameAsHost("GET /index.html HTTP/1.0", "%s %s HTTP/%d.%d");
}

TEST(ScanfTest, RefusesWhatItCannotExecute) {
  std::string Error;
  auto Ptr = [](std::string &) -> std::optional<uint64_t> { return 0; };
  EXPECT_FALSE(scanString("1.5", "%f", Ptr, 64, 64, Error));
  EXPECT_NE(Error.find("'%f'"), std::string::npos);
  EXPECT_FALSE(scanString("x", "%ms", Ptr, 64, 64, Error));
  EXPECT_FALSE(scanString("1", "%1$d", Ptr, 64, 64, Error));
  auto None = [](std::string &E) -> std::optional<uint64_t> {
    E = "no operand";
    return std::nullopt;
  };
  EXPECT_FALSE(scanString("1", "%d", None, 64, 64, Error));
  EXPECT_EQ(Error, "no operand");
}

// scanInputFor's text, given to the host's sscanf: every conversion is
// assigned, the text is read to its end (a %n after the format), and the
// numbers are the ones drawn.
TEST(ScanfTest, InputMadeForAFormatIsReadInFull) {
  for (const char *Fmt :
       {"%d", "%d %d", "%d%d", "x=%d,y=%u", "%s%c", "%hhd %hd %ld %lld",
        "%x %o %X", "%3d%d", "%[abc]%d", "%[^,],%d", "%*d%d", "%c%5c", "%% %d",
        "%i %p", "%zu%n", "%d %c", "%s %3c"}) {
    SCOPED_TRACE(Fmt);
    uint64_t K = 0;
    unsigned Assigned = 0;
    std::string Error;
    auto In = scanInputFor(
        Fmt, [&](unsigned) { return (++K * 0x9E3779B97F4A7C15ull) >> 3; }, 64,
        64, Assigned, Error);
    ASSERT_TRUE(In) << Error;
    Buffers Host;
    std::string F = std::string(Fmt) + "%n";
    int Got =
        std::sscanf(In->c_str(), F.c_str(), Host.B[0], Host.B[1], Host.B[2],
                    Host.B[3], Host.B[4], Host.B[5], Host.B[6], Host.B[7]);
    EXPECT_EQ(Got, int(Assigned));
    // The %n after the format: its operand follows the assigned ones
    // (and a %n of the format's own).
    unsigned NOps = Assigned + (StringRef(Fmt).contains("%n") ? 1 : 0);
    int Consumed = 0;
    std::memcpy(&Consumed, Host.B[NOps], sizeof Consumed);
    EXPECT_EQ(size_t(Consumed), In->size()) << '"' << *In << '"';
  }
  unsigned Assigned = 0;
  std::string Error;
  auto In = scanInputFor(
      "%d %u", [](unsigned Bits) { return Bits == 32 ? 0xFFFFFFFFu : 0; }, 64,
      64, Assigned, Error);
  ASSERT_TRUE(In);
  EXPECT_EQ(*In, " -1 4294967295");
  EXPECT_FALSE(
      scanInputFor("%f", [](unsigned) { return 0; }, 64, 64, Assigned, Error));
}

} // namespace
