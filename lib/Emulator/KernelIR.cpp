//===- KernelIR.cpp - the LLVM IR behind each PTX module ----------------===//
//
// Kept only while a driver that runs kernels on the host is loaded (see
// HostKernels.h). The record is small (the bitcode of each kernel module,
// tens of kilobytes) and lives as long as the process, like the modules
// loaded from it.
//
//===----------------------------------------------------------------------===//

#include "fuse/Emulator/HostKernels.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <atomic>
#include <map>
#include <mutex>

using namespace fuse;

namespace {

struct Recorded {
  std::string ptx;
  std::string bitcode;
};

struct Record {
  std::mutex mutex;
  std::atomic<bool> enabled{false};
  std::map<uint64_t, Recorded> modules;
};

Record &theRecord() {
  static Record *record = new Record();
  return *record;
}

/// The PTX as the driver sees it: up to its first NUL.
llvm::StringRef text(llvm::StringRef ptx) {
  return ptx.take_until([](char c) { return c == '\0'; });
}

uint64_t hashOf(llvm::StringRef ptx) { return llvm::xxh3_64bits(text(ptx)); }

} // namespace

bool hostkernels::isRecording() { return theRecord().enabled; }

void hostkernels::record(llvm::StringRef ptx, const llvm::Module &module) {
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(module, os);
  Record &record = theRecord();
  std::lock_guard<std::mutex> lock(record.mutex);
  record.modules[hashOf(ptx)] = {text(ptx).str(), std::move(bitcode)};
}

std::optional<std::string> hostkernels::find(llvm::StringRef ptx) {
  Record &record = theRecord();
  std::lock_guard<std::mutex> lock(record.mutex);
  auto it = record.modules.find(hashOf(ptx));
  if (it == record.modules.end() || it->second.ptx != text(ptx))
    return std::nullopt;
  return it->second.bitcode;
}

std::string hostkernels::keyOf(llvm::StringRef ptx) {
  std::string key;
  llvm::raw_string_ostream(key)
      << "xxh3 " << llvm::format_hex_no_prefix(hashOf(ptx), 16) << ", "
      << text(ptx).size() << " bytes";
  return key;
}

void hostkernels::startRecording() { theRecord().enabled = true; }
