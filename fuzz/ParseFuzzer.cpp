//===- ParseFuzzer.cpp - fuzz parsing and verifying programs --------------===//
//
// Any text either parses into a verified module or gives diagnostics; the
// parser and every verifier (the fuse dialect's above all) never crash.
//
//===----------------------------------------------------------------------===//

#include "FuzzerUtils.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext context(fuse::fuzz::registry(),
                            mlir::MLIRContext::Threading::DISABLED);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      fuse::fuzz::parse(context, data, size);
  if (!module)
    return 0;
  // A verified module prints and parses back to the same text, in the custom
  // and in the generic form.
  for (bool generic : {false, true}) {
    std::string text = fuse::fuzz::print(*module, generic);
    mlir::OwningOpRef<mlir::ModuleOp> again = fuse::fuzz::parse(
        context, reinterpret_cast<const uint8_t *>(text.data()), text.size());
    if (!again)
      fuse::fuzz::fail("a printed module does not parse back", text);
    if (fuse::fuzz::print(*again, generic) != text)
      fuse::fuzz::fail("a printed module parses back to a different one", text);
  }
  return 0;
}
