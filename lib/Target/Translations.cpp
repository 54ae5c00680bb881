//===- Translations.cpp - what the tools print of a program ---------------===//

#include "fuse/Target/Translations.h"
#include "fuse/Dialect/Fuse/Utils/Location.h"

#include "fuse/InitAllDialects.h"
#include "fuse/Report/Graph.h"
#include "fuse/Report/Report.h"
#include "fuse/Support/Tool.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;

std::optional<fuse::Translation> fuse::parseReportForm(llvm::StringRef form) {
  return llvm::StringSwitch<std::optional<Translation>>(form)
      .Cases({"", "text"}, Translation::Report)
      .Case("json", Translation::ReportJSON)
      .Case("dot", Translation::ReportDot)
      .Case("html", Translation::ReportHTML)
      .Default(std::nullopt);
}

llvm::StringRef fuse::reportForms() { return "text, json, dot or html"; }

llvm::Error fuse::checkTranslationFlags(Translation translation,
                                        const PipelineFlags &flags) {
  if (translation != Translation::PTX) {
    if (flags.options().remarks)
      return llvm::createStringError(
          "--fuse-report shows fused and eager side by side, and "
          "--fuse-remarks does not apply to it (the html form "
          "(--fuse-report=html; fuse-translate: --fuse-report-html) has the "
          "remarks of both)");
    if (!flags.options().fusion && translation != Translation::ReportDot)
      return llvm::createStringError(
          "--fuse-report shows fused and eager side by side; --fusion "
          "applies only to its dot form (--fuse-report=dot; fuse-translate: "
          "--fuse-report-dot), which draws one of the two");
    // --split-input-file prints each part's output after the one before:
    // text reports one after the other, but a JSON value, a graph or a
    // page each is one document.
    if (translation != Translation::Report && optionGiven("split-input-file"))
      return llvm::createStringError(
          "--split-input-file prints a report per part, one after the "
          "other, and a json, dot or html report is one document: report "
          "each part on its own, or use the text form");
    // The report is of the fused stage, and the GPU's scheme for each
    // kernel with reductions depends on the block size too.
    std::vector<PipelineOption> changed = flags.changedOptions();
    llvm::erase(changed, PipelineOption::blockSize);
    if (llvm::Error error = checkStageUses(Stage::Fused, changed, "the report"))
      return error;
  }
  return checkPipelineOptions(flags.options());
}

/// Where to say something of the whole program: its module, or for a
/// module that the parser made around the file's ops (at line 0, which no
/// editor shows) the start of the file.
static Location programStart(ModuleOp module) {
  auto file = dyn_cast<FileLineColLoc>(module.getLoc());
  if (file && file.getLine() == 0)
    return FileLineColLoc::get(file.getFilename(), 1, 1);
  return module.getLoc();
}

/// The kernels' PTX, or a remark that says why there is none.
static LogicalResult printPTX(ModuleOp module,
                              const fuse::PipelineOptions &options,
                              llvm::raw_ostream &os) {
  // Where to say that the program has no kernel, if so: at its first
  // function (read now: the pipeline lowers it to an llvm.func).
  auto functions = module.getOps<func::FuncOp>();
  Location programLoc =
      functions.empty() ? programStart(module) : (*functions.begin()).getLoc();
  bool hasFunctions = !functions.empty();
  FailureOr<std::string> ptx = fuse::compilePTX(module, options);
  if (failed(ptx))
    return failure();
  // Returning an argument or a constant needs no kernel; say why the output
  // is empty rather than leave it silent.
  if (ptx->empty())
    emitRemark(programLoc, fuse::noPTXReason(hasFunctions));
  os << *ptx;
  return success();
}

/// The program's name in the HTML page: its file, as its location says.
/// With --split-input-file, MLIR names each part's buffer "within split at
/// FILE:LINE offset ": the page names FILE.
static std::string programTitle(ModuleOp module) {
  auto file = dyn_cast<FileLineColLoc>(module.getLoc());
  if (!file)
    return "standard input";
  llvm::StringRef name = file.getFilename();
  if (name.consume_front("within split at "))
    name = name.rsplit(':').first;
  if (name == "-" || name == "<stdin>")
    return "standard input";
  return name.str();
}

LogicalResult fuse::translate(ModuleOp module, Translation translation,
                              const PipelineOptions &options,
                              llvm::raw_ostream &os) {
  if (translation == Translation::PTX)
    return printPTX(module, options, os);
  FailureOr<std::vector<FunctionReport>> report = buildReport(module, options);
  if (failed(report))
    return failure();
  // An empty report says why rather than leave the output silent.
  if (report->empty())
    emitRemark(programStart(module),
               "the program has no function, so the report has none");
  switch (translation) {
  case Translation::Report:
    printReport(*report, os);
    break;
  case Translation::ReportJSON:
    os << llvm::formatv("{0:2}", reportToJSON(*report)) << "\n";
    break;
  case Translation::ReportDot:
    printReportGraph(module, *report, options.fusion, os);
    break;
  case Translation::ReportHTML:
    printReportPage(module, *report, programTitle(module), os);
    break;
  case Translation::PTX:
    llvm_unreachable("printed above");
  }
  return success();
}

namespace {
struct TranslationEntry {
  llvm::StringRef name, description;
  fuse::Translation translation;
};
} // namespace

/// fuse-translate's translations: their flags' names and what they print.
static const TranslationEntry translationEntries[] = {
    {"fuse-to-ptx", "The PTX of a fuse program's kernels",
     fuse::Translation::PTX},
    {"fuse-report",
     "Each function's kernels, fused ops and bytes moved, "
     "fused vs eager",
     fuse::Translation::Report},
    {"fuse-report-json", "The report as JSON", fuse::Translation::ReportJSON},
    {"fuse-report-dot",
     "A Graphviz graph of the fused kernels (--fusion=off: the eager ones)",
     fuse::Translation::ReportDot},
    {"fuse-report-html",
     "A page with both pictures, the report and the remarks",
     fuse::Translation::ReportHTML},
};

std::vector<llvm::StringRef> fuse::translationNames() {
  std::vector<llvm::StringRef> names;
  for (const TranslationEntry &entry : translationEntries)
    names.push_back(entry.name);
  return names;
}

/// Whether checkTranslationFlags refused the options a translation ran with.
static bool flagsRefused = false;

bool fuse::translationFlagsRefused() { return flagsRefused; }

/// The text of `sourceMgr` to parse, with the file's line numbers: a part
/// of --split-input-file (upstream's driver names it "within split at
/// FILE:LINE offset ", and its locations were `within split at FILE:6
/// offset :4:8`) after as many empty lines as come before it in the file,
/// named as the file, as fuse-opt gives its parts. The diagnostics' handler
/// finds its lines by that name in `sourceMgr`, which holds it too; the
/// result owns it. Not with --verify-diagnostics, whose handler reads the
/// expected diagnostics of the part as upstream names it.
static std::shared_ptr<llvm::SourceMgr>
fileLines(const std::shared_ptr<llvm::SourceMgr> &sourceMgr) {
  auto verify = llvm::cl::getRegisteredOptions().find("verify-diagnostics");
  if (verify != llvm::cl::getRegisteredOptions().end() &&
      verify->second->getNumOccurrences())
    return sourceMgr;
  const llvm::MemoryBuffer *part =
      sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
  llvm::StringRef name = part->getBufferIdentifier();
  unsigned line = 0;
  if (!name.consume_front("within split at ") || !name.consume_back(" offset "))
    return sourceMgr;
  auto [file, lineText] = name.rsplit(':');
  if (lineText.getAsInteger(10, line) || line == 0)
    return sourceMgr;
  std::string lined(line - 1, '\n');
  lined += part->getBuffer();
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(lined, file);
  sourceMgr->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(buffer->getMemBufferRef(), false),
      llvm::SMLoc());
  auto source = std::make_shared<llvm::SourceMgr>();
  source->AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  return source;
}

void fuse::registerTranslations(const PipelineFlags &flags,
                                llvm::StringRef tool) {
  for (const TranslationEntry &entry : translationEntries) {
    Translation translation = entry.translation;
    // The program is parsed here, as upstream's TranslateFromMLIRRegistration
    // parses it, once its nesting is checked (checkNesting: a deeper text
    // overflowed the parser's stack).
    TranslateRegistration(
        entry.name, entry.description,
        [&flags, tool, translation](
            const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
            llvm::raw_ostream &os, MLIRContext *context) -> LogicalResult {
          DialectRegistry registry;
          registerAllDialects(registry);
          context->appendDialectRegistry(registry);
          // Errors point at the source, as fuse-opt's do, without a dump
          // of the operation.
          context->printOpOnDiagnostic(false);
          std::shared_ptr<llvm::SourceMgr> source = fileLines(sourceMgr);
          // Errors as fuse-opt and fuse-run print them (`"fn": error:` at a
          // name, no echo of a huge line); remarks, and everything under
          // --verify-diagnostics, go on to mlir-translate's handler.
          std::optional<SourceLineCapture> lines;
          auto verify =
              llvm::cl::getRegisteredOptions().find("verify-diagnostics");
          if (verify == llvm::cl::getRegisteredOptions().end() ||
              !verify->second->getNumOccurrences())
            lines.emplace(*source, context, llvm::errs());
          if (failed(checkNesting(*source, context)))
            return failure();
          OwningOpRef<ModuleOp> parsed =
              parseSourceFile<ModuleOp>(source, context);
          if (!parsed)
            return failure();
          ModuleOp module = *parsed;
          // An error of the command line, not of the program: said as
          // fuse-opt says it, with no location, and once, not for each part
          // of a --split-input-file.
          llvm::Error refused = llvm::Error::success();
          if (std::optional<std::string> repeated = optionUseError())
            refused = llvm::createStringError(*repeated);
          else if (std::optional<llvm::StringRef> flag = irFlagGiven())
            refused = llvm::createStringError(
                "--" + flag->str() +
                " is a flag of MLIR's IR printer or pass manager, and the "
                "translations compile with their own pass manager and print "
                "no IR, so it would do nothing (even given its default "
                "value): use it with fuse-opt --fuse-pipeline=STAGE");
          else
            refused = checkTranslationFlags(translation, flags);
          if (llvm::Error error = std::move(refused)) {
            if (!flagsRefused)
              llvm::WithColor::error(llvm::errs(), tool)
                  << llvm::toString(std::move(error)) << "\n";
            else
              llvm::consumeError(std::move(error));
            flagsRefused = true;
            return failure();
          }
          return translate(module, translation, flags.options(), os);
        });
  }
}
