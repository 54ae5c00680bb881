//===- Tool.cpp - what every fuse tool sets up first ----------------------===//

#include "fuse/Support/Tool.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

llvm::StringRef fuse::version() { return FUSE_VERSION; }

/// The name initTool was given.
static const char *toolName = "fuse";

llvm::raw_ostream &fuse::toolError() {
  return llvm::errs() << toolName << ": error: ";
}

void fuse::initTool(const char *name) {
  toolName = name;
  llvm::cl::SetVersionPrinter([name](llvm::raw_ostream &os) {
    os << name << " (fuse " << version() << ")\n  built with LLVM and MLIR "
       << LLVM_VERSION_STRING << "\n";
  });
  llvm::install_fatal_error_handler(
      [](void *, const char *reason, bool) {
        llvm::StringRef text(reason);
        // raw_fd_ostream's words when it is destroyed with a failed write.
        bool output = text.consume_front("IO failure on output stream: ");
        // LLVM exits with status 1 once the handler returns.
        toolError() << (output ? "cannot write the output: " : "") << text
                    << "\n";
      },
      nullptr);
}
