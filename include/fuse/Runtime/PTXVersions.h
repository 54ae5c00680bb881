//===- PTXVersions.h - the PTX ISA a CUDA driver compiles -------*- C++ -*-===//
//
// Header-only and plain C++: the runtime (which links no LLVM) and the fake
// driver of the tests both read it.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_RUNTIME_PTXVERSIONS_H
#define FUSE_RUNTIME_PTXVERSIONS_H

#include <algorithm>

namespace fuse::rt {

/// The newest PTX ISA version (10 * major + minor: 78 is 7.8) that a driver
/// of CUDA `version` (cuDriverGetVersion's 1000 * major + 10 * minor)
/// compiles, from the PTX ISA release notes: CUDA 9.0 takes 6.0, 10.2 6.5,
/// 11.8 7.8, 12.5 8.5 (12.6 too), 12.8 8.7, 12.9 8.8, 13.0 9.0.
inline int newestPtxIsa(int version) {
  int major = version / 1000, minor = version % 1000 / 10;
  if (major < 8)
    return 43;
  if (major == 8)
    return 50;
  if (major == 9)
    return 60 + std::min(minor, 2);
  if (major == 10)
    return 63 + std::min(minor, 2);
  if (major == 11)
    return 70 + std::min(minor, 8);
  if (major == 12)
    return minor <= 5 ? 80 + minor : minor <= 7 ? 85 : 80 + minor - 1;
  return 90 + minor;
}

} // namespace fuse::rt

#endif // FUSE_RUNTIME_PTXVERSIONS_H
