//===- DummyMain.cpp - run a fuzz target on files without libFuzzer -------===//
//
// Builds without -fsanitize=fuzzer get this main: it runs the target once on
// each file named on the command line, as a libFuzzer binary does when given
// files, so the corpora in test/Fuzz replay in every build.
//
//===----------------------------------------------------------------------===//

#include "llvm/FuzzMutate/FuzzerCLI.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  return llvm::runFuzzerOnInputs(argc, argv, LLVMFuzzerTestOneInput);
}
