//===- DTypes.h - fuse's element types --------------------------*- C++ -*-===//
//
// fuse::DType and what each element type is called and occupies, all from
// DTypes.def. Header-only, with no dependency beyond LLVM's ADT: the
// .npy code, the runner and the program check use it alike.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_SUPPORT_DTYPES_H
#define FUSE_SUPPORT_DTYPES_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <optional>
#include <string>

namespace fuse {

/// fuse's element types, in the order of DTypes.def (the C API's codes).
enum class DType {
#define FUSE_DTYPE(ENUM, C, MLIR, NUMPY, BYTES, NPY) ENUM,
#include "fuse/Support/DTypes.def"
};

/// How many DTypes there are.
inline constexpr int kNumDTypes = 0
#define FUSE_DTYPE(ENUM, C, MLIR, NUMPY, BYTES, NPY) +1
#include "fuse/Support/DTypes.def"
    ;

namespace detail {
struct DTypeInfo {
  const char *spelling, *name;
  size_t size;
  const char *writtenDescr;
};
inline constexpr DTypeInfo kDTypeInfo[] = {
#define FUSE_DTYPE(ENUM, C, MLIR, NUMPY, BYTES, NPY) {MLIR, NUMPY, BYTES, NPY},
#include "fuse/Support/DTypes.def"
};
} // namespace detail

/// The MLIR spelling of a dtype's element type: "f16", "bf16", ..., "i1".
inline llvm::StringRef dtypeSpelling(DType dtype) {
  return detail::kDTypeInfo[static_cast<int>(dtype)].spelling;
}

/// The numpy name of a dtype: "float16", "bfloat16", "float32", ...
inline llvm::StringRef dtypeName(DType dtype) {
  return detail::kDTypeInfo[static_cast<int>(dtype)].name;
}

/// Bytes per element.
inline size_t dtypeSize(DType dtype) {
  return detail::kDTypeInfo[static_cast<int>(dtype)].size;
}

/// The .npy descr writeNpy writes for a dtype (bfloat16, which numpy lacks,
/// widened to float32: "<f4").
inline llvm::StringRef dtypeWrittenDescr(DType dtype) {
  return detail::kDTypeInfo[static_cast<int>(dtype)].writtenDescr;
}

/// The DType an MLIR element type spelling names, if any.
inline std::optional<DType> dtypeFromSpelling(llvm::StringRef spelling) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (spelling == detail::kDTypeInfo[i].spelling)
      return static_cast<DType>(i);
  return std::nullopt;
}

/// Every MLIR spelling, for messages: "f16, bf16, f32, f64, i32, i64 or i1".
inline std::string dtypeSpellings() {
  std::string text;
  for (int i = 0; i < kNumDTypes; ++i)
    text += std::string(i == 0                ? ""
                        : i + 1 == kNumDTypes ? " or "
                                              : ", ") +
            detail::kDTypeInfo[i].spelling;
  return text;
}

} // namespace fuse

#endif // FUSE_SUPPORT_DTYPES_H
