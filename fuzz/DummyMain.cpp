//===- DummyMain.cpp - run a fuzz target on files without libFuzzer -------===//
//
// Builds without -fsanitize=fuzzer get this main: it runs the target once on
// each file named on the command line, as a libFuzzer binary does when given
// files, so the regression corpora run in every build.
//
//===----------------------------------------------------------------------===//

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    // libFuzzer's flags (-runs=N, -max_len=N, ...) mean nothing here.
    if (arg.starts_with("-"))
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(arg, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer) {
      llvm::errs() << argv[0] << ": " << arg << ": "
                   << buffer.getError().message() << "\n";
      return 1;
    }
    llvm::StringRef bytes = (*buffer)->getBuffer();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()),
                           bytes.size());
    llvm::outs() << "ran " << arg << "\n";
  }
  return 0;
}
