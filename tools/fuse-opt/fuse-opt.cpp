//===- fuse-opt.cpp - fuse optimizer driver ------------------------------===//
//
// mlir-opt with the fuse dialect, passes and pipelines registered, the
// pipelines' options as flags (fuse::PipelineFlags), plus:
//   --fuse-pipeline=<stage> [--fusion=off]   lower to a stage and print it
//   --emit=ptx                               print the PTX text
//   --fuse-report[=json|dot|html]            kernels and bytes, fused vs eager
// The last two are fuse-translate's --fuse-to-ptx and --fuse-report[-FORM].
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/Location.h"
#include "fuse/InitAllDialects.h"
#include "fuse/InitAllPasses.h"
#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Support/Tool.h"
#include "fuse/Target/Translations.h"

#include "mlir/IR/BuiltinOps.h"
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

/// Its description, which names the stages, is set in main().
static cl::opt<std::string> stageFlag("fuse-pipeline", cl::value_desc("stage"),
                                      cl::cat(fuseCategory));

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

/// Whether MLIR's --pass-pipeline was given (it replaces the pass manager's
/// pipeline, so that a stage built before it would be dropped).
static bool passPipelineGiven() { return fuse::optionGiven("pass-pipeline"); }

/// Whether the command line names passes to run (as flags or with
/// --pass-pipeline): `config` adds them to a pass manager.
static bool passesNamed(const MlirOptMainConfig &config) {
  if (passPipelineGiven())
    return true;
  MLIRContext context;
  PassManager pm(&context);
  return succeeded(config.setupPassPipeline(pm)) && pm.size() != 0;
}

/// Closes `output` and keeps it, or says why it could not be written (a
/// full disk, say) instead of LLVM's fatal "IO failure on output stream".
static LogicalResult keepOutput(llvm::ToolOutputFile &output,
                                llvm::StringRef path) {
  output.os().close();
  if (std::error_code ec = output.os().error()) {
    output.os().clear_error();
    fuse::toolError() << "cannot write '" << path << "': " << ec.message()
                      << "\n";
    return failure();
  }
  output.keep();
  return success();
}

/// --emit and --fuse-report: each module of the file (or each part with
/// --split-input-file) printed as `translation`, as fuse-translate does.
static LogicalResult runTranslation(fuse::Translation translation,
                                    llvm::StringRef inputFile,
                                    llvm::StringRef outputFile,
                                    DialectRegistry &registry,
                                    const fuse::PipelineOptions &options,
                                    const MlirOptMainConfig &config) {
  std::string error;
  auto input = openInputFile(inputFile, &error);
  if (!input) {
    fuse::toolError() << error << "\n";
    return failure();
  }
  auto output = openOutputFile(outputFile, &error);
  if (!output) {
    fuse::toolError() << error << "\n";
    return failure();
  }
  size_t searchFrom = 0;
  auto translate = [&](std::unique_ptr<llvm::MemoryBuffer> buffer,
                       const llvm::MemoryBufferRef &source,
                       llvm::raw_ostream &os) -> LogicalResult {
    MLIRContext context(registry);
    context.printOpOnDiagnostic(false);
    context.allowUnregisteredDialects(config.shouldAllowUnregisteredDialects());
    // A part of --split-input-file is the file's text after as many empty
    // lines as come before it, named as the file: its locations are the
    // file's lines, as fuse-opt's passes give them (they were "within split
    // at FILE:5 offset :3:8"). The parts come in order.
    llvm::StringRef whole = source.getBuffer(), part = buffer->getBuffer();
    if (size_t at = whole.find(part, searchFrom);
        part.size() < whole.size() && at != llvm::StringRef::npos) {
      searchFrom = at + part.size();
      std::string lined(whole.take_front(at).count('\n'), '\n');
      lined += part;
      buffer = llvm::MemoryBuffer::getMemBufferCopy(
          lined, source.getBufferIdentifier());
    }
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
    // --verify-diagnostics, as for passes: the expected-* comments are
    // checked, and the diagnostics they expect are not errors.
    // Otherwise errors as fuse-run prints them, and remarks as MLIR does.
    std::optional<SourceMgrDiagnosticVerifierHandler> verifier;
    std::optional<SourceMgrDiagnosticHandler> remarks;
    std::optional<fuse::SourceLineCapture> handler;
    if (config.shouldVerifyDiagnostics()) {
      verifier.emplace(sourceMgr, &context);
    } else {
      remarks.emplace(sourceMgr, &context);
      handler.emplace(sourceMgr, &context, llvm::errs());
    }
    OwningOpRef<ModuleOp> module;
    if (succeeded(fuse::checkNesting(sourceMgr, &context)))
      module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    LogicalResult translated =
        module ? fuse::translate(*module, translation, options, os) : failure();
    return verifier ? verifier->verify() : translated;
  };
  if (failed(splitAndProcessBuffer(std::move(input), translate, output->os(),
                                   config.inputSplitMarker(),
                                   config.outputSplitMarker())))
    return failure();
  return keepOutput(*output, outputFile);
}

int main(int argc, char **argv) {
  fuse::initTool("fuse-opt", argc, argv);
  fuse::registerAllPasses();
  fuse::PipelineFlags flags(fuseCategory);
  static const std::string stageHelp =
      ("Lower fuse programs to a stage and print it: " + fuse::stageNames())
          .str();
  stageFlag.setDescription(stageHelp);
  // --help lists fuse's flags and then mlir-opt's own options and passes.
  fuse::hideLibraryOptions(&fuseCategory);
  DialectRegistry registry;
  fuse::registerAllDialects(registry);
  auto [inputFile, outputFile] = registerAndParseCLIOptions(
      argc, argv, "fuse optimizer driver\n", registry);
  // Every pass and pipeline flag is one option of mlir-opt's: fuse-lower's
  // is found by its spelling.
  bool lowerGiven =
      llvm::any_of(llvm::ArrayRef(argv + 1, argc - 1), [](const char *arg) {
        llvm::StringRef name = llvm::StringRef(arg).ltrim('-');
        return name == "fuse-lower" || name.starts_with("fuse-lower=");
      });
  if (std::optional<std::string> repeated = fuse::optionUseError()) {
    fuse::toolError() << *repeated << "\n";
    return 1;
  }

  if (reportFlag.getNumOccurrences() && emitFlag.getNumOccurrences()) {
    fuse::toolError() << "--fuse-report and --emit are exclusive\n";
    return 1;
  }
  // The one of them given, as errors name it.
  llvm::StringRef translationFlag =
      reportFlag.getNumOccurrences() ? "--fuse-report" : "--emit";
  if ((reportFlag.getNumOccurrences() || emitFlag.getNumOccurrences()) &&
      stageFlag.getNumOccurrences()) {
    fuse::toolError() << translationFlag
                      << " compiles the whole program itself; drop "
                         "--fuse-pipeline\n";
    return 1;
  }
  // --emit=ptx and --fuse-report=FORM are fuse-translate's translations.
  std::optional<fuse::Translation> translation;
  if (reportFlag.getNumOccurrences()) {
    translation = fuse::parseReportForm(reportFlag);
    if (!translation) {
      fuse::toolError() << "--fuse-report takes " << fuse::reportForms()
                        << ", not '" << reportFlag << "'\n";
      return 1;
    }
  } else if (emitFlag.getNumOccurrences()) {
    if (emitFlag != "ptx") {
      fuse::toolError() << "--emit takes ptx, not '" << emitFlag << "'\n";
      return 1;
    }
    translation = fuse::Translation::PTX;
  }
  if (llvm::Error error = translation
                              ? fuse::checkTranslationFlags(*translation, flags)
                          : stageFlag.getNumOccurrences()
                              ? fuse::checkPipelineOptions(flags.options())
                              : llvm::Error::success()) {
    fuse::toolError() << llvm::toString(std::move(error)) << "\n";
    return 1;
  }
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (translation) {
    // Before passesNamed, whose pass manager --dump-pass-pipeline would
    // print (an empty one) before the error.
    if (std::optional<llvm::StringRef> flag = fuse::irFlagGiven()) {
      fuse::toolError() << "--" << *flag
                        << " is a flag of mlir-opt's pass manager or IR "
                           "printer, and "
                        << translationFlag
                        << " compiles with its own pass manager and prints "
                           "no IR, so "
                           "it would do nothing (even given its default "
                           "value): use it with --fuse-pipeline=STAGE\n";
      return 1;
    }
    if (lowerGiven || passesNamed(config)) {
      fuse::toolError() << translationFlag
                        << " runs its own pipeline; the passes named on the "
                           "command line would not "
                           "run: name them with --fuse-pipeline=STAGE (they "
                           "run after it) or alone\n";
      return 1;
    }
    return asMainReturnCode(runTranslation(*translation, inputFile, outputFile,
                                           registry, flags.options(), config));
  }

  if (stageFlag.getNumOccurrences()) {
    std::optional<fuse::Stage> stage = fuse::parseStage(stageFlag);
    if (!stage) {
      fuse::toolError() << "unknown stage '" << stageFlag
                        << "' for --fuse-pipeline; expected one of "
                        << fuse::stageNames() << "\n";
      return 1;
    }
    if (llvm::Error error = fuse::checkStageUses(
            *stage, flags.changedOptions(), "--fuse-pipeline=" + stageFlag)) {
      fuse::toolError() << llvm::toString(std::move(error)) << "\n";
      return 1;
    }
    if (lowerGiven) {
      fuse::toolError() << "--fuse-lower lowers the program as "
                           "--fuse-pipeline does, and would lower its output "
                           "again: give one of them\n";
      return 1;
    }
    if (passPipelineGiven()) {
      fuse::toolError() << "--pass-pipeline replaces the whole pipeline, "
                           "--fuse-pipeline's stage too; name the passes to "
                           "run after the stage as flags (--fuse-pipeline="
                        << stageFlag << " --cse)\n";
      return 1;
    }
    MlirOptMainConfig base = config;
    fuse::PipelineOptions options = flags.options();
    // The stage comes first; passes named on the command line run after it.
    config.setPassPipelineSetupFn([base, stage, options](PassManager &pm) {
      fuse::buildPipeline(pm, *stage, options);
      return base.setupPassPipeline(pm);
    });
  } else if (std::vector<llvm::StringRef> given = flags.givenFlags();
             !given.empty()) {
    fuse::toolError() << fuse::joinInProse(given)
                      << (given.size() == 1 ? " shapes" : " shape")
                      << " what --fuse-pipeline=STAGE, --fuse-report or --emit "
                         "compiles (each refuses the flags it does not use), "
                         "and none of them is given\n";
    return 1;
  }

  std::string error;
  auto input = openInputFile(inputFile, &error);
  if (!input) {
    fuse::toolError() << error << "\n";
    return 1;
  }
  auto output = openOutputFile(outputFile, &error);
  if (!output) {
    fuse::toolError() << error << "\n";
    return 1;
  }
  // An error of the pipeline's text (an unknown pass, a bad option) has no
  // place in the program: the tool's own, not `<unknown>:0: error:`.
  // A diagnostic at a name alone is `"fn": error: ...`, as fuse-run prints
  // it (MLIR's handler prints `<unknown>:0: error: loc("fn"): ...`).
  MlirOptMainConfig withPipeline = config;
  config.setPassPipelineSetupFn([withPipeline](PassManager &pm) {
    if (!withPipeline.shouldVerifyDiagnostics())
      fuse::printUnplacedDiagnostics(pm.getContext(), llvm::errs());
    ScopedDiagnosticHandler toolErrors(pm.getContext(), [](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error ||
          !isa<UnknownLoc>(diag.getLocation()))
        return failure();
      if (std::string text = diag.str(); !text.empty())
        fuse::toolError() << text << "\n";
      return success();
    });
    return withPipeline.setupPassPipeline(pm);
  });
  // The text's nesting, checked before MLIR's parser sees it (with the
  // diagnostics' source line, and --verify-diagnostics as MlirOptMain's).
  {
    MLIRContext context;
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(input->getMemBufferRef(), false),
        llvm::SMLoc());
    fuse::SourceLineCapture handler(sourceMgr, &context, llvm::errs());
    if (failed(fuse::checkNesting(sourceMgr, &context)))
      return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  return asMainReturnCode(keepOutput(*output, outputFile));
}
