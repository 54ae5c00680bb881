//===- Target.cpp - The NVPTX back end's chips and PTX features -----------===//

#include "fuse/Target/PTX/Target.h"

#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <set>
#include <tuple>

using namespace mlir;

/// The triple the kernels are compiled for: nvvm-attach-target's default,
/// which the pipelines keep.
static llvm::Triple nvptxTriple() {
  return llvm::Triple(GpuNVVMAttachTargetOptions().triple);
}

/// LLVM's NVPTX target, registered on first use.
static const llvm::Target &nvptxTarget() {
  static const llvm::Target *target = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    std::string error;
    const llvm::Target *found =
        llvm::TargetRegistry::lookupTarget(nvptxTriple(), error);
    assert(found && "the NVPTX back end is linked in");
    return found;
  }();
  return *target;
}

/// The NVPTX back end's tables of processors and features.
static const llvm::MCSubtargetInfo &nvptxSubtargetInfo() {
  static const std::unique_ptr<llvm::MCSubtargetInfo> info(
      nvptxTarget().createMCSubtargetInfo(nvptxTriple(), "", ""));
  return *info;
}

/// Orders names by their letters, then the number that follows, then the
/// rest: ptx90 < sm_20 < sm_90 < sm_90a < sm_100.
static bool naturalLess(llvm::StringRef lhs, llvm::StringRef rhs) {
  auto key = [](llvm::StringRef name) {
    llvm::StringRef letters = name.take_until(llvm::isDigit);
    llvm::StringRef rest = name.drop_front(letters.size());
    llvm::StringRef digits = rest.take_while(llvm::isDigit);
    uint64_t number = 0;
    (void)digits.getAsInteger(10, number);
    return std::make_tuple(letters, number, rest.drop_front(digits.size()));
  };
  return key(lhs) < key(rhs);
}

template <typename Table>
static std::vector<std::string> sortedKeys(llvm::ArrayRef<Table> table) {
  std::vector<std::string> keys;
  for (const Table &entry : table)
    keys.push_back(entry.Key);
  llvm::sort(keys, naturalLess);
  return keys;
}

std::vector<std::string> fuse::nvptxChips() {
  return sortedKeys(nvptxSubtargetInfo().getAllProcessorDescriptions());
}

std::optional<unsigned> fuse::minPTXVersion(llvm::StringRef chip) {
  return llvm::StringSwitch<std::optional<unsigned>>(chip)
      .Cases({"sm_20", "sm_21", "sm_30", "sm_35"}, 32)
      .Cases({"sm_32", "sm_50"}, 40)
      .Cases({"sm_37", "sm_52"}, 41)
      .Case("sm_53", 42)
      .Cases({"sm_60", "sm_61", "sm_62"}, 50)
      .Case("sm_70", 60)
      .Case("sm_72", 61)
      .Case("sm_75", 63)
      .Case("sm_80", 70)
      .Case("sm_86", 71)
      .Case("sm_87", 74)
      .Cases({"sm_89", "sm_90"}, 78)
      .Case("sm_90a", 80)
      .Cases({"sm_100", "sm_100a", "sm_101", "sm_101a"}, 86)
      .Cases({"sm_120", "sm_120a"}, 87)
      .Cases({"sm_100f", "sm_101f", "sm_103", "sm_103f", "sm_103a", "sm_120f",
              "sm_121", "sm_121f", "sm_121a"},
             88)
      .Cases({"sm_88", "sm_110", "sm_110f", "sm_110a"}, 90)
      .Default(std::nullopt);
}

bool fuse::hasWarpShuffles(llvm::StringRef chip) {
  return chip != "sm_20" && chip != "sm_21";
}

/// The features of LLVM's NVPTX table that --ptx-features takes: all but
/// the chips (sm_90, ...), which are --chip's.
static std::vector<std::string>
ptxFeatureNames(const llvm::MCSubtargetInfo &info) {
  std::vector<std::string> names = sortedKeys(info.getAllProcessorFeatures());
  llvm::erase_if(names,
                 [](llvm::StringRef name) { return name.starts_with("sm_"); });
  return names;
}

llvm::Error fuse::checkPTXTarget(llvm::StringRef chip, llvm::StringRef features,
                                 llvm::StringRef chipName,
                                 llvm::StringRef featuresName) {
  auto error = [](const llvm::Twine &message) {
    return llvm::createStringError(message.str());
  };
  const llvm::MCSubtargetInfo &info = nvptxSubtargetInfo();
  if (!info.isCPUStringValid(chip))
    return error(chipName + "=" + chip +
                 " is not a GPU architecture that LLVM's NVPTX back end "
                 "knows; it knows " +
                 llvm::join(nvptxChips(), ", "));
  if (features == "auto")
    return llvm::Error::success();
  llvm::SmallVector<llvm::StringRef> listed;
  features.split(listed, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  // The PTX version the features ask for: the newest ptxNN left enabled.
  std::set<unsigned> ptxVersions;
  for (llvm::StringRef feature : listed) {
    std::string prefix =
        (featuresName + "=" + features + ": '" + feature + "'").str();
    if (!feature.starts_with("+") && !feature.starts_with("-"))
      return error(prefix + " needs a + (enable) or a - (disable) in front");
    llvm::StringRef name = feature.drop_front();
    // LLVM lists the chips among its features too; the chip is chipName's,
    // and one named here was ignored.
    if (name.starts_with("sm_"))
      return error(prefix + " names a GPU architecture, not a PTX feature: " +
                   chipName + " chooses the architecture");
    if (!llvm::any_of(info.getAllProcessorFeatures(),
                      [&](const llvm::SubtargetFeatureKV &known) {
                        return name == known.Key;
                      }))
      return error(prefix +
                   " is not a feature of LLVM's NVPTX back end, which knows " +
                   llvm::join(ptxFeatureNames(info), ", "));
    unsigned version;
    if (name.consume_front("ptx") && !name.getAsInteger(10, version)) {
      if (feature.starts_with("+"))
        ptxVersions.insert(version);
      else
        ptxVersions.erase(version);
    }
  }
  std::optional<unsigned> oldest = minPTXVersion(chip);
  auto version = [](unsigned ptx) {
    return std::to_string(ptx / 10) + "." + std::to_string(ptx % 10);
  };
  if (oldest && !ptxVersions.empty() && *ptxVersions.rbegin() < *oldest) {
    return error(featuresName + "=" + features + " asks for PTX " +
                 version(*ptxVersions.rbegin()) + ", older than " + chipName +
                 "=" + chip + " takes: LLVM emits PTX " + version(*oldest) +
                 " (+ptx" + llvm::Twine(*oldest) + ") or later for it");
  }
  // Without a ptxNN, LLVM's choice for the chip.
  std::optional<unsigned> asked =
      ptxVersions.empty() ? oldest : *ptxVersions.rbegin();
  if (asked && *asked < kShufflePTXVersion && hasWarpShuffles(chip))
    return error(featuresName + "=" + features +
                 (ptxVersions.empty() ? " leaves LLVM's choice for " +
                                            chipName + "=" + chip + ", PTX "
                                      : " asks for PTX ") +
                 version(*asked) +
                 ", older than fuse takes for a chip with warp shuffles, "
                 "whatever the program: its kernels with reductions use them "
                 "(shfl.sync), which need PTX " +
                 version(kShufflePTXVersion) + " (+ptx" +
                 llvm::Twine(kShufflePTXVersion) + ") or later");
  // For a chip that minPTXVersion does not know (a newer LLVM's), LLVM's
  // own check of the PTX version, a fatal usage error, runs when the target
  // machine is made: here, before anything runs, not in the middle.
  std::unique_ptr<llvm::TargetMachine>(nvptxTarget().createTargetMachine(
      nvptxTriple(), chip, features, llvm::TargetOptions(), std::nullopt));
  return llvm::Error::success();
}
