//===- fuse-lsp-server.cpp - MLIR language server with fuse --------------===//
//
// MLIR's language server with the fuse dialect registered, so that editors
// with the MLIR extension show fuse diagnostics, hovers and definitions.
//
//===----------------------------------------------------------------------===//

#include "fuse/InitAllDialects.h"
#include "fuse/Support/Tool.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  fuse::initTool("fuse-lsp-server");
  mlir::DialectRegistry registry;
  fuse::registerAllDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
}
