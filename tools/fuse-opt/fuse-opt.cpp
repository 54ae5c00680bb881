//===- fuse-opt.cpp - fuse optimizer driver ------------------------------===//
//
// mlir-opt with the fuse dialect, passes and pipelines registered.
//
//===----------------------------------------------------------------------===//

#include "fuse/InitAllDialects.h"
#include "fuse/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  fuse::registerAllPasses();
  mlir::DialectRegistry registry;
  fuse::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "fuse optimizer driver\n", registry));
}
