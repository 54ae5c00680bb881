//===- Translations.h - what the tools print of a program -------*- C++ -*-===//
//
// A fuse program printed as something other than IR: its kernels' PTX, or
// the report (text, JSON, a Graphviz graph, an HTML page). fuse-translate
// registers them as translations (--fuse-to-ptx, --fuse-report, ...),
// fuse-opt's --emit=ptx and --fuse-report are aliases of them, and the C API
// calls them for Python.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_TARGET_TRANSLATIONS_H
#define FUSE_TARGET_TRANSLATIONS_H

#include "fuse/Pipelines/Pipelines.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace fuse {

enum class Translation { PTX, Report, ReportJSON, ReportDot, ReportHTML };

/// The report's form named as fuse-opt's --fuse-report takes it: text (or
/// empty), json, dot or html.
std::optional<Translation> parseReportForm(llvm::StringRef form);

/// The report's forms, for help texts and errors: "text, json, dot or html".
llvm::StringRef reportForms();

/// Checks the options a translation is asked for with, as `flags` gave
/// them: a report compiles fused and eager side by side, so --fuse-remarks
/// does not apply to it, and --fusion only to the graph, which draws one of
/// the two. Then checkPipelineOptions.
llvm::Error checkTranslationFlags(Translation translation,
                                  const PipelineFlags &flags);

/// Prints `module` as `translation` with `options` (which the caller has
/// checked). PTX lowers `module` to the ptx stage and prints every kernel
/// module's PTX (compilePTX), with a remark at the first function when
/// there is none; a report leaves `module` as it is. The HTML page names
/// the program by the file of `module`'s location ("standard input" for
/// stdin). Failures are diagnostics of `module`'s context.
mlir::LogicalResult translate(mlir::ModuleOp module, Translation translation,
                              const PipelineOptions &options,
                              llvm::raw_ostream &os);

/// Registers the translations for mlirTranslateMain: fuse-to-ptx,
/// fuse-report, fuse-report-json, fuse-report-dot and fuse-report-html,
/// each with the options of `flags` (which must outlive them) checked when
/// it runs; a bad option is an error of `tool` (the tool's name).
void registerTranslations(const PipelineFlags &flags, llvm::StringRef tool);

/// Whether a translation that registerTranslations registered refused the
/// command line's options (checkTranslationFlags), as opposed to the
/// program: fuse-translate then leaves the output file as it was.
bool translationFlagsRefused();

/// The names of the translations that registerTranslations registers
/// (`fuse-to-ptx`, `fuse-report`, ...), the flags of fuse-translate.
std::vector<llvm::StringRef> translationNames();

} // namespace fuse

#endif // FUSE_TARGET_TRANSLATIONS_H
