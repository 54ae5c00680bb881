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
#include "llvm/Support/thread.h"

int main(int argc, char **argv) {
  fuse::initTool("fuse-lsp-server");
  // --help lists the language server's own options.
  fuse::hideLibraryOptions();
  mlir::DialectRegistry registry;
  fuse::registerAllDialects(registry);
  // The server parses what the editor sends as it is typed, with no check
  // of its nesting first (fuse::checkNesting): MLIR's parser recurses at
  // each level of brackets, and 8000 levels of `[` overflowed the main
  // thread's 8 MB stack, which stopped the server. It runs on a thread with
  // a stack of 1 GiB (address space, used as it is touched): about a
  // million levels.
  bool failed = true;
  llvm::thread server(std::optional<unsigned>(1u << 30), [&] {
    failed = mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
  });
  server.join();
  return failed;
}
