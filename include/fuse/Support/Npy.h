//===- Npy.h - host arrays and the numpy .npy file format -------*- C++ -*-===//
//
// The runner's inputs and outputs: a dense, row-major array in host memory and
// its reader and writer for numpy's .npy format (versions 1.0, 2.0 and 3.0).
//
// Supported dtypes on reading are '<f2', '<f4', '<f8', '<i4', '<i8' and '|b1'
// ('=' may stand for '<'). numpy has no native bfloat16, so a BF16 array is
// written as '<f4', each value widened exactly to float32, and reads back as
// F32. A Fortran-order array is read into C order. Big-endian, structured and
// other dtypes are rejected with an error that says how to re-save the array.
//
// readNpy never trusts the file: every malformed input is an llvm::Error that
// names the file and what is wrong, never a crash.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_SUPPORT_NPY_H
#define FUSE_SUPPORT_NPY_H

#include "fuse/Support/DTypes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace llvm {
class raw_fd_ostream;
} // namespace llvm

namespace fuse {

/// A host array: shape, dtype and zero-initialized, 64-byte aligned storage in
/// row-major (C) order. Move-only. The storage is never null, even for an array
/// with no elements.
class HostArray {
public:
  static constexpr size_t kAlignment = 64;

  /// Every dimension must be non-negative and the byte size must fit in
  /// int64_t; readNpy checks both before it constructs an array.
  HostArray(DType dtype, std::vector<int64_t> shape);

  /// Like the constructor, but an error instead of an abort when the shape
  /// is invalid or the memory cannot be allocated.
  static llvm::Expected<HostArray> create(DType dtype,
                                          std::vector<int64_t> shape);
  HostArray(HostArray &&) = default;
  HostArray &operator=(HostArray &&) = default;
  HostArray(const HostArray &) = delete;
  HostArray &operator=(const HostArray &) = delete;

  DType dtype() const { return dtype_; }
  llvm::ArrayRef<int64_t> shape() const { return shape_; }
  int64_t numElements() const { return numElements_; }
  size_t sizeInBytes() const { return numElements_ * dtypeSize(dtype_); }

  /// An array over `storage` (row-major elements of a valid `shape`, not
  /// null), which it frees with `free`: a kernel's result handed over
  /// without a copy.
  static HostArray adopt(DType dtype, std::vector<int64_t> shape, void *storage,
                         void (*free)(void *));

  void *data() { return storage_.get(); }
  /// Gives up the storage, to be freed with freeFunction(); the array is
  /// left without data.
  void *release() { return storage_.release(); }
  void (*freeFunction() const)(void *) { return storage_.get_deleter().free; }
  const void *data() const { return storage_.get(); }

private:
  struct Adopt {};
  HostArray(Adopt, DType dtype, std::vector<int64_t> shape, int64_t count,
            void *storage, void (*free)(void *) = std::free);
  struct Free {
    Free(void (*free)(void *) = std::free) : free(free) {}
    void operator()(void *ptr) const { free(ptr); }
    void (*free)(void *);
  };

  DType dtype_;
  std::vector<int64_t> shape_;
  int64_t numElements_;
  std::unique_ptr<void, Free> storage_;
};

/// Reads an .npy file; a Fortran-order array is transposed into C order.
llvm::Expected<HostArray> readNpy(llvm::StringRef path);

/// The array in `bytes`, the contents of an .npy file; errors do not name a
/// file.
llvm::Expected<HostArray> parseNpy(llvm::StringRef bytes);

/// Writes `array` as an .npy file whose header is byte-for-byte what numpy
/// writes (version 1.0, or 2.0 when the header needs it; data 64-aligned).
/// BF16 is written as '<f4' (see above).
/// It goes to a new file beside `path` that replaces it once whole
/// (writeNpyStaged, then commitStaged): a failed or interrupted write left
/// a corrupt file in place of the one before; standard output (`-`), a
/// device, a pipe and a symbolic link are written in place.
llvm::Error writeNpy(llvm::StringRef path, const HostArray &array);

/// writeNpy's first step: the file that `array` was written to for `path`
/// (a new one beside it, or `path` itself), which commitStaged moves over
/// `path` or discardStaged removes. Several results are all written first,
/// then all moved: a failure leaves every output as it was.
llvm::Expected<std::string> writeNpyStaged(llvm::StringRef path,
                                           const HostArray &array);
llvm::Error commitStaged(llvm::StringRef staged, llvm::StringRef path);
/// A new, empty file beside `path` to write what is for `path` into first
/// (the name `path.tmp-XXXXXX`, removed if the process is killed before
/// commitStaged or discardStaged), or std::nullopt where `path` is written
/// in place: standard output (`-`), a device, a pipe, a symbolic link, or a
/// directory where no file can be made (read-only).
std::optional<std::string> stageBeside(llvm::StringRef path);
void discardStaged(llvm::StringRef staged, llvm::StringRef path);

/// Ends the writing of `path` through `os`: closes the file, or flushes it
/// when `path` is `-`, standard output, which stays open for what follows.
/// The error of a write that failed, cleared from `os`.
std::error_code finishOutput(llvm::raw_fd_ostream &os, llvm::StringRef path);

/// Element `index` (row-major) as a double: exact for every dtype but I64
/// beyond 2^53. Bool reads as 0 or 1.
double getAsDouble(const HostArray &array, int64_t index);

/// Stores `value` into element `index`, rounded to nearest, ties to even, for
/// F16/BF16/F32 (overflow gives infinity). Integers truncate toward zero,
/// saturate at their range, and take 0 for NaN. Bool stores value != 0.
void setFromDouble(HostArray &array, int64_t index, double value);

} // namespace fuse

#endif // FUSE_SUPPORT_NPY_H
