//===- Npy.cpp - host arrays and the numpy .npy file format ----*- C++ -*-===//
//
// File layout (numpy.lib.format): the magic "\x93NUMPY", a major and a minor
// version byte, the header length (u16 for 1.0, u32 for 2.0 and 3.0, little
// endian), the header, then the raw data. The header is a Python dict literal
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// padded with spaces and ended by '\n'.
//
//===----------------------------------------------------------------------===//

#include "fuse/Support/Npy.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/EndianStream.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

using namespace fuse;
using llvm::StringRef;

static_assert(llvm::sys::IsLittleEndianHost,
              "the .npy reader and writer assume a little-endian host");

static constexpr StringRef kMagic("\x93NUMPY", 6);

//===----------------------------------------------------------------------===//
// HostArray
//===----------------------------------------------------------------------===//

/// The elements of `shape`'s sizes that are not 0, when they and their
/// bytes of `dtype` fit in int64 (and size_t): numpy's bound for an array
/// of any shape, a size of 0 among them or not ((0, 2^62) of float32 is
/// "array is too big" to numpy).
static std::optional<uint64_t> nonZeroElements(llvm::ArrayRef<int64_t> shape,
                                               DType dtype) {
  const uint64_t limit = std::min<uint64_t>(std::numeric_limits<int64_t>::max(),
                                            std::numeric_limits<size_t>::max());
  uint64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    if (dim == 0)
      continue;
    if (count > limit / static_cast<uint64_t>(dim))
      return std::nullopt;
    count *= static_cast<uint64_t>(dim);
  }
  if (count > limit / dtypeSize(dtype))
    return std::nullopt;
  return count;
}

/// The element count of `shape`, or std::nullopt for a negative size or a
/// byte size past int64. A program's array may have any other size huge
/// when one is 0 (an .npy file's may not: parseLayout).
static std::optional<int64_t> checkedNumElements(llvm::ArrayRef<int64_t> shape,
                                                 DType dtype) {
  if (llvm::any_of(shape, [](int64_t dim) { return dim < 0; }))
    return std::nullopt;
  if (llvm::is_contained(shape, 0))
    return 0;
  std::optional<uint64_t> count = nonZeroElements(shape, dtype);
  if (!count)
    return std::nullopt;
  return static_cast<int64_t>(*count);
}

/// Zero-filled aligned storage for `bytes` bytes (at least one block, so
/// that data() is never null); null when out of memory.
static void *allocateStorage(size_t bytes) {
  bytes = std::max<size_t>(llvm::alignTo(bytes, HostArray::kAlignment),
                           HostArray::kAlignment);
  void *ptr = std::aligned_alloc(HostArray::kAlignment, bytes);
  if (ptr)
    std::memset(ptr, 0, bytes);
  return ptr;
}

HostArray::HostArray(DType dtype, std::vector<int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)), storage_(nullptr, Free()) {
  std::optional<int64_t> count = checkedNumElements(shape_, dtype_);
  assert(count && "negative dimension or byte size overflow");
  numElements_ = count.value_or(0);
  void *ptr = allocateStorage(sizeInBytes());
  if (!ptr)
    llvm::report_bad_alloc_error("fuse::HostArray: out of memory");
  storage_.reset(ptr);
}

HostArray::HostArray(Adopt, DType dtype, std::vector<int64_t> shape,
                     int64_t count, void *storage, void (*free)(void *))
    : dtype_(dtype), shape_(std::move(shape)), numElements_(count),
      storage_(storage, Free{free}) {}

HostArray HostArray::adopt(DType dtype, std::vector<int64_t> shape,
                           void *storage, void (*free)(void *)) {
  std::optional<int64_t> count = checkedNumElements(shape, dtype);
  assert(count && storage && "adopting an invalid array");
  return HostArray(Adopt{}, dtype, std::move(shape), count.value_or(0), storage,
                   free);
}

llvm::Expected<HostArray> HostArray::create(DType dtype,
                                            std::vector<int64_t> shape) {
  std::optional<int64_t> count = checkedNumElements(shape, dtype);
  if (!count)
    return llvm::createStringError(
        "invalid shape for a %s array: a negative dimension or more than "
        "2^63 - 1 bytes",
        dtypeName(dtype).data());
  size_t bytes = *count * dtypeSize(dtype);
  void *ptr = allocateStorage(bytes);
  if (!ptr)
    return llvm::createStringError(
        "cannot allocate %zu bytes of host memory for a %s array", bytes,
        dtypeName(dtype).data());
  return HostArray(Adopt{}, dtype, std::move(shape), *count, ptr);
}

//===----------------------------------------------------------------------===//
// Header parsing
//===----------------------------------------------------------------------===//

namespace {
struct Header {
  std::optional<std::string> descr;
  std::optional<bool> fortranOrder;
  std::optional<std::vector<int64_t>> shape;
};

/// A recursive-descent parser for the subset of Python literals that .npy
/// headers use: a dict of string keys to strings, True/False and tuples of
/// integers. Every read goes through StringRef, which checks bounds.
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : text(text), rest(text) {}

  llvm::Expected<Header> parse();

private:
  llvm::Error error(const llvm::Twine &what) const {
    return llvm::createStringError("malformed header: " + what + " at offset " +
                                   llvm::Twine(text.size() - rest.size()));
  }
  void skipSpace() { rest = rest.ltrim(" \t\r\n"); }
  bool consume(char c) {
    skipSpace();
    return rest.consume_front(StringRef(&c, 1));
  }
  llvm::Error parseString(std::string &out);
  llvm::Error parseBool(bool &out);
  llvm::Error parseShape(std::vector<int64_t> &out);

  StringRef text;
  StringRef rest;
};
} // namespace

/// `s` quoted and escaped for an error message, cut short if long.
static std::string quote(StringRef s) {
  constexpr size_t kMaxLength = 40;
  std::string out;
  llvm::raw_string_ostream os(out);
  os << '\'';
  llvm::printEscapedString(s.take_front(kMaxLength), os);
  os << (s.size() > kMaxLength ? "...'" : "'");
  return out;
}

llvm::Error HeaderParser::parseString(std::string &out) {
  skipSpace();
  if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
    return error("expected a string");
  char quoteChar = rest.front();
  rest = rest.drop_front();
  size_t end = rest.find(quoteChar);
  if (end == StringRef::npos)
    return error("unterminated string");
  StringRef value = rest.take_front(end);
  // No .npy header needs escapes; refusing them keeps the value literal.
  if (value.contains('\\'))
    return error("escape sequence in string");
  out = value.str();
  rest = rest.drop_front(end + 1);
  return llvm::Error::success();
}

llvm::Error HeaderParser::parseBool(bool &out) {
  skipSpace();
  if (rest.consume_front("True"))
    out = true;
  else if (rest.consume_front("False"))
    out = false;
  else
    return error("expected True or False");
  return llvm::Error::success();
}

llvm::Error HeaderParser::parseShape(std::vector<int64_t> &out) {
  const char *notATuple = "'shape' is not a tuple of non-negative integers";
  if (!consume('('))
    return error(notATuple);
  bool trailingComma = false;
  while (!consume(')')) {
    skipSpace();
    if (rest.starts_with("-"))
      return error("'shape' has a negative dimension");
    StringRef digits = rest.take_while(llvm::isDigit);
    if (digits.empty())
      return error(notATuple);
    uint64_t dim;
    if (digits.getAsInteger(10, dim) ||
        dim > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return error("'shape' has a dimension too large for int64");
    rest = rest.drop_front(digits.size());
    // Python 2 numpy wrote long integers as `3L`.
    rest.consume_front("L");
    out.push_back(static_cast<int64_t>(dim));
    trailingComma = consume(',');
    if (!trailingComma) {
      if (!consume(')'))
        return error(notATuple);
      break;
    }
  }
  // `(3)` is an integer in Python, not a tuple.
  if (out.size() == 1 && !trailingComma)
    return error(notATuple);
  return llvm::Error::success();
}

llvm::Expected<Header> HeaderParser::parse() {
  Header header;
  if (!consume('{'))
    return error("the header is not a Python dict literal; expected '{'");
  while (!consume('}')) {
    std::string key;
    if (llvm::Error err = parseString(key))
      return std::move(err);
    if (!consume(':'))
      return error("expected ':' after key " + quote(key));
    if (key == "descr") {
      if (header.descr)
        return error("duplicate key 'descr'");
      skipSpace();
      if (rest.starts_with("["))
        return error("structured dtypes ('descr' is a list) are not supported");
      if (llvm::Error err = parseString(header.descr.emplace()))
        return std::move(err);
    } else if (key == "fortran_order") {
      if (header.fortranOrder)
        return error("duplicate key 'fortran_order'");
      if (llvm::Error err = parseBool(header.fortranOrder.emplace()))
        return std::move(err);
    } else if (key == "shape") {
      if (header.shape)
        return error("duplicate key 'shape'");
      if (llvm::Error err = parseShape(header.shape.emplace()))
        return std::move(err);
    } else {
      return error("unexpected key " + quote(key) +
                   "; the keys are 'descr', 'fortran_order' and 'shape'");
    }
    if (!consume(',')) {
      if (!consume('}'))
        return error("expected ',' or '}'");
      break;
    }
  }
  skipSpace();
  if (!rest.empty())
    return error("unexpected text after the dict");
  for (auto [present, key] :
       {std::pair(header.descr.has_value(), "descr"),
        std::pair(header.fortranOrder.has_value(), "fortran_order"),
        std::pair(header.shape.has_value(), "shape")})
    if (!present)
      return llvm::createStringError("header has no '" + llvm::Twine(key) +
                                     "' key");
  return header;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

static constexpr StringRef kSupportedDescrs =
    "'<f2' (float16), '<f4' (float32), '<f8' (float64), '<i4' (int32), '<i8' "
    "(int64), '|b1' (bool)";

/// The dtype of a descr such as '<f4', or an error that says why not.
static llvm::Expected<DType> parseDescr(StringRef descr) {
  auto unsupported = [&](StringRef hint) {
    return llvm::createStringError("unsupported dtype " + quote(descr) +
                                   "; supported: " + kSupportedDescrs + hint);
  };
  // numpy's character code of bool, which np.dtype reads as '|b1'.
  if (descr == "?" || descr == "|?")
    return DType::Bool;
  if (descr.size() < 2)
    return unsupported("");
  // numpy reads a descr without a byte order ('f4') as native.
  bool ordered = !llvm::isAlpha(descr.front());
  char order = ordered ? descr.front() : '=';
  StringRef type = ordered ? descr.drop_front() : descr;
  std::optional<DType> dtype = llvm::StringSwitch<std::optional<DType>>(type)
                                   .Case("f2", DType::F16)
                                   .Case("f4", DType::F32)
                                   .Case("f8", DType::F64)
                                   .Case("i4", DType::I32)
                                   .Case("i8", DType::I64)
                                   .Case("b1", DType::Bool)
                                   .Default(std::nullopt);
  if (!dtype) {
    if (type == "V2")
      return unsupported(" (a bfloat16 array from ml_dtypes is saved as '<V2'; "
                         "save it with arr.astype(np.float32))");
    return unsupported("");
  }
  // Byte order does not apply to one-byte types.
  if (*dtype == DType::Bool && StringRef("<>=|").contains(order))
    return *dtype;
  if (order == '>')
    return llvm::createStringError("non-native byte order " + quote(descr) +
                                   " is not supported; use arr.astype('<" +
                                   type + "')");
  if (order != '<' && order != '=')
    return unsupported("");
  return *dtype;
}

/// `array`, with each bool byte other than 0 made 1: numpy reads any
/// nonzero byte as True (and casts it to 1), and fuse's kernels take a
/// bool's byte as it is (a cast to i32 would give 2).
static HostArray normalizeBools(HostArray array) {
  if (array.dtype() == DType::Bool) {
    auto *bytes = static_cast<uint8_t *>(array.data());
    for (int64_t i = 0; i < array.numElements(); ++i)
      bytes[i] = bytes[i] != 0;
  }
  return array;
}

/// Copies the elements of `T` in `source`, a Fortran-order (column-major)
/// array of `array`'s shape, into `array` in C order.
template <typename T>
static void copyFromFortranOrder(HostArray &array, const char *source) {
  llvm::ArrayRef<int64_t> shape = array.shape();
  size_t rank = shape.size();
  // Element (i0, i1, ...) is element i0 + n0 * (i1 + n1 * (...)) of the file.
  std::vector<int64_t> strides(rank), index(rank, 0);
  int64_t stride = 1;
  for (size_t d = 0; d < rank; ++d) {
    strides[d] = stride;
    stride *= shape[d];
  }
  T *out = static_cast<T *>(array.data());
  int64_t offset = 0;
  for (int64_t i = 0, e = array.numElements(); i < e; ++i) {
    std::memcpy(&out[i], source + offset * sizeof(T), sizeof(T));
    // The next index in C order: the last dimension first.
    for (size_t d = rank; d-- > 0;) {
      offset += strides[d];
      if (++index[d] < shape[d])
        break;
      offset -= strides[d] * shape[d];
      index[d] = 0;
    }
  }
}

static std::string formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string out = "(";
  for (int64_t dim : shape)
    out += std::to_string(dim) + (shape.size() == 1 ? "," : ", ");
  if (shape.size() > 1)
    out.resize(out.size() - 2);
  return out + ")";
}

namespace {
/// What an .npy file's prefix and header say: its header, dtype and
/// element count, and where its data starts.
struct Layout {
  Header header;
  DType dtype;
  int64_t numElements;
  uint64_t dataOffset;
  uint64_t dataBytes() const {
    return static_cast<uint64_t>(numElements) * dtypeSize(dtype);
  }
};
} // namespace

/// The layout of the .npy file that `bytes` begins; an error when they
/// are no .npy file or end before its header does.
static llvm::Expected<Layout> parseLayout(StringRef bytes) {
  auto fail = [](const llvm::Twine &what) {
    return llvm::createStringError(what);
  };
  // numpy's np.savez writes a zip archive of .npy files.
  if (bytes.starts_with(StringRef("PK\x03\x04", 4)))
    return fail("a zip archive (numpy's .npz), not an .npy file: give each "
                "array as an .npy file of its own (np.save)");
  if (!bytes.starts_with(kMagic.take_front(bytes.size())) ||
      (bytes.size() >= kMagic.size() && !bytes.starts_with(kMagic)))
    return fail("not an .npy file (bad magic; expected \"\\x93NUMPY\")");
  // Magic, version and the shortest header length field.
  if (bytes.size() < kMagic.size() + 4)
    return fail("too short for an .npy file (" + llvm::Twine(bytes.size()) +
                " bytes)");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  unsigned minor = static_cast<uint8_t>(bytes[7]);
  if (minor != 0 || major < 1 || major > 3)
    return fail("unsupported .npy format version " + llvm::Twine(major) + "." +
                llvm::Twine(minor) + " (supported: 1.0, 2.0, 3.0)");
  size_t lengthSize = major == 1 ? 2 : 4;
  size_t prefixSize = kMagic.size() + 2 + lengthSize;
  if (bytes.size() < prefixSize)
    return fail("too short for an .npy file (" + llvm::Twine(bytes.size()) +
                " bytes)");
  uint64_t headerSize = major == 1
                            ? llvm::support::endian::read16le(bytes.data() + 8)
                            : llvm::support::endian::read32le(bytes.data() + 8);
  if (headerSize > bytes.size() - prefixSize)
    return fail("header length " + llvm::Twine(headerSize) +
                " runs past the end of the file (" + llvm::Twine(bytes.size()) +
                " bytes)");

  llvm::Expected<Header> header =
      HeaderParser(bytes.substr(prefixSize, headerSize)).parse();
  if (!header)
    return header.takeError();
  llvm::Expected<DType> dtype = parseDescr(*header->descr);
  if (!dtype)
    return dtype.takeError();
  // numpy's bound, a size of 0 among the sizes or not.
  std::optional<uint64_t> count = nonZeroElements(*header->shape, *dtype);
  if (!count)
    return fail("shape " + formatShape(*header->shape) + " of " +
                dtypeName(*dtype) + " is too large");
  int64_t numElements =
      llvm::is_contained(*header->shape, 0) ? 0 : static_cast<int64_t>(*count);

  return Layout{std::move(*header), *dtype, numElements,
                prefixSize + headerSize};
}

/// The error of an .npy file whose data ends early.
static llvm::Error truncated(uint64_t expected, uint64_t found) {
  return llvm::createStringError("truncated: expected " +
                                 llvm::Twine(expected) +
                                 " bytes of data, found " + llvm::Twine(found));
}

llvm::Expected<HostArray> fuse::parseNpy(StringRef bytes) {
  llvm::Expected<Layout> layout = parseLayout(bytes);
  if (!layout)
    return layout.takeError();
  Header &header = layout->header;
  DType dtype = layout->dtype;
  uint64_t expected = layout->dataBytes();
  StringRef data = bytes.drop_front(layout->dataOffset);
  if (data.size() < expected)
    return truncated(expected, data.size());
  HostArray array(dtype, std::move(*header.shape));
  // With at most one dimension larger than 1, both orders are the same.
  bool sameOrder =
      llvm::count_if(array.shape(), [](int64_t size) { return size > 1; }) <= 1;
  if (!*header.fortranOrder || sameOrder) {
    std::memcpy(array.data(), data.data(), expected);
    return normalizeBools(std::move(array));
  }
  switch (dtypeSize(dtype)) {
  case 1:
    copyFromFortranOrder<uint8_t>(array, data.data());
    break;
  case 2:
    copyFromFortranOrder<uint16_t>(array, data.data());
    break;
  case 4:
    copyFromFortranOrder<uint32_t>(array, data.data());
    break;
  case 8:
    copyFromFortranOrder<uint64_t>(array, data.data());
    break;
  default:
    llvm_unreachable("no dtype has this size");
  }
  return normalizeBools(std::move(array));
}

/// The bytes of a device or a pipe (`<(python make.py)`), read until its end,
/// or until they cannot begin an .npy file: /dev/zero was read until memory
/// ran out.
static llvm::Expected<std::string> readStream(StringRef path) {
  namespace fs = llvm::sys::fs;
  llvm::Expected<fs::file_t> file = fs::openNativeFileForRead(path);
  if (!file)
    return file.takeError();
  std::string bytes;
  std::vector<char> chunk(1 << 16);
  while (true) {
    llvm::Expected<size_t> read = fs::readNativeFile(*file, chunk);
    if (!read) {
      fs::closeFile(*file);
      return read.takeError();
    }
    if (*read == 0)
      break;
    bytes.append(chunk.data(), *read);
    if (!StringRef(bytes).starts_with(
            kMagic.take_front(std::min(bytes.size(), kMagic.size()))))
      break; // parseNpy says why
    // As much as the header says, as numpy reads (a stream that goes on,
    // a header and then /dev/zero, was read until memory ran out); a
    // header that does not parse in its first MiB is said by parseNpy.
    llvm::Expected<Layout> layout = parseLayout(bytes);
    if (layout) {
      uint64_t total = layout->dataOffset + layout->dataBytes();
      if (bytes.size() >= total) {
        bytes.resize(total);
        break;
      }
    } else {
      llvm::consumeError(layout.takeError());
      if (bytes.size() > (1u << 20))
        break;
    }
  }
  fs::closeFile(*file);
  return bytes;
}

/// The array of the regular file `path`, its data read straight into the
/// array's memory: mapping the file and copying it took twice its size.
/// None when parseNpy must say more (a file that does not begin an .npy
/// file, or ends before its data does) or rearrange it (Fortran order).
static llvm::Expected<std::optional<HostArray>>
readFileDirectly(StringRef path) {
  namespace fs = llvm::sys::fs;
  llvm::Expected<fs::file_t> file = fs::openNativeFileForRead(path);
  if (!file) {
    llvm::consumeError(file.takeError());
    return std::nullopt;
  }
  llvm::scope_exit close([&] { fs::closeFile(*file); });
  // The prefix and header, and what follows them in the chunks read.
  std::string head;
  std::vector<char> chunk(1 << 16);
  std::optional<Layout> layout;
  while (!layout && head.size() <= (1u << 20)) {
    llvm::Expected<size_t> read = fs::readNativeFile(*file, chunk);
    if (!read) {
      llvm::consumeError(read.takeError());
      return std::nullopt;
    }
    if (*read == 0)
      return std::nullopt;
    head.append(chunk.data(), *read);
    llvm::Expected<Layout> parsed = parseLayout(head);
    if (parsed)
      layout = std::move(*parsed);
    else
      llvm::consumeError(parsed.takeError());
  }
  if (!layout)
    return std::nullopt;
  // A file shorter than its header says is refused before its array is
  // made: a header of 3e9 floats in 153 bytes took 12 GB and 18 s to be
  // called truncated, and one of 1e12 said it could not be allocated.
  uint64_t size = 0;
  if (!fs::file_size(path, size) && size >= layout->dataOffset &&
      size - layout->dataOffset < layout->dataBytes())
    return truncated(layout->dataBytes(), size - layout->dataOffset);
  std::vector<int64_t> &shape = *layout->header.shape;
  // With at most one dimension larger than 1, both orders are the same.
  if (*layout->header.fortranOrder &&
      llvm::count_if(shape, [](int64_t size) { return size > 1; }) > 1)
    return std::nullopt;
  llvm::Expected<HostArray> array =
      HostArray::create(layout->dtype, std::move(shape));
  if (!array)
    return array.takeError();
  char *data = static_cast<char *>(array->data());
  uint64_t expected = layout->dataBytes();
  uint64_t have =
      std::min<uint64_t>(head.size() - layout->dataOffset, expected);
  std::memcpy(data, head.data() + layout->dataOffset, have);
  while (have < expected) {
    size_t want = std::min<uint64_t>(expected - have, uint64_t(1) << 30);
    llvm::Expected<size_t> read = fs::readNativeFile(
        *file, llvm::MutableArrayRef<char>(data + have, want));
    if (!read) {
      llvm::consumeError(read.takeError());
      return std::nullopt;
    }
    if (*read == 0)
      return std::nullopt; // parseNpy says it is truncated
    have += *read;
  }
  return normalizeBools(std::move(*array));
}

llvm::Expected<HostArray> fuse::readNpy(StringRef path) {
  // A device or a pipe is read as readStream reads it; a file's data into
  // the array (readFileDirectly), and a file that parseNpy must say more
  // about (or what cannot be read, which getFile says) as a whole.
  std::string streamed;
  std::unique_ptr<llvm::MemoryBuffer> file;
  StringRef bytes;
  llvm::sys::fs::file_status status;
  if (!llvm::sys::fs::status(path, status) &&
      status.type() != llvm::sys::fs::file_type::regular_file &&
      status.type() != llvm::sys::fs::file_type::directory_file) {
    llvm::Expected<std::string> read = readStream(path);
    if (!read)
      return llvm::createFileError(path, read.takeError());
    streamed = std::move(*read);
    bytes = streamed;
  } else {
    llvm::Expected<std::optional<HostArray>> direct = readFileDirectly(path);
    if (!direct)
      return llvm::createFileError(path, direct.takeError());
    if (*direct)
      return std::move(**direct);
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
    if (!buffer)
      return llvm::createFileError(path, buffer.getError());
    file = std::move(*buffer);
    bytes = file->getBuffer();
  }
  llvm::Expected<HostArray> array = parseNpy(bytes);
  if (!array)
    return llvm::createFileError(path, array.takeError());
  return array;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

/// The header numpy's format.write_array would write for a C-order array:
/// version, header length and dict, padded so that the data is 64-aligned.
static std::string makeHeader(StringRef descr, llvm::ArrayRef<int64_t> shape) {
  std::string dict =
      "{'descr': '" + descr.str() +
      "', 'fortran_order': False, 'shape': " + formatShape(shape) + ", }";
  // numpy leaves room for the first dimension to grow to 21 digits in place.
  if (!shape.empty())
    dict.append(21 - std::to_string(shape.front()).size(), ' ');
  for (unsigned major : {1, 2}) {
    size_t prefixSize = kMagic.size() + 2 + (major == 1 ? 2 : 4);
    // Always at least the '\n', and a full 64 bytes of padding when already
    // aligned, as numpy does.
    size_t padding = 64 - (prefixSize + dict.size() + 1) % 64;
    size_t headerSize = dict.size() + padding + 1;
    if (major == 1 && headerSize > 0xFFFF)
      continue;
    std::string out = kMagic.str();
    out.push_back(static_cast<char>(major));
    out.push_back(0);
    char length[4];
    llvm::support::endian::write32le(length, static_cast<uint32_t>(headerSize));
    out.append(length, major == 1 ? 2 : 4);
    out += dict;
    out.append(padding, ' ');
    out.push_back('\n');
    return out;
  }
  llvm_unreachable("a 2.0 header always fits");
}

/// Writes `array` to `file`; errors name `path`, the file it is for.
static llvm::Error writeNpyFile(StringRef file, StringRef path,
                                const HostArray &array) {
  std::error_code ec;
  llvm::raw_fd_ostream os(file, ec);
  if (ec)
    return llvm::createFileError(path, ec);
  os << makeHeader(dtypeWrittenDescr(array.dtype()), array.shape());
  if (array.dtype() == DType::BF16) {
    // bfloat16 is the upper half of a float32: widening is exact.
    const uint16_t *bits = static_cast<const uint16_t *>(array.data());
    for (int64_t i = 0, e = array.numElements(); i < e; ++i)
      llvm::support::endian::write<uint32_t>(
          os, static_cast<uint32_t>(bits[i]) << 16, llvm::endianness::little);
  } else {
    os.write(static_cast<const char *>(array.data()), array.sizeInBytes());
  }
  if (std::error_code failed = finishOutput(os, file))
    return llvm::createFileError(path, failed);
  return llvm::Error::success();
}

std::optional<std::string> fuse::stageBeside(StringRef path) {
  namespace fs = llvm::sys::fs;
  llvm::SmallString<256> staged;
  int fd;
  if (path == "-" || fs::is_symlink_file(path) ||
      (fs::exists(path) && !fs::is_regular_file(path)) ||
      fs::createUniqueFile(path + ".tmp-%%%%%%", fd, staged))
    return std::nullopt;
  llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  llvm::sys::RemoveFileOnSignal(staged);
  return staged.str().str();
}

llvm::Expected<std::string> fuse::writeNpyStaged(StringRef path,
                                                 const HostArray &array) {
  std::string file = stageBeside(path).value_or(path.str());
  if (llvm::Error error = writeNpyFile(file, path, array)) {
    discardStaged(file, path);
    return std::move(error);
  }
  return file;
}

llvm::Error fuse::commitStaged(StringRef staged, StringRef path) {
  if (staged == path)
    return llvm::Error::success();
  llvm::sys::DontRemoveFileOnSignal(staged);
  if (std::error_code ec = llvm::sys::fs::rename(staged, path)) {
    llvm::sys::fs::remove(staged);
    return llvm::createFileError(path, ec);
  }
  return llvm::Error::success();
}

void fuse::discardStaged(StringRef staged, StringRef path) {
  if (staged == path)
    return;
  llvm::sys::DontRemoveFileOnSignal(staged);
  llvm::sys::fs::remove(staged);
}

llvm::Error fuse::writeNpy(StringRef path, const HostArray &array) {
  llvm::Expected<std::string> staged = writeNpyStaged(path, array);
  if (!staged)
    return staged.takeError();
  return commitStaged(*staged, path);
}

std::error_code fuse::finishOutput(llvm::raw_fd_ostream &os,
                                   llvm::StringRef path) {
  if (path == "-")
    os.flush();
  else
    os.close();
  std::error_code ec = os.error();
  os.clear_error();
  return ec;
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

static double smallFloatToDouble(const llvm::fltSemantics &semantics,
                                 uint16_t bits) {
  llvm::APFloat value(semantics, llvm::APInt(16, bits));
  bool losesInfo;
  value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven,
                &losesInfo);
  return value.convertToDouble();
}

static uint16_t doubleToSmallFloat(const llvm::fltSemantics &semantics,
                                   double value) {
  llvm::APFloat result(value);
  bool losesInfo;
  result.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<uint16_t>(result.bitcastToAPInt().getZExtValue());
}

/// `value` truncated toward zero, saturated to T's range, 0 for NaN. (A plain
/// cast is undefined behavior out of range.)
template <typename T> static T truncateToInt(double value) {
  constexpr T min = std::numeric_limits<T>::min();
  constexpr T max = std::numeric_limits<T>::max();
  if (std::isnan(value))
    return 0;
  // -min is a power of two, exact as a double, where max may not be.
  if (value <= static_cast<double>(min))
    return min;
  if (value >= -static_cast<double>(min))
    return max;
  return static_cast<T>(value);
}

double fuse::getAsDouble(const HostArray &array, int64_t index) {
  assert(index >= 0 && index < array.numElements() && "index out of range");
  const void *data = array.data();
  switch (array.dtype()) {
  case DType::F16:
    return smallFloatToDouble(llvm::APFloat::IEEEhalf(),
                              static_cast<const uint16_t *>(data)[index]);
  case DType::BF16:
    return smallFloatToDouble(llvm::APFloat::BFloat(),
                              static_cast<const uint16_t *>(data)[index]);
  case DType::F32:
    return static_cast<const float *>(data)[index];
  case DType::F64:
    return static_cast<const double *>(data)[index];
  case DType::I32:
    return static_cast<const int32_t *>(data)[index];
  case DType::I64:
    return static_cast<double>(static_cast<const int64_t *>(data)[index]);
  case DType::Bool:
    return static_cast<const uint8_t *>(data)[index] != 0 ? 1.0 : 0.0;
  }
  llvm_unreachable("unknown DType");
}

void fuse::setFromDouble(HostArray &array, int64_t index, double value) {
  assert(index >= 0 && index < array.numElements() && "index out of range");
  void *data = array.data();
  switch (array.dtype()) {
  case DType::F16:
    static_cast<uint16_t *>(data)[index] =
        doubleToSmallFloat(llvm::APFloat::IEEEhalf(), value);
    return;
  case DType::BF16:
    static_cast<uint16_t *>(data)[index] =
        doubleToSmallFloat(llvm::APFloat::BFloat(), value);
    return;
  case DType::F32:
    static_cast<float *>(data)[index] = static_cast<float>(value);
    return;
  case DType::F64:
    static_cast<double *>(data)[index] = value;
    return;
  case DType::I32:
    static_cast<int32_t *>(data)[index] = truncateToInt<int32_t>(value);
    return;
  case DType::I64:
    static_cast<int64_t *>(data)[index] = truncateToInt<int64_t>(value);
    return;
  case DType::Bool:
    static_cast<uint8_t *>(data)[index] = value != 0 ? 1 : 0;
    return;
  }
  llvm_unreachable("unknown DType");
}
