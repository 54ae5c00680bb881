//===- NpyFuzzer.cpp - fuzz the .npy reader -------------------------------===//
//
// Any bytes either parse into an array whose size matches its shape or give
// an error; never a crash, an overflow or an out-of-bounds read.
//
//===----------------------------------------------------------------------===//

#include "fuse/Support/Npy.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  llvm::Expected<fuse::HostArray> array = fuse::parseNpy(bytes);
  if (!array) {
    llvm::consumeError(array.takeError());
    return 0;
  }
  // A parsed array holds exactly its shape's elements, all inside the input.
  int64_t elements = 1;
  for (int64_t dim : array->shape())
    elements *= dim;
  if (elements != array->numElements() || array->sizeInBytes() > size)
    abort();
  // Touch every element: ASan checks the storage.
  double sum = 0;
  for (int64_t i = 0; i < array->numElements(); ++i)
    sum += fuse::getAsDouble(*array, i);
  (void)sum;
  return 0;
}
