//===- fuse-translate.cpp - fuse translation driver -----------------------===//
//
// mlir-translate with fuse's translations (fuse/Target/Translations.h) and
// the pipelines' options as flags:
//   --fuse-to-ptx                 the PTX of the kernels
//   --fuse-report[-json|-dot|-html]  kernels and bytes, fused vs eager
// --split-input-file translates each part of the input on its own.
//
//===----------------------------------------------------------------------===//

#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Target/Translations.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  static llvm::cl::OptionCategory category("fuse options");
  fuse::PipelineFlags flags(category);
  fuse::registerTranslations(flags, "fuse-translate");
  return mlir::failed(
             mlir::mlirTranslateMain(argc, argv, "fuse translation driver\n"))
             ? 1
             : 0;
}
