//===- Fuse.cpp - C API of fuse -------------------------------*- C++ -*-===//

#include "fuse-c/Fuse.h"

#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Dialect/Fuse/Utils/Location.h"
#include "fuse/Execution/Executable.h"
#include "fuse/InitAllDialects.h"
#include "fuse/Pipelines/Pipelines.h"
#include "fuse/Runtime/Runtime.h"
#include "fuse/Target/Translations.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <omp.h>
#include <pthread.h>

using namespace mlir;

struct fuse_program {
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<fuse::Executable> executable;
  std::string targetNote;
  /// What the compiler said about a program it compiled: remarks.
  std::string remarks;
  /// Its runs one at a time, and the read of the last one's profile.
  mutable std::mutex runs;
};

namespace {

/// What changes the library's shared state, one caller at a time:
/// compiling (LLVM, the CUDA driver's start-up, loading kernels),
/// destroying a program, freeing buffers. The runtime keeps each thread's
/// run apart (its error, its records, its stream), so runs of different
/// programs go at once.
/// A fork waits for the compile (or destroy, or free) in progress on
/// another thread, and for every program's run in progress (its `runs`):
/// a child forked in the middle of one would inherit the library's state
/// half changed, and its locks held by a thread it does not have, and hang
/// in its first compile, or in its first run of a program that another
/// thread of the parent was running. The child's copies of the mutexes are
/// made anew (their owner, the parent's forking thread, has another id
/// there).
std::recursive_mutex &libraryMutex();
/// The programs compiled and not destroyed (under libraryMutex), whose runs
/// a fork waits for.
std::vector<fuse_program *> &livePrograms() {
  static std::vector<fuse_program *> programs;
  return programs;
}
/// What fuse_free_buffer takes: the runtime's host cache has a lock of its
/// own, and a free need not wait for a compile (seconds behind a thread
/// compiling in a loop); a fork waits for it.
std::mutex &freeMutex() {
  static std::mutex mutex;
  return mutex;
}
void lockForFork() {
  libraryMutex().lock();
  for (fuse_program *program : livePrograms())
    program->runs.lock();
  freeMutex().lock();
}
void unlockAfterFork() {
  freeMutex().unlock();
  for (fuse_program *program : livePrograms())
    program->runs.unlock();
  libraryMutex().unlock();
}
void renewInChild() {
  new (&freeMutex()) std::mutex();
  for (fuse_program *program : livePrograms())
    new (&program->runs) std::mutex();
  new (&libraryMutex()) std::recursive_mutex();
}

std::recursive_mutex &libraryMutex() {
  static std::recursive_mutex mutex;
  // OpenMP's runtime registers fork handlers of its own as it starts, and
  // its preparation takes the lock that a parallel region starts under:
  // started first, so that ours, registered after, run before it (prepare
  // handlers run last registered first), and a run that a fork waits for
  // can end (it hung in its next parallel region).
  static bool forkSafe =
      (omp_get_max_threads(),
       pthread_atfork(lockForFork, unlockAfterFork, renewInChild) == 0);
  (void)forkSafe;
  return mutex;
}

char *copyString(const std::string &text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

void setError(char **error, const std::string &message) {
  if (error)
    *error = copyString(message);
}

/// The options a caller wrote (NULL: none), parsed and checked before
/// anything runs.
llvm::Expected<fuse::PipelineOptions>
parseOptions(const char *text,
             std::vector<fuse::PipelineOption> *given = nullptr) {
  return fuse::parsePipelineOptions(text ? text : "", given);
}

/// The threads of every program's context: a context's own pool lives as
/// long as it does, and each compiled program keeps its context (a Python
/// function with 20 programs in its cache held 40 idle threads).
///
/// A child of fork() has none of its parent's threads, and a pool made
/// before the fork waited for them forever (a compile in a worker of
/// Python's multiprocessing hung): the child makes its own pool, and the
/// parent's is left as it is (it cannot be destroyed without its threads).
std::atomic<llvm::DefaultThreadPool *> threadPool = nullptr;

llvm::ThreadPoolInterface &sharedThreadPool() {
  static const int forkHandler =
      pthread_atfork(nullptr, nullptr, [] { threadPool.store(nullptr); });
  (void)forkHandler;
  if (llvm::DefaultThreadPool *pool = threadPool.load())
    return *pool;
  // Two threads may make one at once: one keeps its pool, and the other's,
  // which has started no thread yet, is destroyed.
  auto *made = new llvm::DefaultThreadPool();
  llvm::DefaultThreadPool *expected = nullptr;
  if (threadPool.compare_exchange_strong(expected, made))
    return *made;
  delete made;
  return *expected;
}

std::unique_ptr<MLIRContext> newContext() {
  DialectRegistry registry;
  fuse::registerAllDialects(registry);
  auto context =
      std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  context->setThreadPool(sharedThreadPool());
  // Errors name their source line; no note with the op in generic form.
  context->printOpOnDiagnostic(false);
  return context;
}

/// Parses program text and collects the diagnostics of everything done
/// with the context while it lives: errors, warnings and notes with their
/// source lines and carets, as fuse-opt prints them; remarks (fusion's) one
/// line each ("<program>:2:8: remark: ...").
class Parsed {
public:
  Parsed(MLIRContext &context, const char *text) : context(context) {
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, "<program>"), llvm::SMLoc());
    handler = context.getDiagEngine().registerHandler([this](Diagnostic &d) {
      fuse::printDiagnostic(stream, d);
      return success();
    });
    withSource.emplace(sourceMgr, &context, stream);
    if (succeeded(fuse::checkNesting(sourceMgr, &context)))
      module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  }
  ~Parsed() {
    withSource.reset();
    context.getDiagEngine().eraseHandler(handler);
  }

  /// The collected diagnostics without the final newline.
  std::string messages() const {
    return llvm::StringRef(diagnostics).rtrim().str();
  }

  OwningOpRef<ModuleOp> module;
  /// The program text, for the source lines of compile errors
  /// (RunOptions::source).
  llvm::SourceMgr sourceMgr;

private:
  MLIRContext &context;
  std::string diagnostics;
  llvm::raw_string_ostream stream{diagnostics};
  DiagnosticEngine::HandlerID handler;
  std::optional<fuse::SourceLineCapture> withSource;
};

fuse::TensorSpec toSpec(const fuse_array &array) {
  return {std::vector<int64_t>(array.shape, array.shape + array.rank),
          static_cast<fuse::DType>(array.dtype)};
}

void fromSpec(const fuse::TensorSpec &spec, fuse_array *type) {
  std::memset(type, 0, sizeof(*type));
  type->dtype = static_cast<int32_t>(spec.dtype);
  type->rank = spec.shape.size();
  for (size_t d = 0; d < spec.shape.size() && d < FUSE_MAX_RANK; ++d)
    type->shape[d] = ShapedType::isDynamic(spec.shape[d]) ? -1 : spec.shape[d];
}

} // namespace

extern "C" fuse_program *fuse_compile(const char *mlirText, const char *entry,
                                      int32_t target, const char *optionText,
                                      char **error) {
  if (target != FUSE_TARGET_CPU && target != FUSE_TARGET_CUDA &&
      target != FUSE_TARGET_AUTO) {
    setError(error, "target " + std::to_string(target) +
                        " is none of FUSE_TARGET_CPU (0), FUSE_TARGET_CUDA "
                        "(1) and FUSE_TARGET_AUTO (2)");
    return nullptr;
  }
  if (!mlirText) {
    setError(error, "the program text is NULL");
    return nullptr;
  }
  std::lock_guard<std::recursive_mutex> shared(libraryMutex());
  std::vector<fuse::PipelineOption> given;
  llvm::Expected<fuse::PipelineOptions> pipeline =
      parseOptions(optionText, &given);
  if (!pipeline) {
    setError(error, llvm::toString(pipeline.takeError()));
    return nullptr;
  }
  auto program = std::make_unique<fuse_program>();
  program->context = newContext();
  Parsed parsed(*program->context, mlirText);
  if (!parsed.module) {
    setError(error, parsed.messages());
    return nullptr;
  }
  fuse::RunOptions options;
  options.entry = entry ? entry : "";
  options.entryOption = "entry=";
  options.pipeline = *pipeline;
  options.source = &parsed.sourceMgr;
  fuse::TargetRequest request =
      target == FUSE_TARGET_CPU    ? fuse::TargetRequest::CPU
      : target == FUSE_TARGET_CUDA ? fuse::TargetRequest::CUDA
                                   : fuse::TargetRequest::Auto;
  llvm::Expected<fuse::Target> chosen =
      fuse::chooseTarget(request, program->targetNote);
  if (!chosen) {
    setError(error, llvm::toString(chosen.takeError()));
    return nullptr;
  }
  options.target = *chosen;
  if (options.target == fuse::Target::CUDA &&
      !llvm::is_contained(given, fuse::PipelineOption::chip)) {
    llvm::Expected<std::string> chip = fuse::deviceChip();
    if (!chip) {
      setError(error, llvm::toString(chip.takeError()));
      return nullptr;
    }
    options.pipeline.chip = *chip;
    // The device's architecture, which LLVM may not know.
    if (llvm::Error invalid = fuse::checkPipelineOptions(
            options.pipeline, fuse::OptionSpelling::Key)) {
      setError(error, llvm::toString(std::move(invalid)));
      return nullptr;
    }
  }
  // A driver too old for the PTX, say: auto runs on the CPU, and says why.
  llvm::Expected<std::unique_ptr<fuse::Executable>> executable =
      fuse::compileForRequest(*parsed.module, options, request,
                              program->targetNote);
  if (!executable) {
    setError(error, llvm::toString(executable.takeError()));
    return nullptr;
  }
  program->executable = std::move(*executable);
  program->remarks = parsed.messages();
  livePrograms().push_back(program.get());
  return program.release();
}

extern "C" void fuse_destroy(fuse_program *program) {
  std::lock_guard<std::recursive_mutex> shared(libraryMutex());
  if (!program)
    return;
  llvm::erase(livePrograms(), program);
  {
    // A run in progress on another thread (or a read of its profile) ends
    // first: its code was unmapped under it (a segfault).
    std::lock_guard<std::mutex> turn(program->runs);
    program->executable.reset();
    program->context.reset();
  }
  delete program;
}

extern "C" int32_t fuse_max_rank(void) { return FUSE_MAX_RANK; }

extern "C" int32_t fuse_alignment(void) { return fuse::kMaxVectorAlignment; }

// The C header's codes are DTypes.def's order.
#define FUSE_DTYPE(ENUM, C, MLIR, NUMPY, BYTES, NPY)                           \
  static_assert(FUSE_##C == static_cast<int>(fuse::DType::ENUM),               \
                "FUSE_" #C " is not DType::" #ENUM);
#include "fuse/Support/DTypes.def"

extern "C" const char *fuse_dtype_spelling(int32_t code) {
  if (code < 0 || code >= fuse::kNumDTypes)
    return nullptr;
  // DTypes.def's spellings are string literals: null-terminated.
  return fuse::dtypeSpelling(static_cast<fuse::DType>(code)).data();
}

extern "C" int32_t fuse_program_target(const fuse_program *program) {
  if (!program)
    return -1;
  return program->executable->target() == fuse::Target::CUDA ? FUSE_TARGET_CUDA
                                                             : FUSE_TARGET_CPU;
}

extern "C" const char *fuse_program_target_note(const fuse_program *program) {
  return program ? program->targetNote.c_str() : "";
}

extern "C" const char *fuse_program_remarks(const fuse_program *program) {
  return program ? program->remarks.c_str() : "";
}

extern "C" int32_t fuse_num_inputs(const fuse_program *program) {
  return program ? program->executable->inputs().size() : -1;
}

extern "C" int32_t fuse_num_results(const fuse_program *program) {
  return program ? program->executable->results().size() : -1;
}

/// `specs[index]` in `type`; dtype and rank -1 for an index out of range (or
/// no program), which has no type.
static void typeAt(const std::vector<fuse::TensorSpec> *specs, int32_t index,
                   fuse_array *type) {
  if (!type)
    return;
  if (!specs || index < 0 || static_cast<size_t>(index) >= specs->size()) {
    std::memset(type, 0, sizeof(*type));
    type->dtype = type->rank = -1;
    return;
  }
  fromSpec((*specs)[index], type);
}

extern "C" void fuse_input_type(const fuse_program *program, int32_t index,
                                fuse_array *type) {
  typeAt(program ? &program->executable->inputs() : nullptr, index, type);
}

extern "C" void fuse_result_type(const fuse_program *program, int32_t index,
                                 fuse_array *type) {
  typeAt(program ? &program->executable->results() : nullptr, index, type);
}

/// False, and `error` set, when there is no program (a NULL one: a
/// fuse_compile that failed).
static bool haveProgram(const fuse_program *program, char **error) {
  if (!program)
    setError(error, "no program (NULL): fuse_compile returns NULL when it "
                    "fails, with its error");
  return program;
}

/// False, and `error` set, when `results` is NULL: every program has a
/// result (a function without one does not compile).
static bool haveResults(const fuse_program *program, const fuse_array *results,
                        char **error) {
  if (!results)
    setError(error, "the results are NULL: pass an array of " +
                        std::to_string(fuse_num_results(program)) +
                        " fuse_array (fuse_num_results) for the run to fill");
  return results;
}

/// The arrays that toOperands reads: inputs in host or device memory, or
/// outputs (whose data is NULL for a result without an array).
enum class Arrays { HostInputs, DeviceInputs, Outputs };

/// Views of the caller's arrays; false (and `error` set) if one is malformed.
/// Whether `numInputs` and `numOuts` (when not negative, which toOperands
/// refuses) are the program's counts: checked before the arrays are read,
/// past the end of the caller's when a count is too large.
static bool haveCounts(fuse_program *program, int32_t numInputs,
                       int32_t numOuts, char **error) {
  if (numInputs < 0 || numOuts < 0)
    return true;
  if (llvm::Error wrong =
          program->executable->checkCounts(numInputs, numOuts)) {
    setError(error, llvm::toString(std::move(wrong)));
    return false;
  }
  return true;
}

static bool toOperands(const fuse_array *inputs, int32_t numInputs,
                       std::vector<fuse::Executable::Operand> &operands,
                       char **error, Arrays kind = Arrays::HostInputs) {
  llvm::StringRef what = kind == Arrays::Outputs ? "output" : "input";
  if (numInputs < 0 || (numInputs > 0 && !inputs)) {
    setError(error, "the " + what.str() + "s are " +
                        (numInputs < 0
                             ? "a negative count, " + std::to_string(numInputs)
                             : std::string("NULL")));
    return false;
  }
  for (int32_t i = 0; i < numInputs; ++i) {
    const fuse_array &input = inputs[i];
    if (input.dtype < 0 || input.dtype >= fuse::kNumDTypes) {
      setError(error, what.str() + " " + std::to_string(i) +
                          " has unknown dtype " + std::to_string(input.dtype));
      return false;
    }
    if (input.rank < 0 || input.rank > FUSE_MAX_RANK) {
      setError(error, what.str() + " " + std::to_string(i) + " has rank " +
                          std::to_string(input.rank) + "; fuse runs arrays " +
                          "of rank 0 to " + std::to_string(FUSE_MAX_RANK));
      return false;
    }
    fuse::TensorSpec spec = toSpec(input);
    std::string name = what.str() + " " + std::to_string(i);
    // Its bytes, which must fit an int64_t (a size that wrapped around
    // allocated a result of 0 bytes that the kernel then wrote); a size of
    // 0 makes them 0 whatever the others are, as for numpy's arrays and
    // fuse-run's (in any order: 2^62 x 0 was refused, 0 x 2^62 not).
    int64_t bytes = fuse::dtypeSize(spec.dtype);
    if (llvm::any_of(spec.shape, [](int64_t size) { return size < 0; })) {
      setError(error, name + " has a negative dimension");
      return false;
    }
    if (llvm::is_contained(spec.shape, 0))
      bytes = 0;
    for (int64_t size : spec.shape) {
      if (bytes && __builtin_mul_overflow(bytes, size, &bytes)) {
        setError(error, name + " has more than 2^63 - 1 bytes");
        return false;
      }
    }
    if (bytes > 0 && !input.data && kind != Arrays::Outputs) {
      setError(error, name + " has " + std::to_string(bytes) +
                          " bytes and its data is NULL");
      return false;
    }
    // The targets read a bool's byte differently (the CPU: not 0; the GPU:
    // its lowest bit): a byte other than 0 and 1 is refused, where the
    // host can read it.
    if (kind == Arrays::HostInputs && spec.dtype == fuse::DType::Bool &&
        bytes > 0) {
      auto *data = static_cast<const uint8_t *>(input.data);
      // The bytes OR-ed a block at a time, a loop that vectorizes (a search
      // for the first byte above 1 took a byte at a time: 35% of a call of
      // a & b on 10^7 bools); the search only where a block has one.
      const uint8_t *bad = data + bytes;
      constexpr int64_t kBlock = 4096;
      for (int64_t start = 0; start < bytes && bad == data + bytes;
           start += kBlock) {
        const uint8_t *block = data + start;
        int64_t length = std::min(kBlock, bytes - start);
        uint8_t bits = 0;
        for (int64_t i = 0; i < length; ++i)
          bits |= block[i];
        if (bits > 1)
          bad = std::find_if(block, block + length,
                             [](uint8_t byte) { return byte > 1; });
      }
      if (bad != data + bytes) {
        setError(error, name + " is bool, and element " +
                            std::to_string(bad - data) + " is the byte " +
                            std::to_string(*bad) +
                            ": a FUSE_BOOL element is 0 or 1");
        return false;
      }
    }
    operands.push_back({input.data, spec.dtype, spec.shape});
  }
  return true;
}

static void fillResult(fuse_array &result, fuse::DType dtype,
                       llvm::ArrayRef<int64_t> shape, void *data) {
  fromSpec({shape.vec(), dtype}, &result);
  result.data = data;
}

extern "C" int32_t fuse_run(fuse_program *program, const fuse_array *inputs,
                            int32_t numInputs, fuse_array *results,
                            char **error) {
  return fuse_run_into(program, inputs, numInputs, nullptr, 0, results, error);
}

extern "C" int32_t fuse_run_into(fuse_program *program,
                                 const fuse_array *inputs, int32_t numInputs,
                                 const fuse_array *outs, int32_t numOuts,
                                 fuse_array *results, char **error) {
  // The inputs are read in place (CPU) or copied to the device once (CUDA).
  std::vector<fuse::Executable::Operand> operands, outOperands;
  if (!haveProgram(program, error) || !haveResults(program, results, error) ||
      !haveCounts(program, numInputs, numOuts, error) ||
      !toOperands(inputs, numInputs, operands, error) ||
      !toOperands(outs, numOuts, outOperands, error, Arrays::Outputs))
    return 1;
  std::lock_guard<std::mutex> turn(program->runs);
  llvm::Expected<std::vector<fuse::HostArray>> outputs =
      program->executable->run(operands, outOperands);
  if (!outputs) {
    setError(error, llvm::toString(outputs.takeError()));
    return 1;
  }
  for (auto [i, output] : llvm::enumerate(*outputs))
    fillResult(results[i], output.dtype(), output.shape(), output.release());
  return 0;
}

extern "C" int32_t fuse_run_device(fuse_program *program,
                                   const fuse_array *inputs, int32_t numInputs,
                                   uint64_t stream, fuse_array *results,
                                   char **error) {
  std::vector<fuse::Executable::Operand> operands;
  if (!haveProgram(program, error) || !haveResults(program, results, error) ||
      !haveCounts(program, numInputs, 0, error) ||
      !toOperands(inputs, numInputs, operands, error, Arrays::DeviceInputs))
    return 1;
  std::lock_guard<std::mutex> turn(program->runs);
  llvm::Expected<std::vector<fuse::Executable::Operand>> outputs =
      program->executable->runOnDevice(operands, stream);
  if (!outputs) {
    setError(error, llvm::toString(outputs.takeError()));
    return 1;
  }
  for (auto [i, output] : llvm::enumerate(*outputs))
    fillResult(results[i], output.dtype, output.shape, output.data);
  return 0;
}

extern "C" void fuse_free_device(void *data) {
  std::lock_guard<std::recursive_mutex> shared(libraryMutex());
  if (data)
    fuse::Executable::freeBuffer(fuse::Target::CUDA, data);
}

extern "C" char *fuse_last_profile_json(const fuse_program *program) {
  if (!program)
    return nullptr;
  std::lock_guard<std::mutex> turn(program->runs);
  return copyString(
      llvm::formatv("{0}", program->executable->profile().kernelsJSON()).str());
}

/// `mlirText` printed as `translation` with `options`, or null with
/// `error` set.
static char *translateText(const char *mlirText, fuse::Translation translation,
                           const char *optionText, char **error) {
  // (It was an empty module: an empty report, no PTX, and no error.)
  if (!mlirText) {
    setError(error, "the program text is NULL");
    return nullptr;
  }
  llvm::Expected<fuse::PipelineOptions> options = parseOptions(optionText);
  if (!options) {
    setError(error, llvm::toString(options.takeError()));
    return nullptr;
  }
  std::unique_ptr<MLIRContext> context = newContext();
  Parsed parsed(*context, mlirText);
  if (!parsed.module) {
    setError(error, parsed.messages());
    return nullptr;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(fuse::translate(*parsed.module, translation, *options, os))) {
    setError(error, parsed.messages());
    return nullptr;
  }
  return copyString(text);
}

extern "C" char *fuse_report_json(const char *mlirText, const char *options,
                                  char **error) {
  return translateText(mlirText, fuse::Translation::ReportJSON, options, error);
}

extern "C" char *fuse_report_text(const char *mlirText, const char *options,
                                  char **error) {
  return translateText(mlirText, fuse::Translation::Report, options, error);
}

extern "C" char *fuse_report_dot(const char *mlirText, const char *options,
                                 char **error) {
  return translateText(mlirText, fuse::Translation::ReportDot, options, error);
}

extern "C" char *fuse_ptx(const char *mlirText, const char *options,
                          char **error) {
  return translateText(mlirText, fuse::Translation::PTX, options, error);
}

extern "C" void fuse_free_string(char *text) { std::free(text); }
// A result buffer is either a kernel's own (the runtime's host cache) or
// std::malloc'ed; hostFree takes both.
extern "C" void fuse_free_buffer(void *data) {
  std::lock_guard<std::mutex> turn(freeMutex());
  fuse::Executable::freeBuffer(fuse::Target::CPU, data);
}

extern "C" size_t fuse_host_cache_bytes(void) {
  return fuse::rt::hostCacheBytes();
}

extern "C" void fuse_release_host_cache(void) {
  std::lock_guard<std::recursive_mutex> shared(libraryMutex());
  fuse::rt::releaseHostCache();
}
