//===- InitAll.cpp - one registration point for dialects and passes ------===//

#include "fuse/InitAllDialects.h"
#include "fuse/InitAllPasses.h"

#include "fuse/Conversion/Passes.h"
#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Pipelines/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

void fuse::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<fuse::FuseDialect>();
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // fuse-gpu-module-to-ptx translates kernels to LLVM IR before PTX.
  mlir::registerAllToLLVMIRTranslations(registry);
}

void fuse::registerAllPasses() {
  mlir::registerAllPasses();
  fuse::registerFuseConversionPasses();
  fuse::registerFusePasses();
  fuse::registerPipelines();
}
