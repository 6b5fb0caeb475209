//===- ParseErrors.cpp - llvm::cl's parse errors in crace's form ----------===//
#include "ParseErrors.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>

using namespace llvm;

/// llvm::cl's parse errors, one per line, as "crace: error: ...": without
/// its own "crace: " prefix, and without a "did you mean" that names a
/// one-letter option (it suggests -o for any unknown short word).
void printParseErrors(StringRef Text) {
  SmallVector<StringRef, 4> Lines;
  Text.split(Lines, '\n', -1, false);
  for (StringRef L : Lines) {
    L = L.trim();
    L.consume_front("crace: ");
    if (size_t Try = L.find("  Try: '"); Try != StringRef::npos)
      L = L.take_front(Try); // names crace by its full path
    if (L.empty())
      continue;
    if (L.starts_with("Did you mean '")) {
      StringRef Opt = L.drop_front(strlen("Did you mean '")).ltrim('-');
      if (Opt.size() < 2 || Opt[1] == '=' || Opt[1] == '\'')
        continue;
    }
    WithColor::error(errs(), "crace") << L << "\n";
  }
}
