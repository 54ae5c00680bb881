//===- fuse-run.cpp - compile and run a fuse program ---------------------===//
//
// fuse-run prog.mlir [--entry NAME] [--input SPEC]... [--output FILE.npy]...
//          [--target auto|cuda|cpu] [--fusion on|off] [--chip sm_90]
//          [--seed N] [--repeat N] [--profile] [--trace FILE.json] [--check]
//          [--dump-ptx FILE] [--dump-asm FILE [--cpu NAME]]
//
//===----------------------------------------------------------------------===//

#include "fuse/Dialect/Fuse/Utils/Location.h"
#include "fuse/Execution/Executable.h"
#include "fuse/InitAllDialects.h"
#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Support/Npy.h"
#include "fuse/Support/Tool.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

using namespace mlir;
using namespace fuse;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("fuse-run options");

// A list, so that a second word is fuse-run's error with a hint (an input
// without --input, a flag's value without '='), not "Too many positional
// arguments specified!".
static cl::list<std::string> positionals(cl::Positional,
                                         cl::desc("<program.mlir>"),
                                         cl::OneOrMore, cl::cat(runCategory));
static std::string inputFile;
static cl::opt<std::string> entryFlag("entry",
                                      cl::desc("Function to run, with or "
                                               "without its @ (default: the "
                                               "only public one)"),
                                      cl::value_desc("name"),
                                      cl::cat(runCategory));
static cl::list<std::string> inputFlags(
    "input",
    cl::desc("An argument, in order: FILE.npy, rand:SHAPE or "
             "fill:VALUE:SHAPE (SHAPE like 1000000 or 64x128; empty for 0-d). "
             "rand: draws floats uniformly from [-1, 1), integers from "
             "[-100, 100] and bools true or false with even odds (--seed). "
             "VALUE is a decimal integer in range for i32 and i64; true, "
             "false, 1 or 0 for i1; a number (decimal, or hexadecimal with a "
             "p exponent: 0x1p-3), nan, inf or -inf for floats, "
             "rounded to the nearest value of the type (a finite value "
             "beyond its range is an error)"),
    cl::value_desc("spec"), cl::cat(runCategory));
static cl::list<std::string> outputFlags(
    "output",
    cl::desc("Write the results, in order, as .npy files (bf16 as float32; "
             "- is the standard output). Each replaces its file once every "
             "result is written; one may be an --input file, which is read "
             "first"),
    cl::value_desc("file.npy"), cl::cat(runCategory));
// A name, read after the command line (targetOf): a bad one is the tool's
// error naming the three, not LLVM's "Cannot find option named".
static cl::opt<std::string> targetName(
    "target",
    cl::desc("Where to run: auto (the GPU when one is usable, else the "
             "CPU), cuda (the GPU) or cpu (the same kernels as host loops)"),
    cl::value_desc("auto|cuda|cpu"), cl::init("auto"), cl::cat(runCategory));

/// --target's request, or std::nullopt for a name that is none of them.
static std::optional<TargetRequest> targetOf(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<TargetRequest>>(name)
      .Case("auto", TargetRequest::Auto)
      .Case("cuda", TargetRequest::CUDA)
      .Case("cpu", TargetRequest::CPU)
      .Default(std::nullopt);
}
static cl::opt<unsigned long long, false,
               fuse::DecimalParser<unsigned long long>>
    seedFlag("seed", cl::desc("Seed of rand: inputs"), cl::init(0),
             cl::cat(runCategory));
static cl::opt<unsigned, false, fuse::DecimalParser<unsigned>>
    repeatFlag("repeat",
               cl::desc("Run N times; with N > 1 the first run is a warm-up "
                        "left out of the profile"),
               cl::init(1), cl::cat(runCategory));
static cl::opt<bool, false, fuse::OnOffParser>
    profileFlag("profile",
                cl::desc("Print a table of kernels and copies: calls, time, "
                         "bytes, GB/s, % of copy bandwidth"),
                cl::cat(runCategory));
static cl::opt<std::string>
    traceFlag("trace",
              cl::desc("Write a Chrome trace (Perfetto, chrome://tracing) of "
                       "the profiled events, laid end to end"),
              cl::value_desc("file.json"), cl::cat(runCategory));
static cl::opt<bool, false, fuse::OnOffParser>
    checkFlag("check",
              cl::desc("Also run the eager (unfused) variant and compare "
                       "every result"),
              cl::cat(runCategory));
static cl::opt<std::string> dumpPtxFlag("dump-ptx",
                                        cl::desc("Write the kernels' PTX"),
                                        cl::value_desc("file.ptx"),
                                        cl::cat(runCategory));
static cl::opt<std::string>
    dumpAsmFlag("dump-asm",
                cl::desc("Write the cpu target's machine code as assembly"),
                cl::value_desc("file.s"), cl::cat(runCategory));
static cl::opt<std::string>
    cpuFlag("cpu",
            cl::desc("With --dump-asm: the CPU to compile the cpu target for "
                     "(an LLVM name: x86-64-v3, znver4, sapphirerapids, ...) "
                     "instead of the host's; nothing runs"),
            cl::value_desc("name"), cl::cat(runCategory));
/// --threads, made in main(): a build linked with libLLVM.so and
/// libMLIR.so (the sanitizer build) already has an option of that name
/// from a library fuse-run does not use, which main() unregisters first.
static cl::opt<int, false, fuse::DecimalParser<int>> &threadsFlag() {
  static cl::opt<int, false, fuse::DecimalParser<int>> flag(
      "threads",
      cl::desc("The cpu target's threads (0: FUSE_NUM_THREADS, else every "
               "core); small launches run on the calling thread"),
      cl::init(0), cl::value_desc("N"), cl::cat(runCategory));
  return flag;
}
/// The flags that ask for a run besides --input (and --threads, which sets
/// how it runs): given with --cpu they are refused, and with a dump they
/// make a run of it.
static std::vector<const cl::Option *> flagsOfARun() {
  return {static_cast<const cl::Option *>(std::addressof(outputFlags)),
          &seedFlag,
          &repeatFlag,
          &profileFlag,
          &traceFlag,
          &checkFlag};
}

/// Whether a file that fuse-run writes is standard output (`-`).
static bool stdoutIsAFile = false;

/// Where fuse-run says what it computed (results, profile, checks, files
/// written): standard output, unless a file is written there.
static llvm::raw_ostream &info() {
  return stdoutIsAFile ? llvm::errs() : llvm::outs();
}

static int fail(const llvm::Twine &message) {
  fuse::toolError() << message << "\n";
  return 1;
}

/// A compile error: the program's diagnostics as they are, located as a
/// compiler's (`file:line:col: error: ...`, which editors read), or
/// another error of fuse-run's.
static int failCompile(llvm::Error error) {
  std::string message = llvm::toString(std::move(error));
  // At a place in a file, or at a name alone (`loc("fn")`: `"fn": `).
  static const llvm::Regex located(
      "^([^ ]+:[0-9]+:[0-9]+|\"[^\"]*\"): error: ");
  if (!located.match(message))
    // A diagnostic at no location is `error: ...` already.
    return fail(llvm::StringRef(message).starts_with("error: ")
                    ? llvm::StringRef(message).drop_front(strlen("error: "))
                    : llvm::StringRef(message));
  llvm::errs() << message << "\n";
  return 1;
}

/// Writes `contents` to `path` (the value of `flag`); a file that cannot be
/// opened or written is an error naming the flag, the file and why.
static int writeOutput(llvm::StringRef flag, llvm::StringRef path,
                       llvm::StringRef contents) {
  std::string error;
  auto out = mlir::openOutputFile(path, &error);
  if (!out)
    return fail(flag + ": " + error);
  out->os() << contents;
  if (std::error_code ec = fuse::finishOutput(out->os(), path))
    return fail(flag + ": cannot write '" + path + "': " + ec.message());
  out->keep();
  return 0;
}

//===----------------------------------------------------------------------===//
// Inputs
//===----------------------------------------------------------------------===//

static llvm::Expected<std::vector<int64_t>> parseShape(llvm::StringRef text) {
  std::vector<int64_t> shape;
  if (text.empty())
    return shape;
  llvm::SmallVector<llvm::StringRef> parts;
  text.split(parts, 'x');
  for (llvm::StringRef part : parts) {
    int64_t size;
    if (part.getAsInteger(10, size) || size < 0)
      return llvm::createStringError(
          "bad size '" + part.str() + "' in shape '" + text.str() +
          "' (a shape is sizes of at least 0 joined by 'x', as 3x4; none "
          "for a 0-d array)");
    shape.push_back(size);
  }
  return shape;
}

/// The host memory the kernel says is available (MemAvailable), if known.
static std::optional<uint64_t> availableMemory() {
  auto meminfo = llvm::MemoryBuffer::getFileAsStream("/proc/meminfo");
  if (!meminfo)
    return std::nullopt;
  llvm::StringRef text = (*meminfo)->getBuffer();
  size_t at = text.find("MemAvailable:");
  if (at == llvm::StringRef::npos)
    return std::nullopt;
  uint64_t kib = 0;
  if (text.substr(at + 13).ltrim().consumeInteger(10, kib))
    return std::nullopt;
  return kib * 1024;
}

/// An --input value, taken apart: a .npy file, rand:SHAPE (or rand, a 0-d
/// array) or fill:VALUE:SHAPE.
struct InputSource {
  enum Kind { File, Random, Fill } kind;
  /// The fill value's text (Fill).
  llvm::StringRef value;
  /// The file's path (File) or the shape (Random, Fill).
  llvm::StringRef rest;
};

static InputSource classifyInput(llvm::StringRef spec) {
  if (spec == "rand")
    return {InputSource::Random, "", ""};
  if (spec.consume_front("rand:"))
    return {InputSource::Random, "", spec};
  if (spec.consume_front("fill:")) {
    auto [value, shape] = spec.split(':');
    return {InputSource::Fill, value, shape};
  }
  return {InputSource::File, "", spec};
}

/// How errors name an input: `--input SPEC (argument N, TYPE)`.
static std::string describeInput(llvm::StringRef spec, const TensorSpec &type,
                                 size_t index) {
  return "--input " + spec.str() + " (argument " + std::to_string(index) +
         ", " + type.str() + ")";
}

/// Each input is allocated and filled separately, and Linux lets an
/// allocation succeed even when it cannot be backed by memory: the process
/// would be killed while filling the inputs. Refuses an input, or inputs
/// together, larger than the memory available, before allocating any.
static std::optional<std::string>
checkInputMemory(llvm::ArrayRef<std::string> specs,
                 llvm::ArrayRef<TensorSpec> signature) {
  std::optional<uint64_t> available = availableMemory();
  if (!available)
    return std::nullopt;
  auto tooMuch = [&](uint64_t bytes, llvm::StringRef how) {
    return std::to_string(bytes) + " bytes of host memory" + how.str() +
           ", more than the " + std::to_string(*available) +
           " bytes available (MemAvailable in /proc/meminfo)";
  };
  uint64_t total = 0;
  for (auto [index, spec, type] : llvm::enumerate(specs, signature)) {
    InputSource source = classifyInput(spec);
    uint64_t bytes = 0;
    if (source.kind == InputSource::File) {
      if (uint64_t size; !llvm::sys::fs::file_size(source.rest, size))
        bytes = size;
    } else {
      llvm::Expected<std::vector<int64_t>> shape = parseShape(source.rest);
      if (!shape) {
        llvm::consumeError(shape.takeError());
        return std::nullopt; // makeInput says what is wrong
      }
      bytes = dtypeSize(type.dtype);
      for (int64_t size : *shape)
        if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(size),
                                   &bytes) ||
            bytes > uint64_t(INT64_MAX))
          return std::nullopt; // an invalid shape: makeInput says so
    }
    if (bytes > *available)
      return describeInput(spec, type, index) + ": needs " + tooMuch(bytes, "");
    total += bytes;
  }
  if (total <= *available)
    return std::nullopt;
  return "the inputs need " + tooMuch(total, " together");
}

/// The semantics of float type `dtype`.
static const llvm::fltSemantics &floatSemantics(DType dtype) {
  return dtype == DType::F16    ? llvm::APFloat::IEEEhalf()
         : dtype == DType::BF16 ? llvm::APFloat::BFloat()
         : dtype == DType::F32  ? llvm::APFloat::IEEEsingle()
                                : llvm::APFloat::IEEEdouble();
}

/// `value` with `digits` significant digits; NaN as `nan` whatever its sign
/// bit (as numpy prints it: the sign of a NaN is no part of its value, and
/// the targets' default NaNs differ in it).
static std::string withDigits(double value, int digits) {
  if (std::isnan(value))
    return "nan";
  char text[32];
  std::snprintf(text, sizeof(text), "%.*g", digits, value);
  return text;
}

/// `value` with 9 significant digits, enough to tell float32 values apart.
static std::string nineDigits(double value) { return withDigits(value, 9); }

/// Why a finite value does not fit float type `dtype`: it would round to
/// infinity.
static std::string outOfRange(DType dtype) {
  llvm::APFloat largest = llvm::APFloat::getLargest(floatSemantics(dtype));
  bool lost;
  largest.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
  return " is out of range for " + dtypeName(dtype).str() +
         " (its largest finite value is " +
         nineDigits(largest.convertToDouble()) + "; inf is infinity)";
}

/// Stores the fill value `text` in `element`, a one-element array of the
/// argument's dtype, or says why it does not fit the dtype: integers are
/// exact, and a float is rounded to the nearest value of its type unless it
/// is finite and beyond the type's range (which would make it infinite).
static llvm::Error parseFillValue(llvm::StringRef text, HostArray &element) {
  DType dtype = element.dtype();
  void *data = element.data();
  std::string value = "fill value '" + text.str() + "'";
  switch (dtype) {
  case DType::Bool: {
    bool isTrue = text == "true" || text == "1";
    if (!isTrue && text != "false" && text != "0")
      return llvm::createStringError(value +
                                     " is not a bool: expected true, false, "
                                     "1 or 0");
    *static_cast<uint8_t *>(data) = isTrue;
    return llvm::Error::success();
  }
  case DType::I32:
  case DType::I64: {
    bool is32 = dtype == DType::I32;
    int64_t min = is32 ? std::numeric_limits<int32_t>::min()
                       : std::numeric_limits<int64_t>::min();
    int64_t max = is32 ? std::numeric_limits<int32_t>::max()
                       : std::numeric_limits<int64_t>::max();
    int64_t integer;
    // A leading + as the floats take it (and numpy, int('+5')).
    llvm::StringRef digits = text;
    if (digits.starts_with("+") && digits.size() > 1 &&
        llvm::isDigit(digits[1]))
      digits = digits.drop_front();
    if (digits.getAsInteger(10, integer) || integer < min || integer > max)
      return llvm::createStringError(
          value + " is not an " + dtypeName(dtype).str() +
          ": expected a decimal integer from " + std::to_string(min) + " to " +
          std::to_string(max));
    if (is32)
      *static_cast<int32_t *>(data) = static_cast<int32_t>(integer);
    else
      *static_cast<int64_t *>(data) = integer;
    return llvm::Error::success();
  }
  case DType::F16:
  case DType::BF16:
  case DType::F32:
  case DType::F64:
    break;
  }
  const llvm::fltSemantics &semantics = floatSemantics(dtype);
  // nan, inf and infinity in any case, with a sign or not (as numpy reads
  // them).
  std::string special = text.lower();
  llvm::StringRef word = special;
  if (word.starts_with("+") || word.starts_with("-"))
    word = word.drop_front();
  if (word == "nan" || word == "inf" || word == "infinity")
    special = (text.starts_with("-") ? "-" : "") + word.take_front(3).str();
  else
    special = text.str();
  // APFloat reads a decimal exponent without digits ("1e", "1e+") as none.
  llvm::StringRef digits = llvm::StringRef(special).ltrim("+-");
  if (size_t e = digits.find_first_of("eE");
      e != llvm::StringRef::npos && !digits.starts_with_insensitive("0x")) {
    llvm::StringRef power = digits.drop_front(e + 1).ltrim("+-");
    if (power.empty() || !llvm::isDigit(power.front()))
      return llvm::createStringError("bad " + value);
  }
  // Straight from the text to the type: one rounding.
  llvm::APFloat number(semantics);
  llvm::Expected<llvm::APFloat::opStatus> status =
      number.convertFromString(special, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    return llvm::createStringError("bad " + value);
  }
  if (*status & llvm::APFloat::opOverflow)
    return llvm::createStringError(value + outOfRange(dtype));
  // The element's bytes are the low bytes of the value's bits (a
  // little-endian host, as the .npy reader requires).
  llvm::APInt bits = number.bitcastToAPInt();
  std::memcpy(data, bits.getRawData(), dtypeSize(dtype));
  return llvm::Error::success();
}

/// Sets all `count` elements of `data`, of type T, to the one at `element`.
template <typename T>
static void fillWith(void *data, int64_t count, const void *element) {
  T value;
  std::memcpy(&value, element, sizeof(T));
  std::fill_n(static_cast<T *>(data), count, value);
}

/// Builds argument `index` from `spec`, with the signature's dtype.
static llvm::Expected<HostArray> buildInput(llvm::StringRef spec,
                                            const TensorSpec &type,
                                            size_t index,
                                            std::mt19937_64 &rng) {
  std::string where = describeInput(spec, type, index);
  auto error = [&](const llvm::Twine &why) {
    return llvm::createStringError(where + ": " + why.str());
  };
  InputSource source = classifyInput(spec);
  spec = source.rest;
  std::optional<HostArray> fill;
  if (source.kind == InputSource::Fill) {
    fill.emplace(type.dtype, std::vector<int64_t>{});
    if (llvm::Error e = parseFillValue(source.value, *fill))
      return error(llvm::toString(std::move(e)));
  }
  if (source.kind == InputSource::File) {
    if (spec != "-" && !llvm::sys::fs::exists(spec))
      return error("no such file; an --input is a .npy file, rand:SHAPE "
                   "(random values), rand (a random 0-d array) or "
                   "fill:VALUE:SHAPE");
    llvm::Expected<HostArray> array = readNpy(spec);
    if (!array)
      return error(llvm::toString(array.takeError()));
    // numpy has no bfloat16: a float32 file feeds a bf16 argument.
    if (type.dtype == DType::BF16 && array->dtype() != DType::F32)
      return error("expected float32 data (rounded to bfloat16: numpy has no "
                   "bfloat16), got " +
                   dtypeName(array->dtype()));
    if (type.dtype == DType::BF16) {
      llvm::Expected<HostArray> converted = HostArray::create(
          DType::BF16,
          std::vector<int64_t>(array->shape().begin(), array->shape().end()));
      if (!converted)
        return error(llvm::toString(converted.takeError()));
      // Rounded to the nearest bf16, as a fill: value is; a finite value
      // that would round to infinity is an error there too.
      for (int64_t i = 0; i < array->numElements(); ++i) {
        double value = getAsDouble(*array, i);
        setFromDouble(*converted, i, value);
        if (std::isfinite(value) && std::isinf(getAsDouble(*converted, i))) {
          return error("element " + std::to_string(i) +
                       " of the float32 data, " + nineDigits(value) + "," +
                       outOfRange(DType::BF16));
        }
      }
      return converted;
    }
    return array;
  }
  llvm::Expected<std::vector<int64_t>> shape = parseShape(spec);
  if (!shape)
    return error(llvm::toString(shape.takeError()));
  llvm::Expected<HostArray> array = HostArray::create(type.dtype, *shape);
  if (!array)
    return error(llvm::toString(array.takeError()));
  int64_t n = array->numElements();
  if (fill) {
    switch (dtypeSize(type.dtype)) {
    case 1:
      fillWith<uint8_t>(array->data(), n, fill->data());
      break;
    case 2:
      fillWith<uint16_t>(array->data(), n, fill->data());
      break;
    case 4:
      fillWith<uint32_t>(array->data(), n, fill->data());
      break;
    default:
      fillWith<uint64_t>(array->data(), n, fill->data());
      break;
    }
    return array;
  }
  // [-1, 1) in the argument's type: a draw that rounds to 1 there, to
  // nearest even (from 1 - 2^-12 for f16's 11 bits: 16 in 100000 were 1),
  // is drawn again.
  int bits = type.dtype == DType::F16    ? 11
             : type.dtype == DType::BF16 ? 8
             : type.dtype == DType::F32  ? 24
                                         : 53;
  double below = 1.0 - std::ldexp(1.0, -(bits + 1));
  std::uniform_real_distribution<double> draw(-1.0, 1.0);
  auto real = [&](std::mt19937_64 &rng) {
    double value = draw(rng);
    while (value >= below)
      value = draw(rng);
    return value;
  };
  std::uniform_int_distribution<int64_t> integer(-100, 100);
  std::bernoulli_distribution coin(0.5);
  switch (type.dtype) {
  case DType::F32: {
    auto *data = static_cast<float *>(array->data());
    for (int64_t i = 0; i < n; ++i)
      data[i] = static_cast<float>(real(rng));
    break;
  }
  case DType::F64: {
    auto *data = static_cast<double *>(array->data());
    for (int64_t i = 0; i < n; ++i)
      data[i] = real(rng);
    break;
  }
  case DType::I32: {
    auto *data = static_cast<int32_t *>(array->data());
    for (int64_t i = 0; i < n; ++i)
      data[i] = static_cast<int32_t>(integer(rng));
    break;
  }
  case DType::I64: {
    auto *data = static_cast<int64_t *>(array->data());
    for (int64_t i = 0; i < n; ++i)
      data[i] = integer(rng);
    break;
  }
  case DType::Bool: {
    auto *data = static_cast<uint8_t *>(array->data());
    for (int64_t i = 0; i < n; ++i)
      data[i] = coin(rng);
    break;
  }
  case DType::F16:
  case DType::BF16:
    for (int64_t i = 0; i < n; ++i)
      setFromDouble(*array, i, real(rng));
    break;
  }
  return array;
}

/// Argument `index` from `spec`, checked against the signature here, so that
/// an error names the --input (a file's dtype, rank or size).
static llvm::Expected<HostArray> makeInput(llvm::StringRef spec,
                                           const TensorSpec &type, size_t index,
                                           std::mt19937_64 &rng) {
  llvm::Expected<HostArray> array = buildInput(spec, type, index, rng);
  if (!array)
    return array.takeError();
  if (std::optional<std::string> why =
          type.mismatch(array->dtype(), array->shape()))
    return llvm::createStringError(describeInput(spec, type, index) + ": " +
                                   *why);
  return array;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

static std::string formatValue(const HostArray &array, int64_t i) {
  double v = getAsDouble(array, i);
  if (array.dtype() == DType::Bool)
    return v != 0 ? "true" : "false";
  // Exactly: a double holds no int64 beyond 2^53.
  if (array.dtype() == DType::I64)
    return std::to_string(static_cast<const int64_t *>(array.data())[i]);
  if (array.dtype() == DType::I32)
    return std::to_string(static_cast<int64_t>(v));
  return withDigits(v, 6);
}

/// How results are named: `result 0: float32 [3x4]`.
static std::string describeResult(const HostArray &array, size_t index) {
  std::string shape;
  for (auto [i, size] : llvm::enumerate(array.shape()))
    shape += (i ? "x" : "") + std::to_string(size);
  return "result " + std::to_string(index) + ": " +
         dtypeName(array.dtype()).str() + " [" +
         (shape.empty() ? "scalar" : shape) + "]";
}

static void printResult(const HostArray &array, size_t index) {
  info() << describeResult(array, index) << " = [";
  int64_t n = array.numElements();
  constexpr int64_t kShown = 8;
  for (int64_t i = 0; i < std::min(n, kShown); ++i)
    info() << (i ? ", " : "") << formatValue(array, i);
  if (n > kShown)
    info() << ", ...";
  DType dtype = array.dtype();
  if (dtype == DType::I32 || dtype == DType::I64 || dtype == DType::Bool) {
    // Exactly: the sum of int64 values fits in 128 bits (bools: the count
    // of true ones).
    __int128 sum = 0;
    for (int64_t i = 0; i < n; ++i)
      sum += dtype == DType::I64 ? static_cast<const int64_t *>(array.data())[i]
                                 : static_cast<int64_t>(getAsDouble(array, i));
    bool negative = sum < 0;
    unsigned __int128 magnitude = negative
                                      ? -static_cast<unsigned __int128>(sum)
                                      : static_cast<unsigned __int128>(sum);
    std::string digits;
    do {
      digits.insert(digits.begin(), static_cast<char>('0' + magnitude % 10));
      magnitude /= 10;
    } while (magnitude);
    info() << "]  sum = " << (negative ? "-" : "") << digits << "\n";
    return;
  }
  // From the first element, as numpy's sum: negative zeros sum to -0, and
  // no elements to 0.
  double sum = n ? getAsDouble(array, 0) : 0.0;
  for (int64_t i = 1; i < n; ++i)
    sum += getAsDouble(array, i);
  info() << "]  sum = " << nineDigits(sum) << "\n";
}

/// Relative and absolute tolerance of fused vs eager results by dtype.
static std::pair<double, double> tolerance(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return {1e-3, 1e-3};
  case DType::BF16:
    return {1e-2, 1e-2};
  case DType::F32:
    return {1e-5, 1e-6};
  case DType::F64:
    return {1e-12, 1e-12};
  default:
    return {0, 0};
  }
}

/// Number of elements of `got` that differ from `want` beyond tolerance;
/// describes the first in `first`.
static int64_t compare(const HostArray &got, const HostArray &want,
                       std::string &first) {
  if (got.shape() != want.shape() || got.dtype() != want.dtype()) {
    first = "shapes or dtypes differ";
    return std::max<int64_t>(1, got.numElements());
  }
  auto [rtol, atol] = tolerance(got.dtype());
  int64_t bad = 0;
  for (int64_t i = 0; i < got.numElements(); ++i) {
    double a = getAsDouble(got, i), b = getAsDouble(want, i);
    bool same = (std::isnan(a) && std::isnan(b)) || a == b ||
                std::fabs(a - b) <= atol + rtol * std::fabs(b);
    if (same)
      continue;
    if (!bad++)
      first = llvm::formatv("element {0}: fused {1}, eager {2}", i,
                            formatValue(got, i), formatValue(want, i));
  }
  return bad;
}

//===----------------------------------------------------------------------===//
// Profile
//===----------------------------------------------------------------------===//

/// The table of `--profile`, then what it covers: the launches of the last
/// run, and the kernels of the program (`kernels`) it did not launch, over
/// no element (which the report counts).
static void printProfile(const ProfileSummary &profile, double copyBandwidth,
                         unsigned runs, bool warmedUp, bool fused,
                         bool emulated, llvm::ArrayRef<std::string> kernels,
                         const RunProfile &last) {
  info() << profile.table(copyBandwidth);
  std::set<int64_t> launched;
  for (const ProfileEvent &event : last.events)
    if (event.kind == ProfileEvent::Kind::Kernel)
      launched.insert(event.kernel);
  std::vector<llvm::StringRef> idle;
  for (auto [i, name] : llvm::enumerate(kernels))
    if (!launched.count(i))
      idle.push_back(name);
  info() << "kernels per run: " << profile.launchesPerRun() << " ("
         << (fused ? "fused" : "eager");
  if (!idle.empty())
    info() << "; " << joinInProse(idle) << (idle.size() == 1 ? " has" : " have")
           << " no element and " << (idle.size() == 1 ? "is" : "are")
           << " not launched";
  info() << "), " << fuse::plural(runs, "profiled run");
  if (copyBandwidth > 0)
    info() << llvm::formatv(", copy bandwidth {0:F1} GB/s", copyBandwidth);
  info() << "\n";
  if (emulated)
    info() << "times: the driver emulates the GPU on the host, and its times "
              "are its own, not measured\n";
  // A cold run's times are mostly its first touches of memory and the
  // threads' start (13 ms for add_relu of 1000 elements, against 2 us).
  if (!warmedUp)
    info() << "note: the one run is profiled cold, its first-run costs "
              "included; --repeat N profiles N - 1 runs after a warm-up\n";
}

/// Whether `a` and `b` name the same file, existing or not. Devices such as
/// /dev/null may be named more than once.
static bool sameFile(llvm::StringRef a, llvm::StringRef b) {
  for (llvm::StringRef path : {a, b})
    if (llvm::sys::fs::exists(path) && !llvm::sys::fs::is_regular_file(path))
      return false;
  // A symbolic link names its target, even one that does not exist yet
  // (which fs::equivalent does not see).
  auto normalized = [](llvm::StringRef path) {
    llvm::SmallString<256> text(path);
    llvm::sys::fs::make_absolute(text);
    llvm::sys::path::remove_dots(text, /*remove_dot_dot=*/true);
    for (int hops = 0; hops < 40 && llvm::sys::fs::is_symlink_file(text);
         ++hops) {
      char target[4096];
      ssize_t length = ::readlink(text.c_str(), target, sizeof(target));
      if (length <= 0 || length == static_cast<ssize_t>(sizeof(target)))
        break;
      llvm::StringRef link(target, length);
      llvm::SmallString<256> next;
      if (!llvm::sys::path::is_absolute(link))
        next = llvm::sys::path::parent_path(text);
      llvm::sys::path::append(next, link);
      llvm::sys::path::remove_dots(next, /*remove_dot_dot=*/true);
      text = next;
    }
    return text;
  };
  return normalized(a) == normalized(b) || llvm::sys::fs::equivalent(a, b);
}

/// Whether `path` is where standard output goes (`/dev/stdout`, or the
/// file that standard output was redirected to): written as `-`, since
/// opening it again would start a second writer at its first byte, over
/// what fuse-run says there.
static bool isStandardOutput(llvm::StringRef path) {
  if (path == "-")
    return true;
  // A device (a terminal, /dev/null) takes a second writer as it is.
  struct stat out, file;
  return ::fstat(STDOUT_FILENO, &out) == 0 && !S_ISCHR(out.st_mode) &&
         ::stat(path.str().c_str(), &file) == 0 && out.st_dev == file.st_dev &&
         out.st_ino == file.st_ino;
}

/// A file that fuse-run writes or reads: its path, how errors name it
/// (`--output x.npy (result 1)`, `the program f.mlir`) and its option alone
/// (`--output`, `--trace`, `--dump-ptx`, `--dump-asm`, `--input`, or none).
struct NamedFile {
  std::string path;
  std::string flag;
  std::string option;
};

/// The flags of the files that fuse-run writes besides its results.
static std::array<cl::opt<std::string> *, 3> fileFlags() {
  return {&traceFlag, &dumpPtxFlag, &dumpAsmFlag};
}

/// The file of --trace, --dump-ptx or --dump-asm.
static NamedFile fileOf(cl::opt<std::string> &flag) {
  std::string option = "--" + flag.ArgStr.str();
  return {flag, option + " " + flag, option};
}

/// The files that fuse-run writes (--output, --trace, --dump-ptx,
/// --dump-asm).
static std::vector<NamedFile> outputFiles() {
  std::vector<NamedFile> files;
  for (auto [i, path] : llvm::enumerate(outputFlags))
    files.push_back({path,
                     "--output " + path + " (result " + std::to_string(i) + ")",
                     "--output"});
  // Given, even empty (`--dump-asm=`: an error below, not no file).
  for (cl::opt<std::string> *flag : fileFlags())
    if (flag->getNumOccurrences())
      files.push_back(fileOf(*flag));
  return files;
}

/// The first problem with `files`: one that fuse-run cannot write, two
/// that are the same file, or one of --trace, --dump-ptx and --dump-asm
/// that is the program or an --input file, or an --output that is the
/// program (which it would overwrite, an input before it is read); or
/// std::nullopt. An --output may replace an --input file: inputs are read
/// before results are written.
static std::optional<std::string>
checkOutputs(llvm::ArrayRef<NamedFile> files) {
  for (const NamedFile &file : files)
    if (std::optional<std::string> why = cannotWrite(file.path))
      return file.flag + ": " + *why;
  for (size_t i = 0; i < files.size(); ++i)
    for (size_t j = i + 1; j < files.size(); ++j)
      if (sameFile(files[i].path, files[j].path))
        return files[i].flag + " and " + files[j].flag +
               " name the same file; give each its own";
  std::vector<NamedFile> read{{inputFile, "the program " + inputFile, ""}};
  for (const std::string &spec : inputFlags)
    if (classifyInput(spec).kind == InputSource::File)
      read.push_back({spec, "--input " + spec, "--input"});
  for (const NamedFile &file : files)
    for (const NamedFile &source : read)
      if ((file.option != "--output" || source.option.empty()) &&
          source.path != "-" && sameFile(file.path, source.path))
        return file.flag + " and " + source.flag +
               " name the same file, which it would overwrite; give it "
               "another";
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Main
//===----------------------------------------------------------------------===//

static int run(int argc, char **argv) {
  if (cl::Option *other = cl::getRegisteredOptions().lookup("threads"))
    other->removeArgument();
  threadsFlag();
  PipelineFlags pipelineFlags(runCategory);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "fuse-run: compile and run a fuse program\n");
  if (std::optional<std::string> repeated = fuse::optionUseError())
    return fail(*repeated);
  if (positionals.size() > 1) {
    llvm::StringRef extra = positionals[1];
    // The flag written just before the word, if any (`--check on`).
    llvm::StringRef flag;
    for (int i = 2; i < argc; ++i)
      if (extra == argv[i] && llvm::StringRef(argv[i - 1]).starts_with("-") &&
          !llvm::StringRef(argv[i - 1]).contains('='))
        flag = argv[i - 1];
    std::string hint =
        extra.starts_with("rand") || extra.starts_with("fill:") ||
                extra.ends_with(".npy")
            ? "'" + extra.str() + "' looks like an input: --input " +
                  extra.str()
        : !flag.empty()
            ? "a flag's value follows '=' (" + flag.str() + "=" + extra.str() +
                  "), and an input follows --input"
            : "a flag's value follows '=' (--fusion=off), and an input "
              "follows --input (--input rand:4)";
    return fail("fuse-run runs one program, and was given " +
                std::to_string(positionals.size()) + " (" +
                llvm::join(positionals, ", ") + "): " + hint);
  }
  inputFile = positionals.front();
  if (seedFlag.getNumOccurrences() &&
      llvm::none_of(inputFlags, [](const std::string &input) {
        return llvm::StringRef(input).starts_with("rand:");
      }))
    return fail("--seed seeds the rand: inputs, and no --input is rand:");
  if (entryFlag.getNumOccurrences() && namedEntry(entryFlag).empty())
    return fail("--entry='" + entryFlag +
                "' names no function: give its "
                "name, as --entry=NAME or --entry=@NAME");
  if (repeatFlag == 0)
    return fail("--repeat must be at least 1");
  std::optional<TargetRequest> target = targetOf(targetName);
  if (!target)
    return fail("--target takes auto, cuda or cpu, not '" + targetName + "'");
  TargetRequest targetFlag = *target;
  for (std::string &path : outputFlags)
    if (isStandardOutput(path))
      path = "-";
  for (cl::opt<std::string> *flag : fileFlags())
    if (!flag->empty() && isStandardOutput(*flag))
      *flag = "-";
  std::vector<NamedFile> files = outputFiles();
  if (std::optional<std::string> problem = checkOutputs(files))
    return fail(*problem);
  stdoutIsAFile = llvm::any_of(
      files, [](const NamedFile &file) { return file.path == "-"; });

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  // An error shows its source line; MLIR's note with the op in generic
  // form is for compiler developers (fuse-opt keeps it).
  context.printOpOnDiagnostic(false);
  std::string error;
  auto file = openInputFile(inputFile, &error);
  if (!file)
    return fail(error);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  // Errors as the compile step's (and the C API's): at a name location as
  // `"name": error:`, and no advice for flags fuse-run does not have.
  fuse::SourceLineCapture lines(sourceMgr, &context, llvm::errs());
  if (failed(fuse::checkNesting(sourceMgr, &context)))
    return 1;
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  RunOptions options;
  options.entry = entryFlag;
  options.entryOption = "--entry";
  options.source = &sourceMgr;
  options.pipeline = pipelineFlags.options();
  options.threads = threadsFlag();
  std::string note;
  // --dump-asm is the cpu target's code: with the default target, the run
  // (if one is asked for) is on the CPU too, whatever GPU there is.
  llvm::Expected<Target> chosen =
      !dumpAsmFlag.empty() && targetFlag == TargetRequest::Auto
          ? llvm::Expected<Target>(Target::CPU)
          : chooseTarget(targetFlag, note);
  if (!chosen)
    return fail(llvm::toString(chosen.takeError()));
  // A dump asked for alone (no --input, no flag of a run): it is what was
  // wanted, and where the run would have been is said only if one happens.
  bool runAsked = !inputFlags.empty() ||
                  llvm::any_of(flagsOfARun(), [](const cl::Option *flag) {
                    return flag->getNumOccurrences() > 0;
                  });
  bool dumpAsked = !dumpAsmFlag.empty() || !dumpPtxFlag.empty();
  std::string targetNote = note;
  if (!note.empty() && (runAsked || !dumpAsked)) {
    llvm::errs() << "fuse-run: " << note << "\n";
    targetNote.clear();
  }
  options.target = *chosen;
  // The cuda target compiles for the device's architecture unless told.
  if (options.target == Target::CUDA &&
      !pipelineFlags.given(PipelineOption::chip)) {
    llvm::Expected<std::string> chip = deviceChip();
    if (!chip)
      return fail(llvm::toString(chip.takeError()));
    options.pipeline.chip = *chip;
  }
  // A flag that the chosen target does not use: an error when the target
  // was asked for, a note when --target=auto chose it.
  std::string unused;
  if (options.target == Target::CPU && dumpPtxFlag.empty()) {
    std::vector<llvm::StringRef> flags = pipelineFlags.givenFlags(true);
    bool one = flags.size() == 1;
    if (!flags.empty())
      unused = joinInProse(flags) + (one ? " shapes" : " shape") +
               " only the GPU's kernels, and the run is on the CPU "
               "(--dump-ptx writes the PTX " +
               (one ? "it" : "they") + " shape" + (one ? "s" : "") + ")";
  }
  // --threads=0 is the default, which any target takes.
  if (options.target == Target::CUDA && threadsFlag() != 0)
    unused = "--threads sets the cpu target's threads, and the run is on the "
             "GPU";
  if (!unused.empty()) {
    if (targetFlag != TargetRequest::Auto)
      return fail(unused);
    llvm::errs() << "fuse-run: note: " << unused << "\n";
  }
  // Checked after the flags the target does not use, which are refused as
  // such (a --cuda-toolkit with no libdevice on the cpu target).
  if (llvm::Error error = checkPipelineOptions(options.pipeline))
    return fail(llvm::toString(std::move(error)));
  if (checkFlag && !options.pipeline.fusion)
    return fail("--check compares the fused program's results with its "
                "eager form's (--fusion=off), and with --fusion=off there is "
                "no fused program to check: drop one of them");

  if (!dumpAsmFlag.empty() && options.target != Target::CPU)
    return fail("--dump-asm needs --target=cpu (the cuda target's kernels "
                "are PTX: --dump-ptx)");
  if (!cpuFlag.empty() && dumpAsmFlag.empty())
    return fail("--cpu names the CPU that --dump-asm compiles for; the "
                "host's code cannot run on another CPU");
  if (!cpuFlag.empty()) {
    // Nothing runs: the flags of a run would be ignored.
    std::vector<std::string> given;
    std::vector<const cl::Option *> flags{
        static_cast<const cl::Option *>(std::addressof(inputFlags))};
    llvm::append_range(flags, flagsOfARun());
    flags.push_back(&threadsFlag());
    for (const cl::Option *flag : flags)
      if (flag->getNumOccurrences())
        given.push_back("--" + flag->ArgStr.str());
    std::vector<llvm::StringRef> runFlags(given.begin(), given.end());
    if (!runFlags.empty())
      return fail(joinInProse(runFlags) +
                  (runFlags.size() == 1 ? " applies" : " apply") +
                  " to a run, and --cpu compiles for another CPU without "
                  "running: drop --cpu to run on this one");
  }

  // The dumps are written once the run's inputs are made (or when nothing
  // runs, or when the program does not compile for the run, where the PTX
  // shows why): a bad --input leaves no file behind.
  std::vector<std::pair<NamedFile, std::string>> dumps;
  auto writeDumps = [&] {
    for (auto &[file, contents] : dumps)
      if (int status = writeOutput(file.option, file.path, contents))
        return status;
    dumps.clear();
    return 0;
  };
  if (!dumpPtxFlag.empty()) {
    // The PTX of what runs: the entry's kernels, named as in the module
    // (as the report and the profile name them), not the other functions'.
    OwningOpRef<ModuleOp> clone = module->clone();
    PipelineOptions ptxOptions = options.pipeline;
    if (!entryFlag.empty()) {
      std::string entry = namedEntry(entryFlag);
      ptxOptions.firstKernel = kernelsBefore(*module, entry, ptxOptions);
      for (func::FuncOp other :
           llvm::make_early_inc_range(clone->getOps<func::FuncOp>()))
        if (other.getSymName() != entry)
          other.erase();
    }
    FailureOr<std::string> ptx = compilePTX(*clone, ptxOptions);
    if (failed(ptx))
      return 1;
    if (ptx->empty())
      llvm::errs() << "fuse-run: note: --dump-ptx: " << noPTXReason(true)
                   << "\n";
    dumps.push_back({fileOf(dumpPtxFlag), *ptx});
  }

  if (!dumpAsmFlag.empty()) {
    options.cpu = cpuFlag;
    llvm::Expected<std::string> assembly =
        Executable::assemble(*module, options);
    if (!assembly)
      return failCompile(assembly.takeError());
    dumps.push_back({fileOf(dumpAsmFlag), *assembly});
    // Code for another CPU is for reading only.
    if (!cpuFlag.empty())
      return writeDumps();
  }

  // A driver too old for the PTX, say: --target=auto runs on the CPU.
  note.clear();
  llvm::Expected<std::unique_ptr<Executable>> executable =
      compileForRequest(*module, options, targetFlag, note);
  if (!note.empty())
    llvm::errs() << "fuse-run: " << note << "\n";
  if (!executable) {
    if (int status = writeDumps())
      return status;
    return failCompile(executable.takeError());
  }
  const std::vector<TensorSpec> &signature = (*executable)->inputs();
  // A dump asked for alone, of a function with arguments: nothing runs.
  if (!runAsked && dumpAsked && !signature.empty()) {
    if (int status = writeDumps())
      return status;
    llvm::errs() << "fuse-run: note: nothing runs: @" << (*executable)->name()
                 << " takes " << plural(signature.size(), "argument")
                 << " and no --input was given\n";
    return 0;
  }
  if (!targetNote.empty())
    llvm::errs() << "fuse-run: " << targetNote << "\n";
  if (inputFlags.size() != signature.size())
    return fail(fuse::symbolText((*executable)->name()) + " takes " +
                plural(signature.size(), "argument") + ", but " +
                std::to_string(inputFlags.size()) + " --input " +
                (inputFlags.size() == 1 ? "was" : "were") + " given");
  if (!outputFlags.empty() &&
      outputFlags.size() != (*executable)->results().size())
    return fail(fuse::symbolText((*executable)->name()) + " has " +
                plural((*executable)->results().size(), "result") + ", but " +
                std::to_string(outputFlags.size()) + " --output " +
                (outputFlags.size() == 1 ? "was" : "were") + " given");

  if (std::optional<std::string> error =
          checkInputMemory(inputFlags, signature))
    return fail(*error);
  std::mt19937_64 rng(seedFlag);
  std::vector<HostArray> inputs;
  for (auto [i, spec] : llvm::enumerate(inputFlags)) {
    llvm::Expected<HostArray> array = makeInput(spec, signature[i], i, rng);
    if (!array)
      return fail(llvm::toString(array.takeError()));
    inputs.push_back(std::move(*array));
  }
  if (int status = writeDumps())
    return status;
  std::vector<const HostArray *> inputPointers;
  for (const HostArray &array : inputs)
    inputPointers.push_back(&array);

  ProfileSummary profile(/*traced=*/!traceFlag.empty());
  std::vector<HostArray> results;
  for (unsigned run = 0; run < repeatFlag; ++run) {
    // The run before's results go back to the runtime's cache of host
    // buffers first, which this run's results then take: the profiled runs
    // touch memory the warm-up touched, not fresh pages (the first
    // profiled run of add_relu at 4e6 took 2-4 times as long as the others
    // with the warm-up's results still held).
    results.clear();
    llvm::Expected<std::vector<HostArray>> outputs =
        (*executable)->run(inputPointers);
    if (!outputs)
      return fail(llvm::toString(outputs.takeError()));
    if (run > 0 || repeatFlag == 1)
      profile.add((*executable)->profile(), run);
    results = std::move(*outputs);
  }

  int status = 0;
  if (checkFlag) {
    RunOptions eagerOptions = options;
    eagerOptions.pipeline.fusion = false;
    llvm::Expected<std::unique_ptr<Executable>> eager =
        Executable::compile(*module, eagerOptions);
    if (!eager)
      return failCompile(eager.takeError());
    llvm::Expected<std::vector<HostArray>> expected =
        (*eager)->run(inputPointers);
    if (!expected)
      return fail(llvm::toString(expected.takeError()));
    for (auto [i, got] : llvm::enumerate(results)) {
      std::string first;
      int64_t bad = compare(got, (*expected)[i], first);
      if (bad) {
        llvm::errs() << "fuse-run: check failed: result " << i << ": " << bad
                     << " of " << got.numElements()
                     << " elements differ from eager; " << first << "\n";
        status = 1;
      } else {
        info() << "check: result " << i << " matches eager ("
               << fuse::plural(got.numElements(), "element") << ")\n";
      }
    }
  }

  if (!outputFlags.empty()) {
    // Every result is written beside its file first, then all replace
    // theirs: a failure (a full disk) leaves every --output as it was.
    std::vector<std::string> staged;
    for (auto [i, path] : llvm::enumerate(outputFlags)) {
      llvm::Expected<std::string> file = writeNpyStaged(path, results[i]);
      if (!file) {
        for (auto [done, written] : llvm::zip(staged, outputFlags))
          discardStaged(done, written);
        return fail("--output " + path + " (result " + std::to_string(i) +
                    "): " + llvm::toString(file.takeError()));
      }
      staged.push_back(std::move(*file));
    }
    for (auto [i, path] : llvm::enumerate(outputFlags)) {
      if (llvm::Error e = commitStaged(staged[i], path)) {
        for (size_t j = i + 1; j < staged.size(); ++j)
          discardStaged(staged[j], outputFlags[j]);
        return fail("--output " + path + " (result " + std::to_string(i) +
                    "): " + llvm::toString(std::move(e)));
      }
      info() << "wrote " << describeResult(results[i], i) << " to " << path
             << (results[i].dtype() == DType::BF16
                     ? " (as float32: numpy has no bfloat16)"
                     : "")
             << "\n";
    }
  } else {
    for (auto [i, result] : llvm::enumerate(results))
      printResult(result, i);
  }

  if (profileFlag)
    printProfile(profile,
                 measureCopyBandwidth(options.target, (*executable)->threads()),
                 repeatFlag > 1 ? repeatFlag - 1 : 1, repeatFlag > 1,
                 options.pipeline.fusion, (*executable)->emulatedGPU(),
                 (*executable)->kernelNames(), (*executable)->profile());
  if (!traceFlag.empty()) {
    std::string json = llvm::formatv("{0:2}", profile.chromeTrace());
    if (int status = writeOutput("--trace", traceFlag, json))
      return status;
  }
  return status;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  initTool("fuse-run", argc, argv, /*stackDump=*/false);
  int status = run(argc, argv);
  // What was said on standard output (results, the profile, checks) and
  // could not be written: an error now, not LLVM's fatal one at exit.
  if (std::error_code ec = finishOutput(llvm::outs(), "-")) {
    fail("cannot write standard output: " + ec.message());
    return 1;
  }
  return status;
}
