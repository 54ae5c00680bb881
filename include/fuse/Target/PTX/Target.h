//===- Target.h - The NVPTX back end's chips and PTX features ---*- C++ -*-===//
//
// What LLVM's NVPTX back end takes as a chip and PTX features, checked
// before it runs: its own checks are fatal errors that end the process.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_TARGET_PTX_TARGET_H
#define FUSE_TARGET_PTX_TARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace fuse {

/// The GPU architectures LLVM's NVPTX back end knows (sm_20, ..., sm_90a,
/// sm_100, ...), oldest first.
std::vector<std::string> nvptxChips();

/// The PTX version that fuse's kernels with reductions need: their warp
/// shuffles are shfl.sync, new in PTX ISA 6.0. Older versions are LLVM's
/// choice for sm_30 to sm_62, where it cannot select them (a fatal error).
inline constexpr unsigned kShufflePTXVersion = 60;

/// The oldest PTX ISA version (numbered as LLVM's ptxNN features: 78 is
/// 7.8) that LLVM's NVPTX back end emits for `chip`, if fuse knows it. An
/// older one is a fatal error in LLVM, which ends the process (a Python
/// interpreter too), and LLVM keeps the table to itself
/// (NVPTXSubtarget.cpp's getMinPTXVersionForSM): this is a copy, checked
/// against LLVM for every chip it knows by test/Pipelines/ptx-minimum.test.
std::optional<unsigned> minPTXVersion(llvm::StringRef chip);

/// Whether `chip` has warp shuffles (shfl.sync): every chip but Fermi's,
/// where the nvvm dialect refuses them with a located error.
bool hasWarpShuffles(llvm::StringRef chip);

/// Checks that LLVM's NVPTX back end takes `chip` and the PTX `features`
/// ("auto": fuse's choice, see ptxFeatures) for fuse's kernels: a known
/// chip, known features, a PTX version no older than the chip takes nor
/// than the kernels' warp shuffles need. The errors name the chip and the
/// features as `chipName` and `featuresName` (a flag, an option, a field of
/// #nvvm.target).
llvm::Error checkPTXTarget(llvm::StringRef chip, llvm::StringRef features,
                           llvm::StringRef chipName,
                           llvm::StringRef featuresName);

} // namespace fuse

#endif // FUSE_TARGET_PTX_TARGET_H
