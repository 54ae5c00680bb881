//===- Graph.cpp - the report as a picture and a page ----------*- C++ -*-===//
//
// The graph is the program as written (arguments, ops, results and the
// values between them), with the report's kernels laid over it as
// clusters. Which ops a kernel computes comes from the report
// (KernelReport::opPositions), as do every count and the reason each
// unfused pair stays apart, so the picture cannot disagree with the text.
//
//===----------------------------------------------------------------------===//

#include "fuse/Report/Graph.h"

#include "fuse/Dialect/Fuse/IR/FuseOps.h"
#include "fuse/Dialect/Fuse/Utils/Location.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <limits>
#include <map>
#include <set>

using namespace mlir;
using namespace fuse;

//===----------------------------------------------------------------------===//
// DOT
//===----------------------------------------------------------------------===//

namespace {

// Colors: kernels are blue boxes, values that go through memory between
// kernels are red, arguments and results gray.
constexpr llvm::StringLiteral kKernelFill = "#e8f0fe";
constexpr llvm::StringLiteral kKernelLine = "#1a73e8";
constexpr llvm::StringLiteral kMemory = "#d93025";
constexpr llvm::StringLiteral kOuter = "#5f6368";
constexpr llvm::StringLiteral kOuterFill = "#f1f3f4";

/// A DOT string of `lines`, each escaped; `\n` between lines centers
/// them, `\l` after each left-justifies them.
std::string dotString(llvm::ArrayRef<std::string> lines,
                      bool leftJustified = false) {
  std::string text = "\"";
  for (auto [i, line] : llvm::enumerate(lines)) {
    if (i && !leftJustified)
      text += "\\n";
    for (char c : line) {
      if (c == '"' || c == '\\')
        text += '\\';
      // A control character (of a file's name) is no character of an SVG:
      // shown as `\x01`.
      if (static_cast<unsigned char>(c) < 0x20) {
        text += llvm::formatv("\\\\x{0:x-2}", static_cast<unsigned>(c)).str();
        continue;
      }
      text += c;
    }
    if (leftJustified)
      text += "\\l";
  }
  return text + "\"";
}

/// Breaks `text` at spaces into lines of at most about `width` characters.
std::vector<std::string> wrap(llvm::StringRef text, size_t width) {
  std::vector<std::string> lines(1);
  llvm::SmallVector<llvm::StringRef> words;
  text.split(words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef word : words) {
    if (!lines.back().empty() && lines.back().size() + word.size() >= width)
      lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + word.str();
  }
  return lines;
}

/// `file:line:col` of the first file location in `loc`, its printed form
/// when it has none, or nothing when it is unknown.
std::string locationText(Location loc) {
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    return llvm::formatv("{0}:{1}:{2}", file.getFilename().getValue(),
                         file.getLine(), file.getColumn())
        .str();
  if (isa<UnknownLoc>(loc))
    return "";
  // A name with no place, as written (`loc("a<b>")`), which the picture's
  // strings escape; MLIR prints its bytes escaped (`"\C3\BC"` for `ü`).
  if (auto name = loc->findInstanceOf<NameLoc>())
    return "\"" + name.getName().getValue().str() + "\"";
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// The value of a constant as a reader writes it: `0.5`, or the number of
/// elements of a tensor that is not a splat.
std::string constantText(ConstantOp op) {
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (!dense)
    return "";
  if (!dense.isSplat())
    return std::to_string(dense.getNumElements()) + " values";
  Attribute splat = dense.getSplatValue<Attribute>();
  if (auto f = dyn_cast<FloatAttr>(splat)) {
    std::string text;
    llvm::raw_string_ostream(text) << llvm::format("%g", f.getValueAsDouble());
    return text;
  }
  if (auto i = dyn_cast<IntegerAttr>(splat))
    return i.getType().isInteger(1) ? (i.getValue().isZero() ? "false" : "true")
                                    : std::to_string(i.getInt());
  return "";
}

/// The lines of an op's node: its name, its attributes (the constant's
/// value), its location.
std::vector<std::string> opLines(Operation *op) {
  std::vector<std::string> lines = {op->getName().getStringRef().str()};
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    std::string value = constantText(constant);
    if (!value.empty())
      lines.back() += " " + value;
  } else if (auto cmp = dyn_cast<CmpOp>(op)) {
    // As the IR writes it (its dictionary has the enum's number).
    lines.back() += " " + stringifyCmpPredicate(cmp.getPredicate()).str();
  } else if (!op->getAttrs().empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->getAttrDictionary().print(os);
    lines.push_back(text);
  }
  std::string loc = locationText(op->getLoc());
  if (!loc.empty())
    lines.push_back(loc);
  return lines;
}

/// Draws one function's cluster.
class FunctionGraph {
public:
  FunctionGraph(func::FuncOp func, const FunctionReport &report, bool fused,
                unsigned index, llvm::raw_ostream &os)
      : func(func), report(report), fused(fused), os(os),
        prefix("f" + std::to_string(index)) {
    for (Operation &op : func.getBody().front().without_terminator()) {
      positions[&op] = ops.size();
      ops.push_back(&op);
    }
    const VariantReport &variant = drawn();
    for (auto [k, kernel] : llvm::enumerate(variant.kernels))
      for (unsigned position : kernel.opPositions)
        kernelsOf[position].push_back(k);
    // An op that no kernel computes may be the same as an earlier one
    // (name, operands and attributes): `cse` computed the two once.
    for (auto [position, op] : llvm::enumerate(ops))
      if (!kernelsOf.count(position))
        for (unsigned earlier = 0; earlier < position; ++earlier)
          if (OperationEquivalence::isEquivalentTo(
                  ops[earlier], op, OperationEquivalence::IgnoreLocations)) {
            sameAs[position] = earlier;
            break;
          }
    // The bytes of an op's result are what its eager kernel writes.
    for (const KernelReport &kernel : report.eager.kernels)
      if (kernel.opPositions.size() == 1)
        resultBytes[kernel.opPositions.front()] =
            kernel.bytesWritten.str(report.names);
  }

  void draw() {
    const VariantReport &variant = drawn();
    std::vector<std::string> title = {symbolText(report.name) + "  " +
                                      (fused ? "fused: " : "eager: ") +
                                      summarize(variant, report.names)};
    if (!report.symbols.empty())
      title.push_back(describeSizes(report));
    os << "  subgraph cluster_" << prefix << " {\n"
       << "    label=" << dotString(title, /*leftJustified=*/true) << ";\n"
       << "    labelloc=t; style=rounded; color=\"" << kOuter
       << "\"; fontsize=12;\n";
    for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
      os << "    " << prefix << "_arg" << i << " [label="
         << dotString({"argument " + std::to_string(i), typeText(type)})
         << ", style=\"rounded,filled\", fillcolor=\"" << kOuterFill
         << "\"];\n";
    alignInOrder("arg", func.getNumArguments());
    for (auto [k, kernel] : llvm::enumerate(variant.kernels)) {
      os << "    subgraph cluster_" << prefix << "_k" << k << " {\n"
         << "      label="
         << dotString({kernel.name, summarize(kernel, report.names)}) << ";\n"
         << "      style=\"rounded,filled\"; fillcolor=\"" << kKernelFill
         << "\"; color=\"" << kKernelLine << "\"; fontsize=10;\n";
      for (unsigned position : kernel.opPositions)
        drawOp(ops[position], position, k, "      ");
      os << "    }\n";
    }
    for (auto [position, op] : llvm::enumerate(ops))
      if (!kernelsOf.count(position))
        drawOp(op, position, std::nullopt, "    ");
    auto terminator = func.getBody().front().getTerminator();
    for (auto [i, value] : llvm::enumerate(terminator->getOperands()))
      os << "    " << prefix << "_result" << i << " [label="
         << dotString(
                {"result " + std::to_string(i), typeText(value.getType())})
         << ", style=\"rounded,filled\", fillcolor=\"" << kOuterFill
         << "\"];\n";
    alignInOrder("result", terminator->getNumOperands());
    // Graphviz leaves out a cluster with no node: a function of no
    // argument, op or result is drawn with a note in it.
    if (func.getNumArguments() == 0 && ops.empty() &&
        terminator->getNumOperands() == 0)
      os << "    " << prefix
         << "_empty [label=" << dotString({"no arguments, ops or results"})
         << ", shape=plaintext, fontcolor=\"" << kOuter << "\"];\n";
    // In program order: each op's edges in each kernel that computes it.
    // A split kernel's reductions: the first launch writes partial values,
    // the next one combines them (and reads nothing else of the op's).
    for (auto [position, op] : llvm::enumerate(ops)) {
      if (auto same = sameAs.find(position); same != sameAs.end()) {
        llvm::ArrayRef<size_t> computing = kernelsAt(same->second);
        os << "    "
           << node(same->second,
                   computing.empty()
                       ? std::nullopt
                       : std::optional(writerOf(same->second, computing)))
           << " -> " << node(position, std::nullopt)
           << " [style=dotted, color=\"" << kOuter << "\"];\n";
      } else if (kernelsAt(position).empty()) {
        drawEdges(position, std::nullopt);
      }
      for (size_t k : kernelsAt(position)) {
        std::optional<SizeExpr> partial = partialBytes(k, position);
        if (!partial) {
          drawEdges(position, k);
          continue;
        }
        os << "    " << node(position, k - 1) << " -> " << node(position, k)
           << " [color=\"" << kMemory << "\", fontcolor=\"" << kMemory
           << "\", penwidth=2.5, label="
           << dotString(
                  {partial->str(report.names) + " bytes", "partial values"})
           << "];\n";
      }
    }
    // A result that fuse-own-results copies comes from what it copies,
    // with the copy's bytes (they are in the title's total).
    for (auto [i, value] : llvm::enumerate(terminator->getOperands())) {
      std::string target = prefix + "_result" + std::to_string(i);
      const CopyReport *copy = copyOf(i);
      if (copy && copy->ofResult)
        os << "    " << prefix << "_result" << *copy->ofResult << " -> "
           << target << " " << copyStyle(*copy) << ";\n";
      else
        drawEdge(value, target, std::nullopt, std::nullopt, copy);
    }
    os << "  }\n";
  }

private:
  /// Puts the `count` nodes `<prefix>_<kind>N` side by side in order: the
  /// arguments on one row, the results on another.
  void alignInOrder(llvm::StringRef kind, unsigned count) {
    if (count < 2)
      return;
    os << "    { rank=same; ";
    for (unsigned i = 0; i < count; ++i)
      os << (i ? " -> " : "") << prefix << "_" << kind << i;
    os << " [style=invis]; }\n";
  }

  /// The copy (no kernel) that gives result `result`, if any.
  const CopyReport *copyOf(unsigned result) const {
    for (const CopyReport &copy : drawn().copies)
      if (copy.result == result)
        return &copy;
    return nullptr;
  }

  /// The attributes of the edge into a copied result, with its bytes as a
  /// kernel's box has them.
  std::string copyStyle(const CopyReport &copy) const {
    std::string bytes = copy.bytes.str(report.names);
    std::string both = (copy.bytes + copy.bytes).str(report.names);
    return (llvm::Twine("[style=dashed, color=\"") + kMemory +
            "\", fontcolor=\"" + kMemory + "\", penwidth=2.5, label=" +
            dotString({"copied (no kernel)", both + " bytes (read " + bytes +
                                                 ", written " + bytes + ")"}) +
            "]")
        .str();
  }

  /// The kernels that compute the op at `position` (several when a split
  /// kernel reduces it in two launches, or when kernels compute a value
  /// again rather than read it from memory), in order.
  llvm::ArrayRef<size_t> kernelsAt(unsigned position) const {
    auto it = kernelsOf.find(position);
    if (it == kernelsOf.end())
      return {};
    return it->second;
  }

  /// When kernel `kernel` combines the partial values of the reduction at
  /// `position` that the kernel before it wrote: their bytes.
  std::optional<SizeExpr> partialBytes(size_t kernel, unsigned position) const {
    const VariantReport &variant = drawn();
    if (kernel == 0)
      return std::nullopt;
    for (const auto &[reduction, bytes] :
         variant.kernels[kernel - 1].partialBytes)
      if (reduction == position)
        return bytes;
    return std::nullopt;
  }

  /// The node of the op at `position` in kernel `kernel` (one per kernel
  /// that computes it), or of an op that no kernel computes.
  std::string node(unsigned position, std::optional<size_t> kernel) const {
    std::string name = prefix + "_op" + std::to_string(position);
    if (kernel)
      name += "_k" + std::to_string(*kernel);
    return name;
  }

  void drawOp(Operation *op, unsigned position, std::optional<size_t> kernel,
              llvm::StringRef indent) {
    std::vector<std::string> lines = opLines(op);
    bool unused = !kernel && !isa<ConstantOp>(op);
    // An op with no kernel whose value is used is the same as an earlier
    // op, or a view of its operand (a reduction over dimensions of size 1,
    // a cast to its own type).
    auto same = unused ? sameAs.find(position) : sameAs.end();
    if (unused && op->use_empty()) {
      lines.push_back("(unused: no kernel computes it)");
    } else if (same != sameAs.end()) {
      Operation *earlier = ops[same->second];
      std::string where = locationText(earlier->getLoc());
      lines.push_back("(no kernel: the same as the " +
                      earlier->getName().getStringRef().str() +
                      (where.empty() ? "" : " at " + where) +
                      ", computed once)");
    } else if (unused) {
      lines.push_back("(no kernel: a view of its operand)");
    }
    os << indent << node(position, kernel) << " [label=" << dotString(lines);
    if (isa<ConstantOp>(op))
      os << ", style=dashed";
    else if (unused)
      os << ", style=dashed, fontcolor=\"" << kOuter << "\"";
    else
      os << ", style=filled, fillcolor=white";
    os << "];\n";
  }

  /// One edge per distinct value the op at `consumer` (in kernel
  /// `kernel`, if any) reads.
  void drawEdges(unsigned consumer, std::optional<size_t> kernel) {
    llvm::SmallPtrSet<void *, 4> seen;
    for (Value value : ops[consumer]->getOperands())
      if (seen.insert(value.getAsOpaquePointer()).second)
        drawEdge(value, node(consumer, kernel), kernel, consumer);
  }

  /// An edge from `value`'s node to `target` (the op at `consumer` in
  /// kernel `kernel`, or a result): inside a kernel, through memory from
  /// the last kernel before it that computes the value (with the bytes and
  /// the reason it is not fused), or from an argument or a constant.
  void drawEdge(Value value, const std::string &target,
                std::optional<size_t> kernel, std::optional<unsigned> consumer,
                const CopyReport *copy = nullptr) {
    std::string outer = copy
                            ? copyStyle(*copy)
                            : (llvm::Twine("[color=\"") + kOuter + "\"]").str();
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      os << "    " << prefix << "_arg" << arg.getArgNumber() << " -> " << target
         << " " << outer << ";\n";
      return;
    }
    unsigned producer = positions.lookup(value.getDefiningOp());
    llvm::ArrayRef<size_t> computing = kernelsAt(producer);
    // A constant that an op reads is in its kernel (a splat, inlined) or
    // data of the program, never a kernel's write, even when a kernel of
    // its own writes it as a result (a returned splat).
    if (consumer && !computing.empty() &&
        isa<ConstantOp>(value.getDefiningOp())) {
      os << "    " << node(producer, computing.front()) << " -> " << target
         << " [style=dashed, color=\"" << kOuter << "\"];\n";
      return;
    }
    if (computing.empty()) {
      // A constant, or an op that no kernel computes.
      os << "    " << node(producer, std::nullopt) << " -> " << target;
      if (copy)
        os << " " << outer;
      else if (isa<ConstantOp>(value.getDefiningOp()))
        os << " [style=dashed, color=\"" << kOuter << "\"]";
      os << ";\n";
      return;
    }
    if (!consumer) {
      // A result is what a kernel writes (a kernel that computes the value
      // again for a reduction of its own writes only its reduction).
      os << "    " << node(producer, writerOf(producer, computing)) << " -> "
         << target << " " << outer << ";\n";
      return;
    }
    if (!kernel) {
      os << "    " << node(producer, computing.back()) << " -> " << target
         << ";\n";
      return;
    }
    if (llvm::is_contained(computing, *kernel)) {
      os << "    " << node(producer, *kernel) << " -> " << target << ";\n";
      return;
    }
    size_t from = writerOf(producer, computing, *kernel);
    os << "    " << node(producer, from) << " -> " << target;
    std::vector<std::string> label;
    // The kernel reads the value once, however many of its ops read it:
    // the bytes are on the first arrow.
    auto bytes = resultBytes.find(producer);
    bool first = readsDrawn.insert({producer, *kernel}).second;
    if (bytes != resultBytes.end() && first)
      label.push_back(bytes->second + " bytes");
    if (fused) {
      // The pair's own reason, else that of another pair on the same
      // boundary (from a kernel that computes its producer into this one):
      // the kernels are apart for it.
      const UnfusedPair *why = nullptr;
      for (const UnfusedPair &pair : report.unfused)
        if (pair.producer == producer && pair.consumer == *consumer)
          why = &pair;
      for (const UnfusedPair &pair : report.unfused)
        if (!why && llvm::is_contained(kernelsAt(pair.producer), from) &&
            llvm::is_contained(kernelsAt(pair.consumer), *kernel))
          why = &pair;
      if (why) {
        std::string text =
            why->producer == producer && why->consumer == *consumer
                ? "not fused: " + why->reason
                : "not fused: for the same reason as " +
                      ops[why->producer]->getName().getStringRef().str() +
                      " -> " +
                      ops[why->consumer]->getName().getStringRef().str();
        std::vector<std::string> reason = wrap(text, 44);
        label.insert(label.end(), reason.begin(), reason.end());
      }
    }
    os << " [color=\"" << kMemory << "\", fontcolor=\"" << kMemory
       << "\", penwidth=2.5, label=" << dotString(label) << "];\n";
  }

  /// The variant drawn: fused or eager.
  const VariantReport &drawn() const {
    return fused ? report.fused : report.eager;
  }

  /// Of the kernels `computing` that compute the op at `producer`, those
  /// before kernel `before`: the last that writes its value, else the last.
  size_t writerOf(unsigned producer, llvm::ArrayRef<size_t> computing,
                  size_t before = std::numeric_limits<size_t>::max()) const {
    const VariantReport &variant = drawn();
    size_t from = computing.back();
    bool written = false;
    for (size_t k : computing) {
      if (k >= before)
        continue;
      bool writes =
          llvm::is_contained(variant.kernels[k].storedPositions, producer);
      if (writes || !written)
        from = k;
      written |= writes;
    }
    return from;
  }

  func::FuncOp func;
  const FunctionReport &report;
  bool fused;
  llvm::raw_ostream &os;
  std::string prefix;
  /// The body's ops (without the terminator) and their positions.
  std::vector<Operation *> ops;
  llvm::DenseMap<Operation *, unsigned> positions;
  std::map<unsigned, std::vector<size_t>> kernelsOf;
  /// Ops that no kernel computes -> the earlier op each is the same as.
  std::map<unsigned, unsigned> sameAs;
  std::map<unsigned, std::string> resultBytes;
  /// (producer, kernel) of the reads through memory drawn so far.
  std::set<std::pair<unsigned, size_t>> readsDrawn;
};

} // namespace

void fuse::printReportGraph(ModuleOp module,
                            llvm::ArrayRef<FunctionReport> reports, bool fused,
                            llvm::raw_ostream &os) {
  os << "// " << (fused ? "Fused" : "Eager")
     << " kernels, drawn by fuse-opt --fuse-report=dot; render with "
        "`dot -Tsvg`.\n"
     << "digraph " << (fused ? "fused" : "eager") << " {\n"
     << "  graph [fontname=\"Helvetica,Arial,sans-serif\", fontsize=11, "
        "labeljust=l, nodesep=0.3, ranksep=0.4];\n"
     << "  node [fontname=\"Helvetica,Arial,sans-serif\", fontsize=10, "
        "shape=box, style=rounded];\n"
     << "  edge [fontname=\"Helvetica,Arial,sans-serif\", fontsize=9];\n";
  std::map<std::string, const FunctionReport *> byName;
  for (const FunctionReport &report : reports)
    byName[report.name] = &report;
  unsigned index = 0;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    auto it = byName.find(func.getSymName().str());
    if (func.isExternal() || it == byName.end())
      continue;
    FunctionGraph(func, *it->second, fused, index++, os).draw();
  }
  // The legend, set last so that the clusters do not inherit it.
  os << "  label="
     << dotString({"Blue boxes are kernels. Red arrows are values that one "
                   "kernel writes to memory and another reads back."})
     << ";\n  labelloc=b;\n}\n";
}

//===----------------------------------------------------------------------===//
// SVG
//===----------------------------------------------------------------------===//

llvm::Expected<std::string> fuse::renderSVG(llvm::StringRef dot) {
  llvm::ErrorOr<std::string> program = llvm::sys::findProgramByName("dot");
  if (!program)
    return llvm::createStringError("Graphviz's dot is not on PATH");
  llvm::SmallString<128> input, output, errors;
  for (llvm::SmallString<128> *path : {&input, &output, &errors})
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("fuse-report", "", *path))
      return llvm::createStringError(ec, "cannot create a temporary file");
  llvm::FileRemover removeInput(input), removeOutput(output),
      removeErrors(errors);
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(input, ec);
    if (ec)
      return llvm::createStringError(ec, "cannot write " + input.str());
    file << dot;
  }
  std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(), output.str(),
                                                errors.str()};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(
      *program, {*program, "-Tsvg", input.str()}, std::nullopt, redirects,
      /*SecondsToWait=*/0, /*MemoryLimit=*/0, &message);
  auto read = [](llvm::StringRef path) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path);
    return buffer ? (*buffer)->getBuffer().str() : std::string();
  };
  if (status != 0)
    return llvm::createStringError(
        "dot failed: " + (message.empty()
                              ? llvm::StringRef(read(errors)).trim().str()
                              : message));
  std::string svg = read(output);
  // Graphviz writes an XML prolog and a DOCTYPE that name a DTD on the
  // web; an HTML page needs only the <svg> element.
  size_t start = svg.find("<svg");
  if (start == std::string::npos)
    return llvm::createStringError("dot printed no <svg> element");
  return svg.substr(start);
}

//===----------------------------------------------------------------------===//
// HTML
//===----------------------------------------------------------------------===//

static std::string escapeHTML(llvm::StringRef text) {
  std::string escaped;
  for (char c : text) {
    // A control character (of a file's name) is no character of HTML, not
    // even as a reference: shown as `\x01`. Line breaks and tabs stay.
    if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') {
      escaped += llvm::formatv("\\x{0:x-2}", static_cast<unsigned>(c)).str();
      continue;
    }
    switch (c) {
    case '&':
      escaped += "&amp;";
      break;
    case '<':
      escaped += "&lt;";
      break;
    case '>':
      escaped += "&gt;";
      break;
    case '"':
      escaped += "&quot;";
      break;
    default:
      escaped += c;
    }
  }
  return escaped;
}

static constexpr llvm::StringLiteral kPageStyle = R"css(
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #202124; }
h1 { font-size: 1.4em; }
h2 { font-size: 1.15em; margin-top: 1.5em; }
.pictures { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; }
figure { flex: 1 1 24em; margin: 0; border: 1px solid #dadce0; border-radius: 6px; padding: 0.75em; }
figcaption { font-weight: 600; margin-bottom: 0.5em; }
figure svg { max-width: 100%; height: auto; }
pre { background: #f8f9fa; border: 1px solid #dadce0; border-radius: 4px; padding: 0.75em; overflow-x: auto; }
.note { color: #5f6368; }
)css";

/// One variant's picture: the SVG, or the DOT text and why it is not drawn.
/// The SVG's element ids begin with `ids` (Graphviz numbers them `graph0`,
/// `node1`, ... in each picture, and one page has two).
static void printFigure(llvm::raw_ostream &os, llvm::StringRef caption,
                        llvm::StringRef dot, llvm::StringRef ids) {
  os << "<figure>\n<figcaption>" << escapeHTML(caption) << "</figcaption>\n";
  llvm::Expected<std::string> svg = renderSVG(dot);
  if (svg) {
    constexpr llvm::StringLiteral attribute = " id=\"";
    llvm::StringRef rest = *svg;
    for (size_t at; (at = rest.find(attribute)) != llvm::StringRef::npos;) {
      os << rest.take_front(at + attribute.size()) << ids;
      rest = rest.drop_front(at + attribute.size());
    }
    os << rest;
  } else {
    os << "<p class=\"note\">The graph is shown as DOT text: "
       << escapeHTML(llvm::toString(svg.takeError()))
       << " where this page was written. Render it with <code>dot "
          "-Tsvg</code>, or install Graphviz (<code>apt-get install "
          "graphviz</code>) and write the page again.</p>\n<pre "
          "class=\"dot\">"
       << escapeHTML(dot) << "</pre>\n";
  }
  os << "</figure>\n";
}

void fuse::printReportPage(ModuleOp module,
                           llvm::ArrayRef<FunctionReport> reports,
                           llvm::StringRef title, llvm::raw_ostream &os) {
  std::string fusedDot, eagerDot, text;
  llvm::raw_string_ostream fusedOS(fusedDot), eagerOS(eagerDot), textOS(text);
  printReportGraph(module, reports, /*fused=*/true, fusedOS);
  printReportGraph(module, reports, /*fused=*/false, eagerOS);
  printReport(reports, textOS);

  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n<title>fuse report: "
     << escapeHTML(title) << "</title>\n<style>" << kPageStyle
     << "</style>\n</head>\n<body>\n<h1>fuse report: <code>"
     << escapeHTML(title) << "</code></h1>\n";

  os << "<h2>Fused vs eager</h2>\n"
     << "<p>Blue boxes are kernels, with the elements each one iterates over "
        "and the bytes it reads and writes. Red arrows are values that one "
        "kernel writes to memory and another reads back; black arrows stay "
        "inside a kernel.</p>\n<div class=\"pictures\">\n";
  printFigure(os, "Fused", fusedDot, "fused-");
  printFigure(os, "Eager: one kernel per op (--fusion=off)", eagerDot,
              "eager-");
  os << "</div>\n";

  os << "<h2>Report</h2>\n<pre class=\"report\">" << escapeHTML(text)
     << "</pre>\n";

  os << "<h2>Remarks</h2>\n";
  std::vector<std::string> remarks;
  std::map<std::string, const FunctionReport *> byName;
  for (const FunctionReport &report : reports)
    byName[report.name] = &report;
  for (func::FuncOp func : module.getOps<func::FuncOp>()) {
    auto it = byName.find(func.getSymName().str());
    if (func.isExternal() || it == byName.end())
      continue;
    std::vector<Operation *> ops;
    for (Operation &op : func.getBody().front().without_terminator())
      ops.push_back(&op);
    for (const UnfusedPair &pair : it->second->unfused)
      remarks.push_back(symbolText(it->second->name) + ": " +
                        locationText(ops[pair.consumer]->getLoc()) +
                        ": remark: " + pair.message + " (the producer is at " +
                        locationText(ops[pair.producer]->getLoc()) + ")");
  }
  if (remarks.empty()) {
    os << "<p>None: fusion left no producer apart from its consumer.</p>\n";
  } else {
    os << "<ul class=\"remarks\">\n";
    for (const std::string &remark : remarks)
      os << "<li><code>" << escapeHTML(remark) << "</code></li>\n";
    os << "</ul>\n";
  }
  os << "</body>\n</html>\n";
}
