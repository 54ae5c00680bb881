//===- Tool.h - what every fuse tool sets up first --------------*- C++ -*-===//
//
// fuse-opt, fuse-run, fuse-translate and fuse-lsp-server start with
// initTool: their --version and how they end on an LLVM fatal error.
//
//===----------------------------------------------------------------------===//

#ifndef FUSE_SUPPORT_TOOL_H
#define FUSE_SUPPORT_TOOL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace fuse {

/// fuse's version: python/pyproject.toml's, read by CMake.
llvm::StringRef version();

/// Sets up the tool `name` ("fuse-run", a string literal):
/// - `--version` prints `name (fuse VERSION)` and the LLVM it was built with;
/// - an LLVM fatal error is the tool's error (`name: error: ...`, exit
///   status 1), and an output that LLVM finds unwritten when it closes it
///   (its fatal "IO failure on output stream", from outputs that upstream
///   drivers such as mlirTranslateMain open and close) says so: `name:
///   error: cannot write the output: No space left on device`. A tool
///   checks the outputs it closes itself with finishOutput (Npy.h);
/// - a crash prints the command line and a stack dump (with `argv`; unless
///   `stackDump` is false, for a tool whose llvm::InitLLVM prints them),
///   and asks for a report to fuse's maintainers.
void initTool(const char *name, int argc = 0, char **argv = nullptr,
              bool stackDump = true);

/// Hides the options registered so far that are not in `category` (the
/// hundreds that the LLVM libraries linked in register as they load: code
/// generation and analysis), but --help, --help-list and --version, from
/// --help, --help-hidden and the suggestions for a mistyped flag (it was
/// "Did you mean '--enable-pipeliner=ptx'?"); they still work. --help lists
/// the tool's flags and then the upstream driver's own options, registered
/// after this, as mlir-opt's does.
void hideLibraryOptions(const llvm::cl::OptionCategory *category = nullptr);

/// Standard error after `name: error: ` (the name initTool was given), for
/// an error of the tool itself (a flag, a file) to follow with its newline;
/// errors in a program have their location instead.
llvm::raw_ostream &toolError();

/// Why `path` cannot be created or overwritten (an empty name, a directory,
/// a missing or read-only directory), or std::nullopt; `-` is the standard
/// output. The tools check their output files before anything compiles or
/// runs, so that a typo in a path does not cost the run; a device that
/// turns out full is still found when the file is written.
std::optional<std::string> cannotWrite(llvm::StringRef path);

/// Why `path` cannot be read (a directory, a missing or unreadable file),
/// as `cannot open input file 'PATH': REASON`, or std::nullopt; `-` is the
/// standard input. The file is opened, not read.
std::optional<std::string> cannotRead(llvm::StringRef path);

/// Whether the registered command-line option `name` (without dashes) was
/// given, after the command line was parsed.
bool optionGiven(llvm::StringRef name);

/// The first of MLIR's flags given (after the command line was parsed)
/// that shape its pass manager or the IR it prints (--mlir-timing,
/// --mlir-print-debuginfo, ...): the report and PTX translations run their
/// own pipeline and print no IR, so each would do nothing there.
std::optional<llvm::StringRef> irFlagGiven();

/// The error for the first option that takes one value and was given more
/// than once (`--fuse-pipeline=gpu --fuse-pipeline=linalg`, of which LLVM
/// keeps the last without a word), after the command line was parsed:
/// `--fuse-pipeline is given more than once: give it once`; else for an
/// option whose value may be left out given with an empty one
/// (`--fusion=`, which LLVM reads as `--fusion`, on), among the arguments
/// initTool was given.
std::optional<std::string> optionUseError();

/// Reads an integer flag in decimal, as the `fuse-lower` pipeline's options
/// are read: LLVM's own parser takes a leading 0 as octal
/// (`--block-size=0100` would be 64) and 0x as hexadecimal. T is one whose
/// LLVM parser can be extended: int, unsigned, long long or unsigned long
/// long (not int64_t and uint64_t, whose parsers are final).
template <typename T> class DecimalParser : public llvm::cl::parser<T> {
public:
  using llvm::cl::parser<T>::parser;

  bool parse(llvm::cl::Option &option, llvm::StringRef name,
             llvm::StringRef arg, T &value) {
    if (arg.getAsInteger(10, value))
      return option.error("'" + arg +
                          "' is not a decimal integer that fits its type");
    return false;
  }
};

/// A boolean option's value: on, off, true, false, 1 or 0 (the flag or
/// key alone is true). Inline, as DecimalParser: the compiler's libraries
/// read options too, without the tools' FuseTool.
inline std::optional<bool> parseOnOff(llvm::StringRef text) {
  return llvm::StringSwitch<std::optional<bool>>(text)
      .Cases({"", "on", "true", "1"}, true)
      .Cases({"off", "false", "0"}, false)
      .Default(std::nullopt);
}

/// Reads a boolean flag with parseOnOff (`--check=off`, which LLVM's own
/// parser refused: "Try 0 or 1").
class OnOffParser : public llvm::cl::parser<bool> {
public:
  using llvm::cl::parser<bool>::parser;

  bool parse(llvm::cl::Option &option, llvm::StringRef name,
             llvm::StringRef arg, bool &value) {
    std::optional<bool> parsed = parseOnOff(arg);
    if (!parsed)
      return option.error("'" + arg + "' is not on, off, true or false");
    value = *parsed;
    return false;
  }

  /// --help shows `--flag[=<on|off>]`.
  llvm::StringRef getValueName() const override { return "on|off"; }
};

} // namespace fuse

#endif // FUSE_SUPPORT_TOOL_H
