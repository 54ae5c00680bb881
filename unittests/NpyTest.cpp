//===- NpyTest.cpp - host arrays, .npy files, element access --------------===//

#include "fuse/Support/Npy.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>

using namespace fuse;
using llvm::StringRef;

namespace {

/// np.save of np.arange(12, dtype=np.float32).reshape(3, 4), numpy 1.24.2;
/// regenerate with `test/Runtime/Inputs/make_npy.py --c-array`.
const unsigned char kNumpyArange3x4[] = {
    0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 0x01, 0x00, 0x76, 0x00, 0x7b, 0x27,
    0x64, 0x65, 0x73, 0x63, 0x72, 0x27, 0x3a, 0x20, 0x27, 0x3c, 0x66, 0x34,
    0x27, 0x2c, 0x20, 0x27, 0x66, 0x6f, 0x72, 0x74, 0x72, 0x61, 0x6e, 0x5f,
    0x6f, 0x72, 0x64, 0x65, 0x72, 0x27, 0x3a, 0x20, 0x46, 0x61, 0x6c, 0x73,
    0x65, 0x2c, 0x20, 0x27, 0x73, 0x68, 0x61, 0x70, 0x65, 0x27, 0x3a, 0x20,
    0x28, 0x33, 0x2c, 0x20, 0x34, 0x29, 0x2c, 0x20, 0x7d, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20,
    0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x0a, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x40, 0x40,
    0x00, 0x00, 0x80, 0x40, 0x00, 0x00, 0xa0, 0x40, 0x00, 0x00, 0xc0, 0x40,
    0x00, 0x00, 0xe0, 0x40, 0x00, 0x00, 0x00, 0x41, 0x00, 0x00, 0x10, 0x41,
    0x00, 0x00, 0x20, 0x41, 0x00, 0x00, 0x30, 0x41,
};

StringRef numpyArange3x4() {
  return StringRef(reinterpret_cast<const char *>(kNumpyArange3x4),
                   sizeof(kNumpyArange3x4));
}

/// The twelve float32 values 0..11, the data of kNumpyArange3x4.
std::string arangeData() { return numpyArange3x4().take_back(48).str(); }

/// An .npy file image with the given header dict and data; `major` picks the
/// width of the header length field. The header is not padded: readers must
/// not depend on alignment.
std::string npyFile(StringRef dict, StringRef data, unsigned major = 1) {
  std::string out("\x93NUMPY", 6);
  out.push_back(static_cast<char>(major));
  out.push_back(0);
  char length[4];
  llvm::support::endian::write32le(length,
                                   static_cast<uint32_t>(dict.size() + 1));
  out.append(length, major == 1 ? 2 : 4);
  return out + dict.str() + "\n" + data.str();
}

std::string dictFor(StringRef descr, StringRef shape,
                    StringRef fortranOrder = "False") {
  return ("{'descr': '" + descr + "', 'fortran_order': " + fortranOrder +
          ", 'shape': " + shape + ", }")
      .str();
}

/// A temporary file, removed when the test ends.
class TempFile {
public:
  TempFile() {
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("npytest", "npy", path));
  }
  ~TempFile() { llvm::sys::fs::remove(path); }
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;

  StringRef name() const { return path; }

  void write(StringRef bytes) {
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    ASSERT_FALSE(ec) << ec.message();
    os << bytes;
  }

  std::string contents() const {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    EXPECT_TRUE(bool(buffer));
    return buffer ? (*buffer)->getBuffer().str() : "";
  }

private:
  llvm::SmallString<128> path;
};

/// Reads `bytes` as an .npy file, failing the test on an error.
HostArray readBytes(StringRef bytes) {
  TempFile file;
  file.write(bytes);
  llvm::Expected<HostArray> array = readNpy(file.name());
  if (!array) {
    ADD_FAILURE() << llvm::toString(array.takeError());
    return HostArray(DType::F32, {0});
  }
  return std::move(*array);
}

/// The message of reading `bytes` as an .npy file, which must fail. The
/// message must start by naming the file; that prefix is removed.
std::string readError(StringRef bytes) {
  TempFile file;
  file.write(bytes);
  llvm::Expected<HostArray> array = readNpy(file.name());
  if (array) {
    ADD_FAILURE() << "read succeeded";
    return "";
  }
  std::string message = llvm::toString(array.takeError());
  std::string prefix = "'" + file.name().str() + "': ";
  EXPECT_EQ(message.substr(0, prefix.size()), prefix);
  return message.substr(std::min(prefix.size(), message.size()));
}

::testing::AssertionResult contains(const std::string &text, StringRef needle) {
  if (StringRef(text).contains(needle))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "'" << text << "' does not contain '" << needle.str() << "'";
}

::testing::AssertionResult succeeded(llvm::Error error) {
  if (!error)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << llvm::toString(std::move(error));
}

std::vector<double> values(const HostArray &array) {
  std::vector<double> out;
  for (int64_t i = 0; i < array.numElements(); ++i)
    out.push_back(getAsDouble(array, i));
  return out;
}

const DType kAllDTypes[] = {DType::F16, DType::BF16, DType::F32, DType::F64,
                            DType::I32, DType::I64,  DType::Bool};

} // namespace

//===----------------------------------------------------------------------===//
// DType and HostArray
//===----------------------------------------------------------------------===//

TEST(Npy, DTypeNamesAndSizes) {
  const char *names[] = {"float16", "bfloat16", "float32", "float64",
                         "int32",   "int64",    "bool"};
  size_t sizes[] = {2, 2, 4, 8, 4, 8, 1};
  for (size_t i = 0; i < std::size(kAllDTypes); ++i) {
    EXPECT_EQ(dtypeName(kAllDTypes[i]), names[i]);
    EXPECT_EQ(dtypeSize(kAllDTypes[i]), sizes[i]);
  }
}

TEST(Npy, HostArrayIsAlignedAndZeroed) {
  HostArray array(DType::F64, {3, 5});
  EXPECT_EQ(array.dtype(), DType::F64);
  EXPECT_EQ(array.shape(), (llvm::ArrayRef<int64_t>{3, 5}));
  EXPECT_EQ(array.numElements(), 15);
  EXPECT_EQ(array.sizeInBytes(), 120u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(array.data()) % 64, 0u);
  EXPECT_EQ(values(array), std::vector<double>(15, 0.0));
}

TEST(Npy, HostArrayScalarAndEmpty) {
  HostArray scalar(DType::I32, {});
  EXPECT_TRUE(scalar.shape().empty());
  EXPECT_EQ(scalar.numElements(), 1);
  EXPECT_EQ(scalar.sizeInBytes(), 4u);

  HostArray empty(DType::F32, {4, 0});
  EXPECT_EQ(empty.numElements(), 0);
  EXPECT_EQ(empty.sizeInBytes(), 0u);
  EXPECT_NE(empty.data(), nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(empty.data()) % 64, 0u);
}

TEST(Npy, HostArrayMoves) {
  HostArray a(DType::I64, {2});
  setFromDouble(a, 1, 42);
  const void *data = a.data();
  HostArray b = std::move(a);
  EXPECT_EQ(b.data(), data);
  EXPECT_EQ(getAsDouble(b, 1), 42);
  HostArray c(DType::Bool, {});
  c = std::move(b);
  EXPECT_EQ(c.dtype(), DType::I64);
  EXPECT_EQ(c.data(), data);
}

//===----------------------------------------------------------------------===//
// Writing and reading back
//===----------------------------------------------------------------------===//

TEST(Npy, RoundTripEveryDTypeAndShape) {
  const std::vector<int64_t> shapes[] = {{}, {0}, {1}, {3, 4}, {2, 3, 4, 5}};
  for (DType dtype : kAllDTypes) {
    if (dtype == DType::BF16)
      continue; // Comes back as F32; see RoundTripBFloat16.
    for (const std::vector<int64_t> &shape : shapes) {
      SCOPED_TRACE(dtypeName(dtype).str() + " of rank " +
                   std::to_string(shape.size()));
      HostArray array(dtype, shape);
      // Quarters from -4 are exact in every float type and truncate to a
      // mix of integers, zeros included.
      for (int64_t i = 0; i < array.numElements(); ++i)
        setFromDouble(array, i, i * 0.25 - 4);
      TempFile file;
      ASSERT_TRUE(succeeded(writeNpy(file.name(), array)));
      std::string bytes = file.contents();
      size_t headerSize = bytes.size() - array.sizeInBytes();
      EXPECT_EQ(headerSize % 64, 0u);

      llvm::Expected<HostArray> back = readNpy(file.name());
      ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
      EXPECT_EQ(back->dtype(), dtype);
      EXPECT_EQ(back->shape(), llvm::ArrayRef<int64_t>(shape));
      EXPECT_EQ(back->numElements(), array.numElements());
      EXPECT_EQ(std::memcmp(back->data(), array.data(), array.sizeInBytes()),
                0);
      EXPECT_EQ(values(*back), values(array));
    }
  }
}

TEST(Npy, RoundTripBFloat16) {
  HostArray array(DType::BF16, {2, 3});
  const double input[] = {1.0, -2.5, 3.0e38, 1.0e-40, 0.0, -0.0};
  for (int64_t i = 0; i < 6; ++i)
    setFromDouble(array, i, input[i]);
  TempFile file;
  ASSERT_TRUE(succeeded(writeNpy(file.name(), array)));
  EXPECT_TRUE(contains(file.contents(), "'descr': '<f4'"));
  llvm::Expected<HostArray> back = readNpy(file.name());
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->dtype(), DType::F32);
  EXPECT_EQ(back->shape(), (llvm::ArrayRef<int64_t>{2, 3}));
  EXPECT_EQ(values(*back), values(array));
  EXPECT_TRUE(std::signbit(getAsDouble(*back, 5)));
}

TEST(Npy, WritesWhatNumpyWrites) {
  HostArray array(DType::F32, {3, 4});
  for (int64_t i = 0; i < 12; ++i)
    setFromDouble(array, i, i);
  TempFile file;
  ASSERT_TRUE(succeeded(writeNpy(file.name(), array)));
  EXPECT_EQ(file.contents(), numpyArange3x4().str());
}

TEST(Npy, WritesVersion2WhenTheHeaderIsLong) {
  // 30000 dimensions of 1 need a header longer than 1.0's 65535 bytes.
  HostArray array(DType::I32, std::vector<int64_t>(30000, 1));
  setFromDouble(array, 0, -7);
  TempFile file;
  ASSERT_TRUE(succeeded(writeNpy(file.name(), array)));
  std::string bytes = file.contents();
  ASSERT_GT(bytes.size(), 12u);
  EXPECT_EQ(bytes[6], 2);
  EXPECT_EQ((bytes.size() - 4) % 64, 0u);
  llvm::Expected<HostArray> back = readNpy(file.name());
  ASSERT_TRUE(bool(back)) << llvm::toString(back.takeError());
  EXPECT_EQ(back->shape().size(), 30000u);
  EXPECT_EQ(getAsDouble(*back, 0), -7);
}

TEST(Npy, WriteErrorNamesTheFile) {
  HostArray array(DType::F32, {1});
  llvm::Error error = writeNpy("/nonexistent-dir/x.npy", array);
  ASSERT_TRUE(bool(error));
  EXPECT_TRUE(contains(llvm::toString(std::move(error)),
                       "'/nonexistent-dir/x.npy': No such file or directory"));
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

TEST(Npy, ReadsNumpyOutput) {
  HostArray array = readBytes(numpyArange3x4());
  EXPECT_EQ(array.dtype(), DType::F32);
  EXPECT_EQ(array.shape(), (llvm::ArrayRef<int64_t>{3, 4}));
  EXPECT_EQ(values(array),
            (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(array.data()) % 64, 0u);
}

TEST(Npy, ReadsVersion2And3Headers) {
  for (unsigned major : {2, 3}) {
    HostArray array =
        readBytes(npyFile(dictFor("<f4", "(3, 4)"), arangeData(), major));
    EXPECT_EQ(array.shape(), (llvm::ArrayRef<int64_t>{3, 4}));
    EXPECT_EQ(getAsDouble(array, 11), 11);
  }
}

TEST(Npy, ReadsEveryDType) {
  struct Case {
    const char *descr;
    DType dtype;
    std::string data;
    double value;
  };
  const Case cases[] = {
      {"<f2", DType::F16, std::string("\x00\x3c", 2), 1.0},
      {"<f8", DType::F64, std::string("\x00\x00\x00\x00\x00\x00\x04\xc0", 8),
       -2.5},
      {"<i4", DType::I32, std::string("\xfe\xff\xff\xff", 4), -2},
      {"<i8", DType::I64, std::string("\x07\x00\x00\x00\x00\x00\x00\x00", 8),
       7},
      {"|b1", DType::Bool, std::string("\x01", 1), 1},
      {"=f4", DType::F32, std::string("\x00\x00\x80\x3f", 4), 1.0},
      {"<b1", DType::Bool, std::string("\x00", 1), 0},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.descr);
    HostArray array = readBytes(npyFile(dictFor(c.descr, "(1,)"), c.data));
    EXPECT_EQ(array.dtype(), c.dtype);
    EXPECT_EQ(getAsDouble(array, 0), c.value);
  }
}

TEST(Npy, ReadsScalarAndZeroSize) {
  HostArray scalar =
      readBytes(npyFile(dictFor("<f8", "()"),
                        std::string("\x00\x00\x00\x00\x00\x00\x04\x40", 8)));
  EXPECT_TRUE(scalar.shape().empty());
  EXPECT_EQ(getAsDouble(scalar, 0), 2.5);

  HostArray empty = readBytes(npyFile(dictFor("<f4", "(0, 3)"), ""));
  EXPECT_EQ(empty.shape(), (llvm::ArrayRef<int64_t>{0, 3}));
  EXPECT_EQ(empty.numElements(), 0);

  // numpy takes another size next to a zero as long as the sizes but the
  // zero fit its bytes in int64, and no more: (0, 2^62) of float32 is
  // "array is too big" to numpy (np.load too).
  HostArray wide = readBytes(npyFile(dictFor("<f4", "(0, 1099511627776)"), ""));
  EXPECT_EQ(wide.numElements(), 0);
  EXPECT_EQ(
      readError(npyFile(
          dictFor("<f4", "(0, 9223372036854775807, 9223372036854775807)"), "")),
      "shape (0, 9223372036854775807, 9223372036854775807) of float32 "
      "is too large");
  EXPECT_EQ(readError(npyFile(dictFor("<f4", "(0, 4611686018427387904)"), "")),
            "shape (0, 4611686018427387904) of float32 is too large");
}

TEST(Npy, ReadsHeaderVariants) {
  const char *dicts[] = {
      "{\"shape\": (3, 4), \"fortran_order\": False, \"descr\": \"<f4\"}",
      "{'descr':'<f4','fortran_order':False,'shape':(3,4)}",
      ("  {  'descr' : '<f4' , 'fortran_order' : False , 'shape' : ( 3 , 4 , "
       ") , }   \t\r "),
      "{'descr': '<f4', 'fortran_order': False, 'shape': (3L, 4L), }",
  };
  for (const char *dict : dicts) {
    SCOPED_TRACE(dict);
    HostArray array = readBytes(npyFile(dict, arangeData()));
    EXPECT_EQ(array.shape(), (llvm::ArrayRef<int64_t>{3, 4}));
    EXPECT_EQ(getAsDouble(array, 7), 7);
  }
}

TEST(Npy, ReadsFortranOrder) {
  // The file's 0..11 fill a 3x4 array column by column: element (i, j) is
  // i + 3 * j.
  HostArray matrix =
      readBytes(npyFile(dictFor("<f4", "(3, 4)", "True"), arangeData()));
  EXPECT_EQ(matrix.shape(), (llvm::ArrayRef<int64_t>{3, 4}));
  EXPECT_EQ(values(matrix),
            (std::vector<double>{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}));

  // Every element size, in three dimensions: element (i, j, k) of a 2x3x2
  // array is i + 2 * j + 6 * k.
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 2; ++k)
        expected.push_back(i + 2 * j + 6 * k);
  for (DType dtype : kAllDTypes) {
    if (dtype == DType::BF16)
      continue; // Not an .npy dtype.
    SCOPED_TRACE(dtypeName(dtype).str());
    HostArray column(dtype, {12});
    for (int64_t i = 0; i < 12; ++i)
      setFromDouble(column, i, i);
    std::string data(static_cast<const char *>(column.data()),
                     column.sizeInBytes());
    StringRef descr = dtype == DType::F16   ? "<f2"
                      : dtype == DType::F32 ? "<f4"
                      : dtype == DType::F64 ? "<f8"
                      : dtype == DType::I32 ? "<i4"
                      : dtype == DType::I64 ? "<i8"
                                            : "|b1";
    HostArray cube =
        readBytes(npyFile(dictFor(descr, "(2, 3, 2)", "True"), data));
    EXPECT_EQ(cube.dtype(), dtype);
    EXPECT_EQ(cube.shape(), (llvm::ArrayRef<int64_t>{2, 3, 2}));
    if (dtype == DType::Bool) {
      // Only element 0 of the file is false: element (0, 0, 0).
      std::vector<double> bools(12, 1);
      bools[0] = 0;
      EXPECT_EQ(values(cube), bools);
    } else {
      EXPECT_EQ(values(cube), expected);
    }
  }
}

TEST(Npy, ReadsFortranOrderWhereItIsCOrder) {
  // With at most one dimension larger than 1, both orders are the same.
  for (StringRef shape : {"(12,)", "(1, 12)", "(12, 1)", "(1, 12, 1)"}) {
    SCOPED_TRACE(shape.str());
    HostArray array =
        readBytes(npyFile(dictFor("<f4", shape, "True"), arangeData()));
    EXPECT_EQ(values(array),
              (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  }
  // Dimensions of 1 between others do not make it C order.
  HostArray spread = readBytes(
      npyFile(dictFor("<f4", "(1, 3, 1, 4, 1)", "True"), arangeData()));
  EXPECT_EQ(values(spread),
            (std::vector<double>{0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11}));
  HostArray scalar = readBytes(
      npyFile(dictFor("<f4", "()", "True"), StringRef("\0\0\x80\x3f", 4)));
  EXPECT_EQ(values(scalar), (std::vector<double>{1}));
  HostArray empty = readBytes(npyFile(dictFor("<f4", "(0, 3)", "True"), ""));
  EXPECT_EQ(empty.shape(), (llvm::ArrayRef<int64_t>{0, 3}));
  EXPECT_EQ(empty.numElements(), 0);
}

TEST(Npy, ReadsDataPastTheFirstChunk) {
  // A file's data is read straight into the array, after what the reads of
  // its header took (64 KiB at a time): 300000 bools whose bytes are 0, 1
  // and 2 (numpy reads any nonzero byte as true) are 0, 1 and 1 throughout.
  std::string data(300000, 0);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<char>(i % 3);
  HostArray array = readBytes(npyFile(dictFor("|b1", "(300000,)"), data));
  ASSERT_EQ(array.numElements(), 300000);
  for (int64_t i : {int64_t(0), int64_t(1), int64_t(2), int64_t(65535),
                    int64_t(65536), int64_t(200002), int64_t(299999)})
    EXPECT_EQ(getAsDouble(array, i), i % 3 ? 1 : 0) << "element " << i;
  // One byte short: the read ends early, and parseNpy says so.
  EXPECT_TRUE(
      contains(readError(npyFile(dictFor("|b1", "(300000,)"), data.substr(1))),
               "truncated: expected 300000 bytes of data, found 299999"));
}

TEST(Npy, AllowsTrailingBytes) {
  HostArray array = readBytes(numpyArange3x4().str() + "extra");
  EXPECT_EQ(array.numElements(), 12);
  EXPECT_EQ(getAsDouble(array, 11), 11);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST(NpyErrors, FileNotFound) {
  llvm::Expected<HostArray> array = readNpy("/nonexistent-dir/in.npy");
  ASSERT_FALSE(bool(array));
  EXPECT_EQ(llvm::toString(array.takeError()),
            "'/nonexistent-dir/in.npy': No such file or directory");
}

TEST(NpyErrors, Directory) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("npytest", dir));
  llvm::Expected<HostArray> array = readNpy(dir);
  ASSERT_FALSE(bool(array));
  EXPECT_TRUE(
      contains(llvm::toString(array.takeError()), ("'" + dir + "': ").str()));
  llvm::sys::fs::remove(dir);
}

TEST(NpyErrors, TooShort) {
  EXPECT_EQ(readError(""), "too short for an .npy file (0 bytes)");
  EXPECT_EQ(readError("\x93NUM"), "too short for an .npy file (4 bytes)");
  EXPECT_EQ(readError(numpyArange3x4().take_front(9)),
            "too short for an .npy file (9 bytes)");
  EXPECT_EQ(readError(std::string("\x93NUMPY\x02\x00\x10\x00\x00", 11)),
            "too short for an .npy file (11 bytes)");
}

TEST(NpyErrors, BadMagic) {
  std::string bytes = numpyArange3x4().str();
  bytes[5] = 'Z';
  EXPECT_EQ(readError(bytes),
            "not an .npy file (bad magic; expected \"\\x93NUMPY\")");
  // np.savez's zip archive is named as one.
  EXPECT_EQ(readError("PK\x03\x04"),
            "a zip archive (numpy's .npz), not an .npy file: give each array "
            "as an .npy file of its own (np.save)");
}

TEST(NpyErrors, UnsupportedVersion) {
  std::string bytes = numpyArange3x4().str();
  bytes[6] = 4;
  EXPECT_EQ(readError(bytes),
            "unsupported .npy format version 4.0 (supported: 1.0, 2.0, 3.0)");
  bytes[6] = 1;
  bytes[7] = 1;
  EXPECT_TRUE(contains(readError(bytes), "version 1.1"));
}

TEST(NpyErrors, HeaderPastTheEnd) {
  std::string bytes = numpyArange3x4().str();
  bytes[9] = 0x10; // Header length 0x1076.
  EXPECT_EQ(readError(bytes),
            "header length 4214 runs past the end of the file (176 bytes)");
  std::string v2 = npyFile(dictFor("<f4", "(3, 4)"), arangeData(), 2);
  v2[11] = '\xff';
  EXPECT_TRUE(contains(readError(v2), "runs past the end of the file"));
}

TEST(NpyErrors, HeaderNotADict) {
  EXPECT_EQ(readError(npyFile("[1, 2]", "")),
            "malformed header: the header is not a Python dict literal; "
            "expected '{' at offset 0");
  EXPECT_TRUE(contains(readError(npyFile("", "")), "not a Python dict"));
  EXPECT_TRUE(contains(readError(npyFile("{'descr': '<f4'", "")),
                       "expected ',' or '}'"));
  EXPECT_TRUE(contains(readError(npyFile("{descr: 1}", "")),
                       "expected a string at offset 1"));
  EXPECT_TRUE(contains(readError(npyFile("{'descr' '<f4'}", "")),
                       "expected ':' after key 'descr'"));
  EXPECT_TRUE(
      contains(readError(npyFile("{'descr': '<f4}", "")), "unterminated"));
  EXPECT_TRUE(contains(readError(npyFile(dictFor("<f4", "(1,)") + " x", "")),
                       "unexpected text after the dict"));
  EXPECT_TRUE(contains(readError(npyFile(dictFor("<f4", "(1,)", "None"), "")),
                       "expected True or False"));
}

TEST(NpyErrors, MissingDuplicateAndUnknownKeys) {
  EXPECT_EQ(readError(npyFile("{'descr': '<f4', 'shape': (3,), }", "")),
            "header has no 'fortran_order' key");
  EXPECT_EQ(readError(npyFile("{}", "")), "header has no 'descr' key");
  EXPECT_TRUE(
      contains(readError(npyFile("{'descr': '<f4', 'descr': '<f4', }", "")),
               "duplicate key 'descr'"));
  EXPECT_TRUE(contains(
      readError(npyFile("{'descr': '<f4', 'dtype': 1, }", "")),
      "unexpected key 'dtype'; the keys are 'descr', 'fortran_order' and "
      "'shape'"));
}

TEST(NpyErrors, BigEndian) {
  EXPECT_EQ(readError(npyFile(dictFor(">f4", "(3, 4)"), arangeData())),
            "non-native byte order '>f4' is not supported; use "
            "arr.astype('<f4')");
  EXPECT_TRUE(contains(readError(npyFile(dictFor(">i8", "(1,)"), "")),
                       "arr.astype('<i8')"));
}

TEST(NpyErrors, UnsupportedDescr) {
  EXPECT_EQ(readError(npyFile(dictFor("<c8", "(3,)"), "")),
            "unsupported dtype '<c8'; supported: '<f2' (float16), '<f4' "
            "(float32), '<f8' (float64), '<i4' (int32), '<i8' (int64), '|b1' "
            "(bool)");
  for (const char *descr : {"|u1", "<u2", "O", "", "<f16", "|f4", "<U3"})
    EXPECT_TRUE(contains(readError(npyFile(dictFor(descr, "(3,)"), "")),
                         "unsupported dtype '" + std::string(descr) + "'"));
  EXPECT_TRUE(contains(readError(npyFile(dictFor("<V2", "(3,)"), "")),
                       "bfloat16 array from ml_dtypes"));
  EXPECT_TRUE(contains(
      readError(npyFile("{'descr': [('a', '<f4')], 'fortran_order': False, "
                        "'shape': (1,), }",
                        "")),
      "structured dtypes ('descr' is a list) are not supported"));
}

TEST(NpyErrors, BadShape) {
  const char *notATuple = "'shape' is not a tuple of non-negative integers";
  for (const char *shape : {"3", "(3)", "(3.5,)", "(,)", "(3,,)", "[3]",
                            "(0x10,)", "('3',)", "(+3,)", "(3 4)", "(3,"}) {
    SCOPED_TRACE(shape);
    EXPECT_TRUE(
        contains(readError(npyFile(dictFor("<f4", shape), "")), notATuple));
  }
  EXPECT_TRUE(contains(readError(npyFile(dictFor("<f4", "(3, -1)"), "")),
                       "'shape' has a negative dimension"));
  EXPECT_TRUE(
      contains(readError(npyFile(dictFor("<f4", "(9223372036854775808,)"), "")),
               "'shape' has a dimension too large for int64"));
  EXPECT_TRUE(contains(
      readError(npyFile(dictFor("<f4", "(99999999999999999999999,)"), "")),
      "'shape' has a dimension too large for int64"));
}

TEST(NpyErrors, ShapeOverflow) {
  EXPECT_EQ(readError(npyFile(dictFor("<f4", "(4294967296, 4294967296)"), "")),
            "shape (4294967296, 4294967296) of float32 is too large");
  // 2^61 elements fit in int64, their 2^63 bytes do not.
  EXPECT_EQ(readError(npyFile(dictFor("<f4", "(2305843009213693952,)"), "")),
            "shape (2305843009213693952,) of float32 is too large");
}

TEST(NpyErrors, Truncated) {
  EXPECT_EQ(readError(numpyArange3x4().drop_back(5)),
            "truncated: expected 48 bytes of data, found 43");
  EXPECT_EQ(readError(numpyArange3x4().take_front(128)),
            "truncated: expected 48 bytes of data, found 0");
  EXPECT_EQ(readError(npyFile(dictFor("<f8", "()"), "1234567")),
            "truncated: expected 8 bytes of data, found 7");
}

/// Every prefix and many corruptions of a valid file read or fail cleanly.
TEST(NpyErrors, SurvivesCorruptInput) {
  StringRef valid = numpyArange3x4();
  TempFile file;
  for (size_t size = 0; size < valid.size(); ++size) {
    file.write(valid.take_front(size));
    llvm::consumeError(readNpy(file.name()).takeError());
  }
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return static_cast<uint32_t>(state >> 33);
  };
  for (int round = 0; round < 100; ++round) {
    std::string bytes = valid.str();
    for (int flips = 1 + next() % 4; flips > 0; --flips)
      bytes[next() % 128] = static_cast<char>(next());
    file.write(bytes);
    llvm::Expected<HostArray> array = readNpy(file.name());
    if (array)
      EXPECT_LE(array->sizeInBytes(), 48u);
    else
      llvm::consumeError(array.takeError());
  }
}

//===----------------------------------------------------------------------===//
// Element access
//===----------------------------------------------------------------------===//

namespace {
uint16_t bitsOf(const HostArray &array, int64_t index) {
  return static_cast<const uint16_t *>(array.data())[index];
}

uint16_t toHalfBits(DType dtype, double value) {
  HostArray array(dtype, {});
  setFromDouble(array, 0, value);
  return bitsOf(array, 0);
}

double fromHalfBits(DType dtype, uint16_t bits) {
  HostArray array(dtype, {});
  *static_cast<uint16_t *>(array.data()) = bits;
  return getAsDouble(array, 0);
}

double roundTrip(DType dtype, double value) {
  HostArray array(dtype, {});
  setFromDouble(array, 0, value);
  return getAsDouble(array, 0);
}
} // namespace

TEST(NpyElements, Float16) {
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(toHalfBits(DType::F16, 1.0), 0x3c00);
  EXPECT_EQ(toHalfBits(DType::F16, -2.0), 0xc000);
  EXPECT_EQ(toHalfBits(DType::F16, 65504.0), 0x7bff);
  EXPECT_EQ(toHalfBits(DType::F16, 65519.99), 0x7bff);
  EXPECT_EQ(toHalfBits(DType::F16, 65520.0), 0x7c00); // Ties to even: inf.
  EXPECT_EQ(toHalfBits(DType::F16, std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(toHalfBits(DType::F16, std::ldexp(1.0, -25)), 0x0000);
  EXPECT_EQ(toHalfBits(DType::F16, std::ldexp(3.0, -25)), 0x0002);
  EXPECT_EQ(toHalfBits(DType::F16, 1.0 + std::ldexp(1.0, -11)), 0x3c00);
  EXPECT_EQ(toHalfBits(DType::F16, 1.0 + std::ldexp(3.0, -11)), 0x3c02);
  // Rounded once from double: through float it would tie down to 1.0.
  EXPECT_EQ(
      toHalfBits(DType::F16, 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)),
      0x3c01);
  EXPECT_EQ(toHalfBits(DType::F16, -inf), 0xfc00);
  EXPECT_EQ(toHalfBits(DType::F16, -0.0), 0x8000);
  EXPECT_TRUE(std::isnan(roundTrip(DType::F16, std::nan(""))));

  EXPECT_EQ(fromHalfBits(DType::F16, 0x3555), 0.333251953125);
  EXPECT_EQ(fromHalfBits(DType::F16, 0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(fromHalfBits(DType::F16, 0x7c00), inf);
  EXPECT_TRUE(std::isnan(fromHalfBits(DType::F16, 0x7e00)));
}

TEST(NpyElements, BFloat16) {
  EXPECT_EQ(toHalfBits(DType::BF16, 1.0), 0x3f80);
  EXPECT_EQ(toHalfBits(DType::BF16, 1.0 + std::ldexp(1.0, -8)), 0x3f80);
  EXPECT_EQ(toHalfBits(DType::BF16, 1.0 + std::ldexp(3.0, -8)), 0x3f82);
  EXPECT_EQ(toHalfBits(DType::BF16, 3.0e38), 0x7f62);
  EXPECT_EQ(toHalfBits(DType::BF16, 1.0e39), 0x7f80);
  EXPECT_EQ(fromHalfBits(DType::BF16, 0xc0a0), -5.0);
  EXPECT_EQ(fromHalfBits(DType::BF16, 0x0001), std::ldexp(1.0, -133));
  EXPECT_TRUE(std::isnan(roundTrip(DType::BF16, std::nan(""))));
}

TEST(NpyElements, Float32AndFloat64) {
  EXPECT_EQ(roundTrip(DType::F32, 0.1), static_cast<double>(0.1f));
  EXPECT_EQ(roundTrip(DType::F32, 1.0e39),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(roundTrip(DType::F64, 0.1), 0.1);
  EXPECT_EQ(roundTrip(DType::F64, -1.0e300), -1.0e300);
}

TEST(NpyElements, IntegersTruncateAndSaturate) {
  EXPECT_EQ(roundTrip(DType::I32, 2.9), 2);
  EXPECT_EQ(roundTrip(DType::I32, -2.9), -2);
  EXPECT_EQ(roundTrip(DType::I32, -0.5), 0);
  EXPECT_EQ(roundTrip(DType::I32, 2147483647.9), 2147483647);
  EXPECT_EQ(roundTrip(DType::I32, 1.0e10), 2147483647);
  EXPECT_EQ(roundTrip(DType::I32, -1.0e10), -2147483648.0);
  EXPECT_EQ(roundTrip(DType::I32, std::nan("")), 0);
  EXPECT_EQ(roundTrip(DType::I64, -7.99), -7);
  EXPECT_EQ(roundTrip(DType::I64, 9007199254740993.0), 9007199254740992.0);
  EXPECT_EQ(roundTrip(DType::I64, 1.0e19), 9223372036854775807.0);
  EXPECT_EQ(roundTrip(DType::I64, -1.0e19), -9223372036854775808.0);
  EXPECT_EQ(roundTrip(DType::I64, -std::numeric_limits<double>::infinity()),
            -9223372036854775808.0);

  HostArray i64(DType::I64, {2});
  setFromDouble(i64, 0, 1.0e19);
  setFromDouble(i64, 1, -1.0e19);
  EXPECT_EQ(static_cast<const int64_t *>(i64.data())[0],
            std::numeric_limits<int64_t>::max());
  EXPECT_EQ(static_cast<const int64_t *>(i64.data())[1],
            std::numeric_limits<int64_t>::min());
}

TEST(NpyElements, Bool) {
  HostArray array(DType::Bool, {5});
  const double input[] = {0.0, -0.0, 0.5, -3.0, std::nan("")};
  for (int64_t i = 0; i < 5; ++i)
    setFromDouble(array, i, input[i]);
  const uint8_t *bytes = static_cast<const uint8_t *>(array.data());
  EXPECT_EQ(std::vector<uint8_t>(bytes, bytes + 5),
            (std::vector<uint8_t>{0, 0, 1, 1, 1}));
  // Any nonzero byte, as numpy may leave in a file, reads as 1.
  static_cast<uint8_t *>(array.data())[2] = 0x7f;
  EXPECT_EQ(getAsDouble(array, 2), 1.0);
}
