//===- Graph.h - the report as a picture and a page -------------*- C++ -*-===//
//
// Draws a report's kernels as a Graphviz graph (DOT) over the program: its
// arguments, every op with its location and its results, each kernel a
// cluster with the report's counts, and the values that go through memory
// between kernels drawn apart from those that stay inside one. Also writes
// the whole report as one self-contained HTML page.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_REPORT_GRAPH_H
#define FUSE_REPORT_GRAPH_H

#include "fuse/Report/Report.h"

#include "llvm/Support/Error.h"

namespace fuse {

/// Prints one `digraph` of `module` (the program `reports` was built from)
/// with one cluster per function, and in it one cluster per kernel of the
/// fused variant, or of the eager one when `fused` is false.
void printReportGraph(mlir::ModuleOp module,
                      llvm::ArrayRef<FunctionReport> reports, bool fused,
                      llvm::raw_ostream &os);

/// Renders DOT text as SVG with Graphviz's `dot`, found on PATH now; an
/// error says why not (no `dot`, or what it printed when it failed).
llvm::Expected<std::string> renderSVG(llvm::StringRef dot);

/// Prints an HTML page that needs nothing else (no scripts, fonts or
/// links): the fused and eager pictures side by side (SVG when `dot` is on
/// PATH, else the DOT text and how to render it), the text report and the
/// fusion remarks. `title` names the program (its file).
void printReportPage(mlir::ModuleOp module,
                     llvm::ArrayRef<FunctionReport> reports,
                     llvm::StringRef title, llvm::raw_ostream &os);

} // namespace fuse

#endif // FUSE_REPORT_GRAPH_H
