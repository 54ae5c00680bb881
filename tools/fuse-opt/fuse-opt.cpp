//===- fuse-opt.cpp - fuse optimizer driver ------------------------------===//
//
// mlir-opt with the fuse dialect, passes and pipelines registered, plus:
//   --fuse-pipeline=<stage> [--fusion=off]   lower to a stage and print it
//   --emit=ptx                               print the PTX text
//   --fuse-report[=json]                     kernels and bytes, fused vs eager
//   --fuse-report=dot|html                   the same as a picture or a page
//
//===----------------------------------------------------------------------===//

#include "fuse/InitAllDialects.h"
#include "fuse/InitAllPasses.h"
#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Report/Graph.h"
#include "fuse/Report/Report.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory fuseCategory("fuse options");

static cl::opt<std::string>
    stageFlag("fuse-pipeline",
              cl::desc("Lower fuse programs to a stage and print it: linalg, "
                       "fused, gpu, nvvm, ptx, cpu or cuda"),
              cl::value_desc("stage"), cl::cat(fuseCategory));

static cl::opt<std::string>
    emitFlag("emit", cl::desc("Print generated code instead of IR: ptx"),
             cl::value_desc("ptx"), cl::cat(fuseCategory));

static cl::opt<std::string> reportFlag(
    "fuse-report", cl::ValueOptional,
    cl::desc("Print each function's kernels, fused ops and bytes moved, "
             "fused vs eager (=json for JSON, =dot for a Graphviz graph of "
             "the fused kernels or with --fusion=off the eager ones, =html "
             "for a page with both pictures, the report and the remarks)"),
    cl::value_desc("text|json|dot|html"), cl::cat(fuseCategory));

/// Closes `output` and keeps it, or says why it could not be written (a
/// full disk, say) instead of LLVM's fatal "IO failure on output stream".
static LogicalResult keepOutput(llvm::ToolOutputFile &output,
                                llvm::StringRef path) {
  output.os().close();
  if (std::error_code ec = output.os().error()) {
    output.os().clear_error();
    llvm::errs() << "fuse-opt: cannot write '" << path << "': " << ec.message()
                 << "\n";
    return failure();
  }
  output.keep();
  return success();
}

/// Compiles one module (the file, or one part of it with
/// --split-input-file) and prints its report or its PTX.
static LogicalResult emitModule(std::unique_ptr<llvm::MemoryBuffer> buffer,
                                DialectRegistry &registry,
                                const fuse::PipelineOptions &options,
                                llvm::StringRef inputFile,
                                llvm::raw_ostream &os) {
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return failure();
  if (reportFlag.getNumOccurrences()) {
    FailureOr<std::vector<fuse::FunctionReport>> report =
        fuse::buildReport(*module, options);
    if (failed(report))
      return failure();
    if (reportFlag == "json")
      os << llvm::formatv("{0:2}", fuse::reportToJSON(*report)) << "\n";
    else if (reportFlag == "dot")
      fuse::printReportGraph(*module, *report, options.fusion, os);
    else if (reportFlag == "html")
      fuse::printReportPage(*module, *report,
                            inputFile == "-" ? "standard input" : inputFile,
                            os);
    else
      fuse::printReport(*report, os);
    return success();
  }
  // Where to say that the program has no kernel, if so: at its first
  // function (read now: the pipeline lowers it to an llvm.func).
  auto functions = module->getOps<func::FuncOp>();
  Location programLoc =
      functions.empty() ? module->getLoc() : (*functions.begin()).getLoc();
  bool hasFunctions = !functions.empty();
  PassManager pm(&context);
  fuse::buildPipeline(pm, fuse::Stage::PTX, options);
  if (failed(pm.run(*module)))
    return failure();
  std::string ptx = fuse::collectPTX(*module);
  // Returning an argument or a constant needs no kernel; say why the output
  // is empty rather than leave it silent.
  if (ptx.empty())
    emitRemark(programLoc, "no kernel, so no PTX: ")
        << (hasFunctions ? "no function computes anything on the GPU "
                           "(returning an argument or a constant needs no "
                           "kernel)"
                         : "the program has no function");
  os << ptx;
  return success();
}

/// --emit and --fuse-report print something other than IR.
static LogicalResult runOutputMode(llvm::StringRef inputFile,
                                   llvm::StringRef outputFile,
                                   DialectRegistry &registry,
                                   const fuse::PipelineOptions &options,
                                   const MlirOptMainConfig &config) {
  if (reportFlag.getNumOccurrences() && reportFlag != "" &&
      reportFlag != "text" && reportFlag != "json" && reportFlag != "dot" &&
      reportFlag != "html") {
    llvm::errs() << "fuse-opt: --fuse-report takes text, json, dot or html, "
                    "not '"
                 << reportFlag << "'\n";
    return failure();
  }
  if (emitFlag.getNumOccurrences() && emitFlag != "ptx") {
    llvm::errs() << "fuse-opt: --emit takes ptx, not '" << emitFlag << "'\n";
    return failure();
  }
  std::string error;
  auto input = openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "fuse-opt: " << error << "\n";
    return failure();
  }
  auto output = openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "fuse-opt: " << error << "\n";
    return failure();
  }
  auto emit = [&](std::unique_ptr<llvm::MemoryBuffer> buffer,
                  llvm::raw_ostream &os) {
    return emitModule(std::move(buffer), registry, options, inputFile, os);
  };
  if (failed(splitAndProcessBuffer(std::move(input), emit, output->os(),
                                   config.inputSplitMarker(),
                                   config.outputSplitMarker())))
    return failure();
  return keepOutput(*output, outputFile);
}

int main(int argc, char **argv) {
  fuse::registerAllPasses();
  fuse::PipelineFlags flags(fuseCategory);
  DialectRegistry registry;
  fuse::registerAllDialects(registry);
  auto [inputFile, outputFile] = registerAndParseCLIOptions(
      argc, argv, "fuse optimizer driver\n", registry);

  if (reportFlag.getNumOccurrences() && emitFlag.getNumOccurrences()) {
    llvm::errs() << "fuse-opt: --fuse-report and --emit are exclusive\n";
    return 1;
  }
  if ((reportFlag.getNumOccurrences() || emitFlag.getNumOccurrences()) &&
      stageFlag.getNumOccurrences()) {
    llvm::errs() << "fuse-opt: --fuse-report and --emit compile the whole "
                    "program themselves; drop --fuse-pipeline\n";
    return 1;
  }
  // The graph draws one variant: --fusion picks it.
  if (reportFlag.getNumOccurrences() &&
      ((flags.given(fuse::PipelineOption::fusion) && reportFlag != "dot") ||
       flags.given(fuse::PipelineOption::remarks))) {
    llvm::errs() << "fuse-opt: --fuse-report shows fused and eager side by "
                    "side; --fuse-remarks does not apply to it, and --fusion "
                    "only to --fuse-report=dot, which draws one of the two\n";
    return 1;
  }
  bool compiles = stageFlag.getNumOccurrences() ||
                  reportFlag.getNumOccurrences() ||
                  emitFlag.getNumOccurrences();
  if (compiles) {
    if (llvm::Error error = fuse::checkPipelineOptions(flags.options())) {
      llvm::errs() << "fuse-opt: " << llvm::toString(std::move(error)) << "\n";
      return 1;
    }
  }
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (reportFlag.getNumOccurrences() || emitFlag.getNumOccurrences())
    return asMainReturnCode(runOutputMode(inputFile, outputFile, registry,
                                          flags.options(), config));

  if (stageFlag.getNumOccurrences()) {
    std::optional<fuse::Stage> stage = fuse::parseStage(stageFlag);
    if (!stage) {
      llvm::errs() << "fuse-opt: unknown stage '" << stageFlag
                   << "' for --fuse-pipeline; expected one of "
                   << fuse::stageNames() << "\n";
      return 1;
    }
    MlirOptMainConfig base = config;
    fuse::PipelineOptions options = flags.options();
    // The stage comes first; passes named on the command line run after it.
    config.setPassPipelineSetupFn([base, stage, options](PassManager &pm) {
      fuse::buildPipeline(pm, *stage, options);
      return base.setupPassPipeline(pm);
    });
  } else if (!flags.givenFlags().empty()) {
    std::vector<llvm::StringRef> all = fuse::PipelineFlags::allFlags();
    llvm::errs() << "fuse-opt: "
                 << llvm::join(llvm::ArrayRef(all).drop_back(), ", ") << " and "
                 << all.back()
                 << " apply to --fuse-pipeline, --fuse-report or --emit\n";
    return 1;
  }

  std::string error;
  auto input = openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "fuse-opt: " << error << "\n";
    return 1;
  }
  auto output = openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "fuse-opt: " << error << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  return asMainReturnCode(keepOutput(*output, outputFile));
}
