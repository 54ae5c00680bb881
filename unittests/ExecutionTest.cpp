//===- ExecutionTest.cpp - runs on several threads at once ----------------===//
//
// A run's error and records belong to the thread that runs it: two programs
// run at the same time on two threads each get their own results and their
// own profile, and an error on one thread is not another thread's.
//
//===----------------------------------------------------------------------===//

#include "fuse/Execution/Executable.h"
#include "fuse/InitAllDialects.h"
#include "fuse/Runtime/Runtime.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

using namespace fuse;

namespace {

/// One parsed and compiled program, in its own context.
struct Compiled {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<Executable> executable;
};

Compiled compile(llvm::StringRef text, bool fusion) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  Compiled compiled;
  compiled.context = std::make_unique<mlir::MLIRContext>(registry);
  compiled.module =
      mlir::parseSourceString<mlir::ModuleOp>(text, compiled.context.get());
  EXPECT_TRUE(compiled.module);
  RunOptions options;
  options.pipeline.fusion = fusion;
  options.threads = 1;
  llvm::Expected<std::unique_ptr<Executable>> executable =
      Executable::compile(*compiled.module, options);
  if (!executable) {
    ADD_FAILURE() << llvm::toString(executable.takeError());
    return compiled;
  }
  compiled.executable = std::move(*executable);
  return compiled;
}

HostArray filled(int64_t n, float value) {
  HostArray array = llvm::cantFail(HostArray::create(DType::F32, {n}));
  auto *data = static_cast<float *>(array.data());
  for (int64_t i = 0; i < n; ++i)
    data[i] = value + static_cast<float>(i % 7);
  return array;
}

constexpr const char *kAddRelu = R"mlir(
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}
)mlir";

constexpr const char *kMulNeg = R"mlir(
func.func @mul_neg(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.mul %a, %a : tensor<?xf32>
  %1 = fuse.neg %0 : tensor<?xf32>
  %2 = fuse.exp %1 : tensor<?xf32>
  return %2 : tensor<?xf32>
}
)mlir";

TEST(ExecutionTest, ConcurrentRunsKeepTheirOwnProfiles) {
  // Fused add+relu is one kernel; eager mul, neg, exp are three.
  Compiled first = compile(kAddRelu, /*fusion=*/true);
  Compiled second = compile(kMulNeg, /*fusion=*/false);
  ASSERT_TRUE(first.executable && second.executable);
  ASSERT_EQ(first.executable->kernelNames().size(), 1u);
  ASSERT_EQ(second.executable->kernelNames().size(), 3u);

  constexpr int kRuns = 300;
  std::atomic<int> failures{0};
  auto runMany = [&](Executable &executable,
                     std::vector<const HostArray *> inputs, float expected) {
    for (int run = 0; run < kRuns; ++run) {
      llvm::Expected<std::vector<HostArray>> outputs = executable.run(inputs);
      if (!outputs) {
        llvm::consumeError(outputs.takeError());
        ++failures;
        continue;
      }
      // Every launch of this run, and only those, in the profile.
      const RunProfile &profile = executable.profile();
      bool ok = profile.kernelLaunches() == executable.kernelNames().size();
      size_t next = 0;
      for (const ProfileEvent &event : profile.events)
        ok = ok && event.kind == ProfileEvent::Kind::Kernel &&
             event.name == executable.kernelNames()[next++];
      ok =
          ok && static_cast<const float *>((*outputs)[0].data())[0] == expected;
      if (!ok)
        ++failures;
    }
  };
  HostArray a = filled(4096, -2.0f), b = filled(4096, 3.0f);
  HostArray x = filled(4096, 0.0f);
  // relu(-2 + 3) = 1; exp(-(0 * 0)) = 1.
  std::thread one(runMany, std::ref(*first.executable),
                  std::vector<const HostArray *>{&a, &b}, 1.0f);
  std::thread two(runMany, std::ref(*second.executable),
                  std::vector<const HostArray *>{&x}, 1.0f);
  one.join();
  two.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(ExecutionTest, AnErrorIsItsThreadsOwn) {
  rt::clearError();
  std::promise<std::string> failed;
  std::promise<void> checked;
  std::thread other([&] {
    // The GPU was never started here: the runtime records an error for this
    // thread's run, which stays while this thread's run is not over.
    rt::beginRun(rt::Mode::CUDA);
    EXPECT_EQ(rt::deviceAlloc(16), nullptr);
    failed.set_value(rt::lastError());
    checked.get_future().wait();
    rt::clearError();
  });
  std::string seen = failed.get_future().get();
  std::string mine = rt::lastError();
  checked.set_value();
  other.join();
  EXPECT_NE(seen.find("before initCuda"), std::string::npos) << seen;
  EXPECT_EQ(mine, "");
}

} // namespace

// A freed block is reused by a request of any size that rounds to its
// capacity: tiny requests (32 bytes, in a 64-byte block) missed it, and a
// program with tiny results kept one more block per call.
TEST(HostCacheTest, TinyRequestsReuseTheirBlock) {
  fuse::rt::releaseHostCache();
  for (size_t bytes : {1, 4, 32, 33, 64, 100, 4096}) {
    void *first = fuse::rt::hostAlloc(bytes);
    ASSERT_NE(first, nullptr);
    fuse::rt::hostFree(first);
    size_t kept = fuse::rt::hostCacheBytes();
    EXPECT_EQ(kept, (std::max<size_t>(bytes, 1) + 63) / 64 * 64) << bytes;
    for (int i = 0; i < 100; ++i) {
      void *again = fuse::rt::hostAlloc(bytes);
      EXPECT_EQ(again, first) << bytes;
      fuse::rt::hostFree(again);
    }
    EXPECT_EQ(fuse::rt::hostCacheBytes(), kept) << bytes;
    fuse::rt::releaseHostCache();
  }
  // A block twice the request's capacity or more is left for larger ones.
  void *large = fuse::rt::hostAlloc(256);
  fuse::rt::hostFree(large);
  void *small = fuse::rt::hostAlloc(100);
  EXPECT_NE(small, large);
  fuse::rt::hostFree(small);
  fuse::rt::releaseHostCache();
}
