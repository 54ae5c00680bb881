//===- fuse-translate.cpp - fuse translation driver -----------------------===//
//
// mlir-translate with fuse's translations (fuse/Target/Translations.h) and
// the pipelines' options as flags:
//   --fuse-to-ptx                 the PTX of the kernels
//   --fuse-report[-json|-dot|-html]  kernels and bytes, fused vs eager
// --split-input-file translates each part of the input on its own.
//
//===----------------------------------------------------------------------===//

#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Support/Npy.h"
#include "fuse/Support/Tool.h"
#include "fuse/Target/Translations.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"

int main(int argc, char **argv) {
  // fuse's --version; a write that failed when mlirTranslateMain closed its
  // output is an error of fuse-translate.
  fuse::initTool("fuse-translate", argc, argv);
  static llvm::cl::OptionCategory category("fuse options");
  fuse::PipelineFlags flags(category);
  fuse::registerTranslations(flags, "fuse-translate");
  // --help lists fuse's flags and then mlir-translate's own options.
  fuse::hideLibraryOptions(&category);
  // One translation: mlir-translate would apply several one after the
  // other (the report's text read as MLIR), and say that none was given
  // once per option parse.
  std::vector<llvm::StringRef> names = fuse::translationNames();
  int given = 0;
  bool help = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = llvm::StringRef(argv[i]).ltrim('-');
    given += llvm::is_contained(names, arg);
    help |= arg.starts_with("help") || arg == "version";
  }
  // The output file is checked before the translation runs (upstream's
  // driver says it cannot open it without the tool's name or a newline):
  // `-o FILE`, `-o=FILE`, `--o=FILE`; the last one given is the output. The
  // argument that holds its path, and what comes before the path in it
  // (`-o=`, or nothing after a separate `-o`), are kept.
  int outputArg = -1;
  std::string outputPrefix;
  std::optional<llvm::StringRef> outputPath;
  for (int i = 1; i < argc && !help; ++i) {
    llvm::StringRef arg(argv[i]);
    std::optional<llvm::StringRef> path;
    if ((arg == "-o" || arg == "--o") && i + 1 < argc)
      path = argv[++i];
    else if (arg.consume_front("-o=") || arg.consume_front("--o="))
      path = arg;
    if (!path)
      continue;
    if (std::optional<std::string> why = fuse::cannotWrite(*path)) {
      fuse::toolError() << *why << "\n";
      return 1;
    }
    outputArg = i;
    outputPrefix = llvm::StringRef(argv[i]).drop_back(path->size()).str();
    outputPath = path;
  }
  // The input is checked here too, for the same reason (upstream's driver
  // said "cannot open input file 'dir': Is a directory" without the tool's
  // name). It is the one argument that is not a flag or -o's path.
  for (int i = 1; i < argc && !help; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg == "-o" || arg == "--o") {
      ++i;
      continue;
    }
    if (arg.starts_with("-"))
      continue;
    if (std::optional<std::string> why = fuse::cannotRead(arg)) {
      fuse::toolError() << *why << "\n";
      return 1;
    }
  }
  if (given != 1 && !help) {
    std::vector<std::string> flags;
    for (llvm::StringRef name : names)
      flags.push_back("--" + name.str());
    // fuse-opt's spellings, which the command line's parse (after this)
    // would call unknown: said here, with what fuse-translate takes.
    std::string optFlag;
    for (int i = 1; i < argc && optFlag.empty(); ++i) {
      llvm::StringRef arg(argv[i]);
      llvm::StringRef name = arg.ltrim('-').split('=').first;
      if (arg.starts_with("-") &&
          (name == "fuse-pipeline" || name == "emit" ||
           (name == "fuse-report" && arg.contains('='))))
        optFlag = arg.str();
    }
    fuse::toolError() << (given ? "give one translation"
                                : "no translation given")
                      << ": " << llvm::join(flags, ", ");
    if (!optFlag.empty())
      llvm::errs() << " (" << optFlag
                   << " is fuse-opt's; fuse-translate takes a translation "
                      "as a flag of its own)";
    llvm::errs() << "\n";
    return 1;
  }
  // mlirTranslateMain opens (empties) its output before the translation
  // checks its options, and removes it when the translation fails. A plain
  // file named by -o is written beside it and renamed over it once
  // translated, so that an error of the command line leaves it as it was;
  // an error of the program removes it, as fuse-opt's does. Where no file
  // can be made beside it (a read-only directory), it is written in place.
  namespace fs = llvm::sys::fs;
  std::vector<char *> args(argv, argv + argc);
  std::optional<std::string> temporary =
      outputPath ? fuse::stageBeside(*outputPath) : std::nullopt;
  std::string outputFlag;
  if (temporary) {
    outputFlag = outputPrefix + *temporary;
    args[outputArg] = outputFlag.data();
  }
  bool ok = mlir::succeeded(
      mlir::mlirTranslateMain(argc, args.data(), "fuse translation driver\n"));
  if (!temporary)
    return ok ? 0 : 1;
  if (!ok) {
    fuse::discardStaged(*temporary, *outputPath);
    if (!fuse::translationFlagsRefused())
      fs::remove(*outputPath);
    return 1;
  }
  llvm::sys::DontRemoveFileOnSignal(*temporary);
  if (std::error_code ec = fs::rename(*temporary, *outputPath)) {
    fs::remove(*temporary);
    fuse::toolError() << "cannot write output file '" << *outputPath
                      << "': " << ec.message() << "\n";
    return 1;
  }
  return 0;
}
