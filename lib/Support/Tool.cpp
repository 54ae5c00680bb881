//===- Tool.cpp - what every fuse tool sets up first ----------------------===//

#include "fuse/Support/Tool.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

llvm::StringRef fuse::version() { return FUSE_VERSION; }

/// The name and the arguments initTool was given.
static const char *toolName = "fuse";
static llvm::ArrayRef<char *> toolArguments;

void fuse::hideLibraryOptions(const llvm::cl::OptionCategory *category) {
  for (auto &[name, option] : llvm::cl::getRegisteredOptions())
    if (!llvm::is_contained(option->Categories, category) &&
        !llvm::is_contained({"help", "help-list", "version"}, name))
      option->setHiddenFlag(llvm::cl::ReallyHidden);
}

llvm::raw_ostream &fuse::toolError() {
  return llvm::errs() << toolName << ": error: ";
}

void fuse::initTool(const char *name, int argc, char **argv, bool stackDump) {
  toolName = name;
  // A crash (a pass's, upstream's too) prints the command line and LLVM's
  // stack dump, as mlir-opt's does, not nothing but the signal's status;
  // the report goes to fuse's maintainers, not LLVM's.
  if (argv && argc > 0 && stackDump) {
    llvm::sys::PrintStackTraceOnErrorSignal(argv[0]);
    llvm::EnablePrettyStackTrace();
    static llvm::PrettyStackTraceProgram program(argc, argv);
  }
  {
    static const std::string report =
        std::string(name) +
        " crashed: please report it to fuse's maintainers with the command "
        "line, its input and the stack dump below.\n";
    llvm::setBugReportMsg(report.c_str());
  }
  if (argv)
    toolArguments = llvm::ArrayRef(argv + 1, argc > 0 ? argc - 1 : 0);
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

std::optional<llvm::StringRef> fuse::irFlagGiven() {
  static const llvm::StringLiteral names[] = {
      "mlir-print-ir-after",
      "mlir-print-ir-after-all",
      "mlir-print-ir-after-change",
      "mlir-print-ir-after-failure",
      "mlir-print-ir-before",
      "mlir-print-ir-before-all",
      "mlir-print-ir-module-scope",
      "mlir-print-ir-tree-dir",
      "mlir-pass-statistics",
      "mlir-pass-statistics-display",
      "mlir-timing",
      "mlir-timing-display",
      "dump-pass-pipeline",
      "emit-bytecode",
      "emit-bytecode-version",
      "verify-each",
      "verify-roundtrip",
      "mlir-print-op-generic",
      "mlir-print-debuginfo",
      "mlir-pretty-debuginfo",
      "mlir-print-local-scope",
      "mlir-print-unique-ssa-ids",
      "mlir-print-value-users",
      "mlir-print-assume-verified",
      "mlir-print-skip-regions",
      "mlir-print-elementsattrs-with-hex-if-larger",
      "mlir-elide-elementsattrs-if-larger",
      "mlir-elide-resource-strings-if-larger",
      "mlir-use-nameloc-as-prefix",
      "mlir-generate-reproducer",
      "mlir-pass-pipeline-crash-reproducer",
      "mlir-pass-pipeline-local-reproducer",
      "run-reproducer",
      "log-actions-to",
      "log-mlir-actions-filter",
      "profile-actions-to",
      "mlir-output-format",
      "show-dialects",
  };
  for (llvm::StringRef name : names)
    if (fuse::optionGiven(name))
      return name;
  return std::nullopt;
}

bool fuse::optionGiven(llvm::StringRef name) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  return it != options.end() && it->second->getNumOccurrences();
}

std::optional<std::string> fuse::optionUseError() {
  std::optional<std::string> first;
  for (auto &[name, option] : llvm::cl::getRegisteredOptions()) {
    // `-o`, `--fusion`: as the tools' help spells them.
    std::string spelled =
        (option->ArgStr.size() == 1 ? "-" : "--") + option->ArgStr.str();
    if (option->getNumOccurrencesFlag() == llvm::cl::Optional &&
        option->getNumOccurrences() > 1 && !option->isPositional() &&
        (!first || spelled < *first))
      first = spelled;
  }
  if (first)
    return *first + " is given more than once: give it once";
  auto &options = llvm::cl::getRegisteredOptions();
  for (llvm::StringRef arg : toolArguments) {
    if (arg == "--")
      break;
    if (!arg.starts_with("-") || !arg.ends_with("="))
      continue;
    llvm::StringRef name = arg.ltrim('-').drop_back();
    auto it = options.find(name);
    if (it != options.end() &&
        it->second->getValueExpectedFlag() == llvm::cl::ValueOptional)
      return ("--" + name + "= has no value: give --" + name +
              " alone, or a value after the =")
          .str();
  }
  return std::nullopt;
}

std::optional<std::string> fuse::cannotWrite(llvm::StringRef path) {
  namespace fs = llvm::sys::fs;
  if (path == "-")
    return std::nullopt;
  if (path.empty())
    return std::string("the file name is empty (- is the standard output)");
  auto reason = [&](std::error_code ec) -> std::optional<std::string> {
    if (!ec)
      return std::nullopt;
    return "cannot open output file '" + path.str() + "': " + ec.message();
  };
  if (fs::is_directory(path))
    return reason(std::make_error_code(std::errc::is_a_directory));
  if (fs::exists(path))
    return reason(fs::access(path, fs::AccessMode::Write));
  llvm::SmallString<256> parent(path);
  fs::make_absolute(parent);
  llvm::sys::path::remove_filename(parent);
  if (!fs::exists(parent))
    return reason(std::make_error_code(std::errc::no_such_file_or_directory));
  if (!fs::is_directory(parent))
    return reason(std::make_error_code(std::errc::not_a_directory));
  return reason(fs::access(parent, fs::AccessMode::Write));
}

std::optional<std::string> fuse::cannotRead(llvm::StringRef path) {
  namespace fs = llvm::sys::fs;
  if (path == "-")
    return std::nullopt;
  std::error_code ec;
  if (fs::is_directory(path)) {
    ec = std::make_error_code(std::errc::is_a_directory);
  } else if (llvm::Expected<fs::file_t> file =
                 fs::openNativeFileForRead(path)) {
    fs::closeFile(*file);
  } else {
    ec = llvm::errorToErrorCode(file.takeError());
  }
  if (!ec)
    return std::nullopt;
  return "cannot open input file '" + path.str() + "': " + ec.message();
}
