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
#include "fuse/Support/Tool.h"
#include "fuse/Target/Translations.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  // fuse's --version; a write that failed when mlirTranslateMain closed its
  // output is an error of fuse-translate.
  fuse::initTool("fuse-translate");
  static llvm::cl::OptionCategory category("fuse options");
  fuse::PipelineFlags flags(category);
  fuse::registerTranslations(flags, "fuse-translate");
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
  // `-o FILE`, `-o=FILE`, `--o=FILE`.
  for (int i = 1; i < argc && !help; ++i) {
    llvm::StringRef arg(argv[i]);
    std::optional<llvm::StringRef> path;
    if ((arg == "-o" || arg == "--o") && i + 1 < argc)
      path = argv[i + 1];
    else if (arg.consume_front("-o=") || arg.consume_front("--o="))
      path = arg;
    if (!path)
      continue;
    if (std::optional<std::string> why = fuse::cannotWrite(*path)) {
      fuse::toolError() << *why << "\n";
      return 1;
    }
  }
  if (given != 1 && !help) {
    std::vector<std::string> flags;
    for (llvm::StringRef name : names)
      flags.push_back("--" + name.str());
    fuse::toolError() << (given ? "give one translation"
                                : "no translation given")
                      << ": " << llvm::join(flags, ", ") << "\n";
    return 1;
  }
  return mlir::failed(
             mlir::mlirTranslateMain(argc, argv, "fuse translation driver\n"))
             ? 1
             : 0;
}
