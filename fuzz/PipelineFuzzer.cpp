//===- PipelineFuzzer.cpp - fuzz the whole compiler, text to PTX ----------===//
//
// Any text that parses goes through the report and the whole pipeline to PTX,
// fused and eager; each either succeeds or fails with diagnostics, never
// crashes. A program that compiles has as many PTX kernels as the report
// says.
//
//===----------------------------------------------------------------------===//

#include "FuzzerUtils.h"

#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Report/Graph.h"
#include "fuse/Report/Report.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>

static size_t countEntries(llvm::StringRef ptx) {
  size_t count = 0;
  for (size_t at = ptx.find(".entry "); at != llvm::StringRef::npos;
       at = ptx.find(".entry ", at + 1))
    ++count;
  return count;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext context(fuse::fuzz::registry(),
                            mlir::MLIRContext::Threading::DISABLED);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      fuse::fuzz::parse(context, data, size);
  if (!module)
    return 0;
  fuse::PipelineOptions options;
  llvm::FailureOr<std::vector<fuse::FunctionReport>> report =
      fuse::buildReport(*module, options);
  // The graphs of --fuse-report=dot draw whatever the report counts.
  if (mlir::succeeded(report))
    for (bool fused : {true, false})
      fuse::printReportGraph(*module, *report, fused, llvm::nulls());
  for (bool fusion : {true, false}) {
    options.fusion = fusion;
    mlir::OwningOpRef<mlir::ModuleOp> copy = module->clone();
    llvm::FailureOr<std::string> ptx = fuse::compilePTX(*copy, options);
    if (mlir::failed(ptx) || mlir::failed(report))
      continue;
    size_t kernels = 0;
    for (const fuse::FunctionReport &function : *report)
      kernels += fusion ? function.fused.kernels.size()
                        : function.eager.kernels.size();
    if (countEntries(*ptx) != kernels)
      fuse::fuzz::fail("the PTX's kernel count differs from the report's",
                       fuse::fuzz::print(*module));
  }
  return 0;
}
