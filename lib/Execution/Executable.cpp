//===- Executable.cpp - compile a fuse function and run it -----*- C++ -*-===//

#include "fuse/Execution/Executable.h"

#include "fuse/Dialect/Fuse/IR/FuseDialect.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"
#include "fuse/Dialect/Fuse/Utils/Location.h"
#include "fuse/Dialect/Fuse/Utils/Profile.h"
#include "fuse/Emulator/HostKernels.h"
#include "fuse/InitAllDialects.h"
#include "fuse/Runtime/Runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#include <cmath>
#include <csetjmp>
#include <cstring>
#include <omp.h>
#include <thread>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

using namespace mlir;
using namespace fuse;

std::string TensorSpec::str() const {
  std::string text = "tensor<";
  for (int64_t size : shape)
    text += (ShapedType::isDynamic(size) ? "?" : std::to_string(size)) + "x";
  return text + dtypeSpelling(dtype).str() + ">";
}

static std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  if (shape.empty())
    return "() (a scalar)";
  std::string text;
  for (auto [i, size] : llvm::enumerate(shape))
    text += (i ? "x" : "") +
            (ShapedType::isDynamic(size) ? "?" : std::to_string(size));
  return text;
}

std::optional<std::string>
TensorSpec::mismatch(DType given, llvm::ArrayRef<int64_t> givenShape) const {
  if (given != dtype)
    return "expected " + dtypeName(dtype).str() + " data, got " +
           dtypeName(given).str();
  if (givenShape.size() != shape.size())
    return "expected rank " + std::to_string(shape.size()) + ", got shape " +
           shapeText(givenShape);
  for (auto [d, size] : llvm::enumerate(shape))
    if (!ShapedType::isDynamic(size) && size != givenShape[d])
      return "expected shape " + shapeText(shape) + ", got " +
             shapeText(givenShape) + " (dimension " + std::to_string(d) + ": " +
             std::to_string(size) + " vs " + std::to_string(givenShape[d]) +
             ")";
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// JIT hooks: failed asserts and allocations leave the JIT code by longjmp
//===----------------------------------------------------------------------===//

namespace {
thread_local std::jmp_buf *jitExit = nullptr;
thread_local std::string jitError;

/// cf.assert lowers to puts(message) then abort(): keep the message...
extern "C" int fuseJitPuts(const char *message) {
  jitError = message;
  return 0;
}

/// ...and leave the JIT-compiled code instead of aborting the process.
extern "C" void fuseJitAbort() {
  if (jitError.empty())
    jitError = "the compiled program aborted";
  std::longjmp(*jitExit, 1);
}

/// What each host allocation of the running program is for (its module's
/// fuse.allocations), and the one it is making now: fuse_allocation(id)
/// comes right before each (fuse-name-allocations).
thread_local llvm::ArrayRef<std::string> jitAllocationNames;
thread_local int64_t jitAllocation = -1;

extern "C" void fuseJitAllocation(int64_t id) { jitAllocation = id; }

/// " for result 0" (or " for the value at f.mlir:3:8, ...") of the
/// allocation being made, which is then done with.
std::string allocationPurpose() {
  int64_t id = std::exchange(jitAllocation, -1);
  if (id < 0 || size_t(id) >= jitAllocationNames.size())
    return "";
  return " for " + jitAllocationNames[id];
}

/// "N bytes", and in GiB from 1 GiB on.
std::string byteCount(uint64_t bytes) {
  std::string text = std::to_string(bytes) + " bytes";
  if (bytes >= (uint64_t(1) << 30))
    text += llvm::formatv(" ({0:F1} GiB)", double(bytes) / double(1 << 30));
  return text;
}

/// Host buffers of the CPU target come from the runtime's cache; running
/// out of memory is an error, not a crash.
extern "C" void *fuseJitMalloc(size_t bytes) {
  void *ptr = rt::hostAlloc(bytes);
  if (!ptr && bytes) {
    jitError = "out of host memory allocating " + byteCount(bytes) +
               allocationPurpose();
    std::longjmp(*jitExit, 1);
  }
  jitAllocation = -1;
  // Freed if the run stops before it frees it (rt::freeRunAllocations).
  rt::recordHostAllocation(ptr);
  return ptr;
}

extern "C" void fuseJitFree(void *ptr) {
  rt::forgetAllocation(ptr);
  rt::hostFree(ptr);
}

/// The caller's arrays for the results of the run on this thread (out=),
/// indexed like the results; a null pointer where there is none.
struct ResultSlot {
  void *data = nullptr;
  size_t bytes = 0;
  /// The bytes of one element (the result's dtype).
  size_t elementBytes = 1;
};
thread_local llvm::ArrayRef<ResultSlot> jitResultSlots;

/// The allocation of result `index` (fuse-result-allocs): the caller's own
/// array if it gave one of the right size, else a buffer of the runtime's
/// host cache.
extern "C" void *fuseJitResultAlloc(int64_t index, int64_t bytes) {
  if (index < 0 || size_t(index) >= jitResultSlots.size() ||
      !jitResultSlots[index].data)
    return fuseJitMalloc(bytes);
  const ResultSlot &slot = jitResultSlots[index];
  if (slot.bytes != size_t(bytes)) {
    // The result's shape is known here only by its bytes.
    jitError = "the output array for result " + std::to_string(index) +
               " has " + std::to_string(slot.bytes / slot.elementBytes) +
               " elements; the result has " +
               std::to_string(size_t(bytes) / slot.elementBytes);
    std::longjmp(*jitExit, 1);
  }
  return slot.data;
}

/// Device buffers of the cuda target, from the runtime: an allocation that
/// fails stops the run, and its error says what it was for (an error from
/// before, which makes the runtime refuse it, is left as it is).
extern "C" void *fuseJitDeviceAlloc(uint64_t bytes, void *stream,
                                    bool isHostShared) {
  bool failedBefore = !rt::lastError().empty();
  void *ptr = mgpuMemAlloc(bytes, stream, isHostShared);
  if (!ptr && !failedBefore) {
    std::string why = rt::lastError();
    jitError =
        (why.empty() ? "allocating " + byteCount(bytes) + " failed" : why) +
        allocationPurpose();
    std::longjmp(*jitExit, 1);
  }
  jitAllocation = -1;
  return ptr;
}

/// bf16 conversions that compiler-rt provides and the JIT does not find:
/// round to nearest even, NaN stays a (quiet) NaN. The x86-64 and AArch64
/// ABIs return a bf16 in the low 16 bits of the first float register, so
/// these return a float holding those bits (no __bf16 arithmetic here,
/// which could itself need compiler-rt).
float bf16Result(uint16_t bits) {
  uint32_t word = bits;
  float result;
  std::memcpy(&result, &word, 4);
  return result;
}

uint16_t bf16Bits(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  if (std::isnan(x))
    return (bits >> 16) | 0x40;
  bits += 0x7fff + ((bits >> 16) & 1);
  return bits >> 16;
}

extern "C" float fuseTruncSFBF2(float x) { return bf16Result(bf16Bits(x)); }

extern "C" float fuseTruncDFBF2(double x) {
  // Straight from double: going through float would round twice.
  llvm::APFloat value(x);
  bool lost = false;
  value.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven,
                &lost);
  return bf16Result(value.bitcastToAPInt().getZExtValue());
}

/// Half-precision conversions that the JIT may not find in a process that
/// did not load libgcc_s globally (a Python extension, say).
extern "C" _Float16 fuseTruncSFHF2(float x) { return static_cast<_Float16>(x); }
extern "C" _Float16 fuseTruncDFHF2(double x) {
  return static_cast<_Float16>(x);
}
extern "C" float fuseExtendHFSF2(_Float16 x) { return static_cast<float>(x); }

/// The kernels run in the default floating-point environment, whatever the
/// caller's: round to nearest even, subnormals neither flushed to zero
/// (FTZ) nor read as zero (DAZ). A library built with -ffast-math, or
/// torch.set_flush_denormal(True), sets FTZ and DAZ for the whole thread;
/// the numerics contract (docs/accuracy.md) must not depend on that.
class DefaultFloatingPointEnvironment {
public:
#if defined(__SSE__)
  DefaultFloatingPointEnvironment() : saved(_mm_getcsr()) {
    // All exceptions masked, round to nearest, no FTZ, no DAZ.
    _mm_setcsr(0x1f80);
  }
  ~DefaultFloatingPointEnvironment() { _mm_setcsr(saved); }

private:
  unsigned saved;
#endif
};

/// Calls the packed entry with `args` on `threads` OpenMP threads; false
/// when it left by longjmp. libomp passes the calling thread's
/// floating-point control to its workers at each parallel region
/// (KMP_INHERIT_FP_CONTROL, on by default), so they too run in the default
/// environment.
bool callJit(void (*entry)(void **), void **args, int threads) {
  DefaultFloatingPointEnvironment environment;
  // The calling thread's OpenMP setting is the application's: given back
  // after the run (an application's own parallel regions ran on fuse's
  // thread count after a call).
  int callers = omp_get_max_threads();
  omp_set_num_threads(threads);
  std::jmp_buf buffer;
  jitExit = &buffer;
  jitError.clear();
  if (setjmp(buffer)) {
    jitExit = nullptr;
    omp_set_num_threads(callers);
    return false;
  }
  entry(args);
  jitExit = nullptr;
  omp_set_num_threads(callers);
  return true;
}

llvm::orc::SymbolMap runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](llvm::StringRef name, auto *fn) {
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                               llvm::JITSymbolFlags::Exported};
  };
  add("puts", &fuseJitPuts);
  add("abort", &fuseJitAbort);
  add("malloc", &fuseJitMalloc);
  add(kResultAllocFunction, &fuseJitResultAlloc);
  add("free", &fuseJitFree);
  add("__truncsfbf2", &fuseTruncSFBF2);
  add("__truncdfbf2", &fuseTruncDFBF2);
  add("__truncsfhf2", &fuseTruncSFHF2);
  add("__truncdfhf2", &fuseTruncDFHF2);
  add("__extendhfsf2", &fuseExtendHFSF2);
  add(kKernelBeginHook, &fuse_kernel_begin);
  add(kKernelEndHook, &fuse_kernel_end);
  add(kCopyBeginHook, &fuse_copy_begin);
  add(kCopyEndHook, &fuse_copy_end);
  add(kAllocationHook, &fuseJitAllocation);
  add("mgpuModuleLoad", &mgpuModuleLoad);
  add("mgpuModuleLoadJIT", &mgpuModuleLoadJIT);
  add("mgpuModuleUnload", &mgpuModuleUnload);
  add("mgpuModuleGetFunction", &mgpuModuleGetFunction);
  add("mgpuLaunchKernel", &mgpuLaunchKernel);
  add("mgpuStreamCreate", &mgpuStreamCreate);
  add("mgpuStreamDestroy", &mgpuStreamDestroy);
  add("mgpuStreamSynchronize", &mgpuStreamSynchronize);
  add("mgpuStreamWaitEvent", &mgpuStreamWaitEvent);
  add("mgpuEventCreate", &mgpuEventCreate);
  add("mgpuEventDestroy", &mgpuEventDestroy);
  add("mgpuEventSynchronize", &mgpuEventSynchronize);
  add("mgpuEventRecord", &mgpuEventRecord);
  add("mgpuMemAlloc", &fuseJitDeviceAlloc);
  add("mgpuMemFree", &mgpuMemFree);
  add("mgpuMemcpy", &mgpuMemcpy);
  add("mgpuMemset32", &mgpuMemset32);
  add("mgpuMemset16", &mgpuMemset16);
  return symbols;
}

/// The words of a memref descriptor of rank `rank`: two pointers, the
/// offset, the sizes and the strides.
size_t descriptorWords(size_t rank) { return 3 + 2 * rank; }

} // namespace

//===----------------------------------------------------------------------===//
// Compile
//===----------------------------------------------------------------------===//

Executable::~Executable() = default;

/// `@name` of each function of `module` with a body, in program order.
static std::vector<std::string> bodyFunctionNames(ModuleOp module) {
  std::vector<std::string> names;
  for (func::FuncOp candidate : module.getOps<func::FuncOp>())
    if (!candidate.isExternal())
      names.push_back(symbolText(candidate.getSymName()));
  return names;
}

/// The symbol of the compiled function `name`: `fuse.name`.
static std::string entrySymbol(llvm::StringRef name) {
  return ("fuse." + name).str();
}

llvm::Expected<Executable::Lowered>
Executable::lower(ModuleOp module, const RunOptions &options) {
  MLIRContext *context = module.getContext();
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      cpuTargetMachine(options.cpu);
  if (!machine)
    return machine.takeError();
  PipelineOptions pipeline = options.pipeline;
  pipeline.cpuRegisterBytes = cpuRegisterBytes(**machine);
  // Errors become the Error this returns; remarks (fusion's, with the
  // remarks option) go on to the caller's handler, which shows them.
  std::string diagnostics;
  llvm::raw_string_ostream diagnosticStream(diagnostics);
  // One of the two (ScopedDiagnosticHandler's destructor is not virtual).
  std::optional<SourceLineCapture> withSource;
  std::optional<ScopedDiagnosticHandler> capture;
  if (options.source)
    withSource.emplace(*options.source, context, diagnosticStream);
  else
    capture.emplace(context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Remark)
        return failure();
      printDiagnostic(diagnosticStream, diag);
      return success();
    });
  // fuse-check-program is the one check of what a program may hold (fuse
  // ops, ranked tensors of fuse's element types); its errors, located.
  auto checkProgram = [&](ModuleOp program) -> llvm::Error {
    PassManager check(context);
    check.addPass(createFuseCheckProgram());
    if (failed(check.run(program)))
      return llvm::createStringError(llvm::StringRef(diagnostics).rtrim());
    return llvm::Error::success();
  };

  func::FuncOp func;
  std::string entry = namedEntry(options.entry);
  if (!entry.empty()) {
    func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal()) {
      std::vector<std::string> names = bodyFunctionNames(module);
      return llvm::createStringError(
          "no function " + symbolText(entry) + " with a body in the program" +
          (names.empty() ? "" : " (it has " + llvm::join(names, ", ") + ")"));
    }
  } else {
    std::vector<std::string> names;
    for (func::FuncOp candidate : module.getOps<func::FuncOp>())
      if (!candidate.isExternal() && candidate.isPublic()) {
        func = candidate;
        names.push_back(symbolText(candidate.getSymName()));
      }
    if (names.empty()) {
      // Private functions run only when named.
      std::vector<std::string> hidden = bodyFunctionNames(module);
      if (hidden.empty()) {
        // What else it holds (a nested module, another dialect's op) is
        // said where it is, as fuse-opt says it.
        if (llvm::Error error = checkProgram(module))
          return error;
        return llvm::createStringError("the program has no function to run");
      }
      return llvm::createStringError(
          "the program has no public function to run; its private ones (" +
          llvm::join(hidden, ", ") + ") run when named with " +
          options.entryOption);
    }
    if (names.size() > 1)
      return llvm::createStringError(
          "the program has several functions (" + llvm::join(names, ", ") +
          "); choose one with " + options.entryOption);
  }

  // Only the entry is compiled, checked before its signature is read.
  OwningOpRef<ModuleOp> clone = module.clone();
  for (func::FuncOp other :
       llvm::make_early_inc_range(clone->getOps<func::FuncOp>()))
    if (other.getSymName() != func.getSymName())
      other.erase();
  if (llvm::Error error = checkProgram(*clone))
    return error;
  // Its kernels have the names that the report of the module gives them.
  pipeline.firstKernel = kernelsBefore(module, func.getSymName(), pipeline);

  auto executable = std::unique_ptr<Executable>(new Executable());
  executable->entryName = func.getSymName().str();
  executable->runTarget = options.target;
  executable->vectorBytes = std::clamp<int64_t>(
      kernelVectorBytes(options.target, pipeline), 1, kMaxVectorAlignment);
  // Ranked tensors of fuse's element types and of rank kMaxRank at most
  // (fuse-check-program).
  auto specOf = [](Type type) {
    auto tensor = cast<RankedTensorType>(type);
    return TensorSpec{tensor.getShape().vec(),
                      *fromMLIRType(tensor.getElementType())};
  };
  for (Type type : func.getArgumentTypes())
    executable->inputSpecs.push_back(specOf(type));
  if (func.getNumResults() == 0)
    return llvm::createStringError(
        formatLocation(func.getLoc()) +
        ": error: " + symbolText(executable->entryName) +
        " returns no result, so running it computes nothing; a function "
        "that runs returns tensors");
  for (Type type : func.getResultTypes())
    executable->resultSpecs.push_back(specOf(type));

  // The compiled entry's symbol has a '.', which no function of the C
  // library or of the runtime has in its name: a program may call its
  // function `sin`, `free` or `mgpuLaunchKernel`.
  SymbolTable::setSymbolName(*clone->getOps<func::FuncOp>().begin(),
                             entrySymbol(executable->entryName));
  {
    PassManager pm(context);
    buildExecutablePipeline(pm, options.target, pipeline);
    if (failed(pm.run(*clone)))
      return llvm::createStringError(llvm::StringRef(diagnostics).rtrim());
  }
  if (ArrayAttr names = FuseDialect::KernelsAttrHelper(context).getAttr(
          clone->getOperation()))
    for (Attribute name : names)
      executable->kernels.push_back(cast<StringAttr>(name).getValue().str());
  if (ArrayAttr pairs = FuseDialect::OverwritesAttrHelper(context).getAttr(
          clone->getOperation()))
    for (auto pair : pairs.getAsRange<DenseI64ArrayAttr>())
      executable->overwrites.push_back(
          {static_cast<unsigned>(pair[0]), static_cast<unsigned>(pair[1])});
  if (ArrayAttr names = FuseDialect::AllocationsAttrHelper(context).getAttr(
          clone->getOperation()))
    for (Attribute name : names)
      executable->allocations.push_back(
          cast<StringAttr>(name).getValue().str());
  DialectRegistry registry;
  registerLLVMIRTranslations(registry);
  context->appendDialectRegistry(registry);
  // The C wrapper calls the entry with every descriptor unpacked, five
  // words per tensor argument: with 100 arguments, LLVM's scheduling of
  // that one call, and of the entry's reading of them, took seconds.
  // Inlined into the wrapper (its only caller: the JIT looks the wrapper
  // up), the wrapper reads each word where it is used.
  if (auto entry = clone->lookupSymbol<LLVM::LLVMFuncOp>(
          entrySymbol(executable->entryName))) {
    entry.setAlwaysInline(true);
    entry.setLinkage(LLVM::Linkage::Internal);
  }
  return Lowered{std::move(executable), std::move(clone), std::move(*machine)};
}

llvm::Expected<int> fuse::cpuThreads(const RunOptions &options) {
  // options.threads is fuse-run's --threads.
  if (options.threads < 0)
    return llvm::createStringError(
        "--threads=" + std::to_string(options.threads) +
        ": it must be 0 or more (0 means FUSE_NUM_THREADS, else every core)");
  std::string most = std::to_string(kMaxCPUThreads);
  if (options.threads > kMaxCPUThreads)
    return llvm::createStringError(
        "--threads=" + std::to_string(options.threads) +
        ": the cpu target runs on " + most + " threads at most");
  if (std::string error = rt::hostCacheLimitError(); !error.empty())
    return llvm::createStringError(error);
  if (options.threads > 0)
    return options.threads;
  if (options.target == Target::CUDA)
    return 1;
  if (const char *text = std::getenv("FUSE_NUM_THREADS"); text && *text) {
    // Digits past int64_t's range are too many threads, not "not a number".
    llvm::StringRef digits = llvm::StringRef(text).trim();
    int64_t threads = 0;
    bool parsed = !digits.getAsInteger(10, threads);
    bool allDigits = !digits.empty() && llvm::all_of(digits, llvm::isDigit);
    if (parsed ? threads < 1 : !allDigits)
      return llvm::createStringError("FUSE_NUM_THREADS=" + std::string(text) +
                                     ": not a number of threads from 1 to " +
                                     most);
    if (!parsed || threads > kMaxCPUThreads)
      return llvm::createStringError("FUSE_NUM_THREADS=" + std::string(text) +
                                     ": the cpu target runs on " + most +
                                     " threads at most");
    return static_cast<int>(threads);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

llvm::ArrayRef<llvm::StringRef> fuse::excludedCPUFeatures() {
  static const llvm::StringRef features[] = {"avx512bf16", "avxneconvert",
                                             "avx512fp16"};
  return features;
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
fuse::cpuTargetMachine(llvm::StringRef cpu) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> builder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  if (!cpu.empty()) {
    // The named CPU's own features, not the host's.
    std::string error;
    const llvm::Target *target =
        llvm::TargetRegistry::lookupTarget(builder->getTargetTriple(), error);
    if (!target)
      return llvm::createStringError(error);
    std::unique_ptr<llvm::MCSubtargetInfo> info(
        target->createMCSubtargetInfo(builder->getTargetTriple(), "", ""));
    if (!info || !info->isCPUStringValid(cpu))
      return llvm::createStringError(
          "unknown CPU '" + cpu.str() + "' for " +
          builder->getTargetTriple().str() +
          " (LLVM's names, such as x86-64-v3, znver4 or sapphirerapids)");
    builder->setCPU(cpu.str());
    builder->getFeatures() = llvm::SubtargetFeatures();
  }
  for (llvm::StringRef feature : excludedCPUFeatures())
    builder->getFeatures().AddFeature(feature, /*Enable=*/false);
  // LLVM keeps vectors to 256 bits on Intel's AVX-512 CPUs by default (a
  // tuning against the clock drop of older ones); the kernels' 16-lane
  // arithmetic then takes two instructions per op. Full width is faster
  // here (a 13-op tanh/exp chain: 60-71 -> 54 ms per 1e7 on one Sapphire
  // Rapids core) and computes the same bits.
  if (builder->getTargetTriple().isX86())
    builder->getFeatures().AddFeature("prefer-256-bit", /*Enable=*/false);
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  return builder->createTargetMachine();
}

int64_t fuse::cpuRegisterBytes(const llvm::TargetMachine &machine) {
  const llvm::MCSubtargetInfo *info = machine.getMCSubtargetInfo();
  if (machine.getTargetTriple().isX86()) {
    if (info->checkFeatures("+avx512f"))
      return 64;
    if (info->checkFeatures("+avx"))
      return 32;
  }
  return 16;
}

/// LLVM's O3 on the module, as the JIT runs it. Calls of the C library's
/// math functions (fuse-math-to-libm) are `nobuiltin`: LLVM would otherwise
/// fold them on constant operands with the host's double-precision
/// functions, which a fused kernel shows it and an eager one does not.
static std::function<llvm::Error(llvm::Module *)> cpuOptimizer() {
  auto optimize = makeOptimizingTransformer(3, 0, nullptr);
  return [optimize](llvm::Module *module) {
    for (llvm::Function &function : *module) {
      if (!function.isDeclaration() || function.isIntrinsic())
        continue;
      for (llvm::User *user : function.users())
        if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
          if (call->getCalledFunction() == &function)
            call->addFnAttr(llvm::Attribute::NoBuiltin);
    }
    return optimize(module);
  };
}

llvm::Expected<std::unique_ptr<Executable>>
Executable::compile(ModuleOp module, const RunOptions &options) {
  // An earlier failure (a CUDA run that could not start) is not this one's.
  rt::clearError();
  // A driver without a GPU runs the kernels' LLVM IR on the host.
  if (options.target == Target::CUDA)
    hostkernels::enableIfDriverRunsKernelsOnHost();
  llvm::Expected<Lowered> lowered = lower(module, options);
  if (!lowered)
    return lowered.takeError();
  auto &[executable, clone, machine] = *lowered;

  llvm::Expected<int> threads = cpuThreads(options);
  if (!threads)
    return threads.takeError();
  executable->threadCount = *threads;
  // The OpenMP runtime starts at its first call, and registers its fork
  // handlers only then. Started by a run, a fork at that moment left the
  // child waiting on the runtime's start lock, held by a thread that the
  // child does not have. Started here, in a compile, which a fork waits
  // for (the C API's pthread_atfork handlers hold its library lock).
  static const int openmpStarted = omp_get_max_threads();
  (void)openmpStarted;

  ExecutionEngineOptions engineOptions;
  // The OpenMP runtime that the cpu target's parallel launches call; the
  // process may not see it (Python loads fuse's library privately).
  llvm::StringRef openmp[] = {FUSE_OPENMP_LIBRARY};
  engineOptions.sharedLibPaths = openmp;
  std::function<llvm::Error(llvm::Module *)> optimizer = cpuOptimizer();
  engineOptions.transformer = optimizer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  // MLIR's default writes a perf jitdump file per process, which grows
  // with every compile and is never removed ($JITDUMPDIR, else /tmp):
  // only when asked, for `perf record -k 1` (FUSE_JIT_PERF=1).
  const char *perf = std::getenv("FUSE_JIT_PERF");
  engineOptions.enablePerfNotificationListener =
      perf && llvm::StringRef(perf) == "1";
  auto engine =
      ExecutionEngine::create(*clone, engineOptions, std::move(machine));
  if (!engine)
    return engine.takeError();
  executable->engine = std::move(*engine);
  executable->engine->registerSymbols(runtimeSymbols);
  // Loads the kernels' GPU module (a global constructor) for CUDA.
  executable->engine->initialize();
  auto entry = executable->engine->lookupPacked(
      "_mlir_ciface_" + entrySymbol(executable->entryName));
  if (!entry)
    return entry.takeError();
  executable->entry = *entry;
  if (!rt::lastError().empty())
    return llvm::createStringError(rt::lastError());
  return std::move(executable);
}

llvm::Expected<std::string> Executable::assemble(ModuleOp module,
                                                 const RunOptions &options) {
  if (options.target != Target::CPU)
    return llvm::createStringError(
        "assembly is the cpu target's; the cuda target's kernels are PTX");
  llvm::Expected<Lowered> lowered = lower(module, options);
  if (!lowered)
    return lowered.takeError();
  std::unique_ptr<llvm::TargetMachine> &machine = lowered->machine;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*lowered->module, llvmContext);
  if (!llvmModule)
    return llvm::createStringError("cannot translate the program to LLVM IR");
  ExecutionEngine::setupTargetTripleAndDataLayout(llvmModule.get(),
                                                  machine.get());
  if (llvm::Error error = cpuOptimizer()(llvmModule.get()))
    return std::move(error);
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, os, nullptr,
                                   llvm::CodeGenFileType::AssemblyFile))
    return llvm::createStringError("LLVM cannot emit assembly for " +
                                   machine->getTargetCPU().str());
  passes.run(*llvmModule);
  return text.str().str();
}

//===----------------------------------------------------------------------===//
// Run
//===----------------------------------------------------------------------===//

llvm::Error Executable::checkCounts(size_t numInputs, size_t numOuts) const {
  if (numInputs != inputSpecs.size())
    return llvm::createStringError(
        symbolText(entryName) + " takes " + std::to_string(inputSpecs.size()) +
        " argument(s), but " + std::to_string(numInputs) +
        " input(s) were given");
  if (numOuts != 0 && numOuts != resultSpecs.size())
    return llvm::createStringError(std::to_string(numOuts) +
                                   " output array(s) for " +
                                   std::to_string(resultSpecs.size()) +
                                   " result(s) of " + symbolText(entryName));
  return llvm::Error::success();
}

llvm::Error Executable::checkOperands(llvm::ArrayRef<Operand> operands) const {
  if (llvm::Error error = checkCounts(operands.size(), 0))
    return error;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    const TensorSpec &spec = inputSpecs[i];
    if (std::optional<std::string> why =
            spec.mismatch(operand.dtype, operand.shape))
      return llvm::createStringError("argument " + std::to_string(i) + " (" +
                                     spec.str() + "): " + *why);
  }
  return llvm::Error::success();
}

static std::vector<Executable::Operand>
operandsOf(llvm::ArrayRef<const HostArray *> arrays) {
  std::vector<Executable::Operand> operands;
  for (const HostArray *array : arrays)
    operands.push_back(
        {const_cast<void *>(array->data()), array->dtype(), array->shape()});
  return operands;
}

/// A failed size check names dimensions of arguments ("dimension 0 of
/// argument 1"); add the sizes they had in this run.
std::string fuse::namedEntry(llvm::StringRef entry) {
  entry.consume_front("@");
  if (entry.size() < 2 || !entry.starts_with("\"") || !entry.ends_with("\""))
    return entry.str();
  // Quoted: as MLIR writes a symbol, `\\`, `\"` or two hex digits escaped.
  llvm::StringRef quoted = entry.drop_front().drop_back();
  std::string name;
  for (size_t i = 0; i < quoted.size(); ++i) {
    if (quoted[i] == '\\' && i + 1 < quoted.size()) {
      if (quoted[i + 1] == '\\' || quoted[i + 1] == '"') {
        name += quoted[++i];
        continue;
      }
      if (i + 2 < quoted.size() && llvm::isHexDigit(quoted[i + 1]) &&
          llvm::isHexDigit(quoted[i + 2])) {
        name += static_cast<char>(
            llvm::hexFromNibbles(quoted[i + 1], quoted[i + 2]));
        i += 2;
        continue;
      }
    }
    name += quoted[i];
  }
  return name;
}

static std::string withSizes(const std::string &message,
                             llvm::ArrayRef<Executable::Operand> operands) {
  llvm::Regex dimension("dimension ([0-9]+) of argument ([0-9]+)");
  llvm::StringRef rest = message;
  std::vector<std::string> sizes;
  std::vector<std::pair<unsigned, unsigned>> named;
  llvm::SmallVector<llvm::StringRef> match;
  while (dimension.match(rest, &match)) {
    unsigned d = 0, a = 0;
    match[1].getAsInteger(10, d);
    match[2].getAsInteger(10, a);
    named.push_back({a, d});
    if (a < operands.size() && d < operands[a].shape.size())
      sizes.push_back(std::to_string(operands[a].shape[d]));
    rest = rest.substr(match[0].data() - rest.data() + match[0].size());
  }
  if (sizes.empty())
    return message;
  std::string text = message + "; this run has " + llvm::join(sizes, " vs ");
  // numpy would stretch the 1; fuse stretches a static 1 only (a `?` that
  // is 1 in one run is N in another).
  // A `?` against a static size other than 1 ("must be 4") is the same.
  llvm::Regex staticSize("must be ([0-9]+) \\(broadcasting assumes it\\)");
  llvm::SmallVector<llvm::StringRef> mustBe;
  bool againstStatic = staticSize.match(message, &mustBe) && mustBe[1] != "1" &&
                       sizes.size() == 1 && sizes[0] == "1";
  if (againstStatic || (message.find("must be equal") != std::string::npos &&
                        llvm::is_contained(sizes, "1") &&
                        llvm::any_of(sizes, [](const std::string &size) {
                          return size != "1";
                        })))
    text += " (a `?` size is never stretched as numpy stretches a 1: to "
            "broadcast that dimension, give it the static size 1 in the "
            "argument's type)";
  // Two dimensions of one argument: usually a reduction's result, whose
  // reduced dimension was dropped, broadcast back over its operand (x -
  // x.max(axis=-1) of an N x M x).
  else if (named.size() == 2 && named[0].first == named[1].first &&
           named[0].second != named[1].second)
    text += " (two dimensions of one argument: where an operand is a "
            "reduction of the other, keep its reduced dimension as a 1 to "
            "broadcast it back, keepdims=True in Python, a `? x 1` result "
            "type in fuse)";
  return text;
}

/// The elements of an array of `shape`.
static size_t elementCount(llvm::ArrayRef<int64_t> shape) {
  size_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

static size_t sizeInBytes(const Executable::Operand &operand) {
  return elementCount(operand.shape) * dtypeSize(operand.dtype);
}

llvm::Expected<std::vector<Executable::Operand>>
Executable::invoke(llvm::ArrayRef<Operand> operands,
                   llvm::ArrayRef<Operand> outs) {
  // Memref descriptors: both pointers, offset 0, sizes, row-major strides.
  std::vector<std::vector<int64_t>> descriptors;
  for (const Operand &operand : operands) {
    size_t rank = operand.shape.size();
    std::vector<int64_t> words(descriptorWords(rank));
    words[0] = words[1] = reinterpret_cast<int64_t>(operand.data);
    int64_t stride = 1;
    for (size_t d = rank; d-- > 0;) {
      words[3 + d] = operand.shape[d];
      words[3 + rank + d] = stride;
      stride *= operand.shape[d];
    }
    descriptors.push_back(std::move(words));
  }

  size_t resultWords = 0;
  for (const TensorSpec &spec : resultSpecs)
    resultWords += descriptorWords(spec.shape.size());
  std::vector<int64_t> results(std::max<size_t>(resultWords, 1));
  std::vector<void *> pointers;
  std::vector<void *> args;
  if (!resultSpecs.empty())
    pointers.push_back(results.data());
  for (auto &words : descriptors)
    pointers.push_back(words.data());
  for (void *&pointer : pointers)
    args.push_back(&pointer);

  std::vector<ResultSlot> slots;
  for (const Operand &out : outs)
    slots.push_back(
        {out.data, out.data ? sizeInBytes(out) : 0, dtypeSize(out.dtype)});
  jitResultSlots = slots;
  jitAllocationNames = allocations;
  bool finished = callJit(entry, args.data(), threadCount);
  jitResultSlots = {};
  jitAllocationNames = {};
  jitAllocation = -1;
  if (!finished) {
    // The JIT'd code stopped at a failed check before returning results:
    // what it allocated until then was never freed (a leak per call).
    rt::endRun();
    rt::freeRunAllocations();
    return llvm::createStringError(withSizes(jitError, operands));
  }
  bool ok = rt::endRun();

  // Every result is a fresh buffer (fuse-own-results): offset 0, allocated
  // pointer == aligned pointer.
  std::vector<Operand> outputs;
  size_t offset = 0;
  for (const TensorSpec &spec : resultSpecs) {
    size_t rank = spec.shape.size();
    int64_t *words = results.data() + offset;
    offset += descriptorWords(rank);
    outputs.push_back({reinterpret_cast<void *>(words[0]), spec.dtype,
                       llvm::ArrayRef<int64_t>(words + 3, rank).vec()});
  }
  if (!ok) {
    // The results, and what else the run left allocated.
    rt::freeRunAllocations();
    return llvm::createStringError(rt::lastError());
  }
  return outputs;
}

void Executable::freeBuffer(Target target, void *data) {
  if (target == Target::CUDA)
    rt::deviceFree(data);
  else
    rt::hostFree(data);
}

void Executable::recordProfile() {
  // The runtime numbers kernels and copies in one sequence.
  const std::vector<rt::CopyRecord> &copies = rt::copyRecords();
  const std::vector<rt::KernelRecord> &launches = rt::kernelRecords();
  lastProfile.events.clear();
  size_t c = 0, k = 0;
  while (c < copies.size() || k < launches.size()) {
    ProfileEvent event;
    if (k == launches.size() ||
        (c < copies.size() && copies[c].sequence < launches[k].sequence)) {
      const rt::CopyRecord &copy = copies[c++];
      event.kind = copy.toDevice ? ProfileEvent::Kind::CopyToDevice
                                 : ProfileEvent::Kind::CopyToHost;
      event.name =
          copy.toDevice ? "memcpy host->device" : "memcpy device->host";
      event.bytes = copy.bytes;
      event.ms = copy.ms;
    } else {
      const rt::KernelRecord &launch = launches[k++];
      // A copy of no byte is left out, as a launch over no element is not
      // made.
      if (launch.result >= 0 && launch.bytes == 0)
        continue;
      if (launch.result >= 0) {
        // The report's "result R is ..., copied (no kernel)".
        event.kind = ProfileEvent::Kind::ResultCopy;
        event.result = launch.result;
        auto [name, added] = copyNames.try_emplace(launch.result);
        if (added)
          name->second =
              "[result " + std::to_string(launch.result) + " copied]";
        event.name = name->second;
      } else {
        event.kernel = launch.id;
        event.name = launch.id >= 0 && size_t(launch.id) < kernels.size()
                         ? llvm::StringRef(kernels[launch.id])
                         : "?";
      }
      event.bytes = launch.bytes;
      event.ms = launch.ms;
    }
    lastProfile.events.push_back(std::move(event));
  }
}

bool Executable::isAligned(const void *data) const {
  return reinterpret_cast<uintptr_t>(data) % vectorBytes == 0;
}

llvm::Expected<std::vector<HostArray>>
Executable::run(llvm::ArrayRef<const HostArray *> arrays) {
  return run(operandsOf(arrays));
}

llvm::Expected<std::vector<HostArray>>
Executable::run(llvm::ArrayRef<Operand> inputs, llvm::ArrayRef<Operand> outs) {
  if (llvm::Error error = checkOperands(inputs))
    return std::move(error);
  llvm::Expected<std::vector<Operand>> direct = checkOuts(inputs, outs);
  if (!direct)
    return direct.takeError();
  bool cuda = runTarget == Target::CUDA;
  rt::clearError();
  rt::beginRun(cuda ? rt::Mode::CUDA : rt::Mode::CPU);
  // The copies into the caller's arrays after the kernels, last in the
  // profile.
  std::vector<ProfileEvent> outCopies;
  llvm::scope_exit profileAtExit([this, &outCopies] {
    recordProfile();
    llvm::append_range(lastProfile.events, outCopies);
  });

  // Device copies of the inputs (CUDA) or the host arrays themselves,
  // except that kernels load whole vectors: data that is not aligned to the
  // vector size (a numpy view at an offset) is copied first.
  std::vector<Operand> operands(inputs.begin(), inputs.end());
  std::vector<HostArray> alignedCopies;
  std::vector<void *> deviceInputs;
  auto freeInputs = [&] {
    for (void *ptr : deviceInputs)
      rt::deviceFree(ptr);
  };
  if (!cuda) {
    for (Operand &operand : operands) {
      if (isAligned(operand.data))
        continue;
      llvm::Expected<HostArray> copy =
          HostArray::create(operand.dtype, operand.shape);
      if (!copy) {
        rt::endRun();
        return copy.takeError();
      }
      std::memcpy(copy->data(), operand.data, copy->sizeInBytes());
      operand.data = copy->data();
      alignedCopies.push_back(std::move(*copy));
    }
  } else {
    for (Operand &operand : operands) {
      size_t bytes = sizeInBytes(operand);
      void *data = rt::deviceAlloc(bytes);
      if (!data || !rt::copyToDevice(data, operand.data, bytes)) {
        rt::deviceFree(data);
        freeInputs();
        rt::endRun();
        return llvm::createStringError(rt::lastError());
      }
      deviceInputs.push_back(data);
      operand.data = data;
    }
  }

  llvm::Expected<std::vector<Operand>> results =
      invoke(operands, cuda ? llvm::ArrayRef<Operand>()
                            : llvm::ArrayRef<Operand>(*direct));
  freeInputs();
  if (!results)
    return results.takeError();

  // The caller's array for a result, if it gave one.
  auto outFor = [&](size_t i) -> const Operand * {
    return i < outs.size() && outs[i].data ? &outs[i] : nullptr;
  };
  // An array of the caller's takes exactly the result's shape (its byte
  // count was checked when the result was allocated or copied).
  auto misfit = [&](size_t i,
                    const Operand &result) -> std::optional<std::string> {
    const Operand *out = outFor(i);
    if (!out || out->shape == result.shape)
      return std::nullopt;
    // As the cpu target's allocation says it (fuseJitResultAlloc), which
    // knows the result by its size alone, when the sizes differ.
    if (elementCount(out->shape) != elementCount(result.shape))
      return "the output array for result " + std::to_string(i) + " has " +
             std::to_string(elementCount(out->shape)) +
             " elements; the result has " +
             std::to_string(elementCount(result.shape));
    return "the output array for result " + std::to_string(i) + " has shape " +
           shapeText(out->shape) + "; the result's is " +
           shapeText(result.shape);
  };
  auto view = [](void *) {};

  // The CPU target's results are the kernels' own buffers (from the
  // runtime's host cache, or the caller's arrays), handed over without a
  // copy; a caller's array that the kernels did not write (checkOuts) gets
  // its result by one.
  if (!cuda) {
    std::vector<HostArray> outputs;
    std::optional<std::string> error;
    for (auto [i, result] : llvm::enumerate(*results)) {
      if (!error)
        error = misfit(i, result);
      const Operand *out = outFor(i);
      if (out && !error && result.data != out->data) {
        auto start = std::chrono::steady_clock::now();
        std::memcpy(out->data, result.data, sizeInBytes(result));
        // In the profile, after the run's events: its bytes read and
        // written, as a kernel's.
        ProfileEvent event;
        event.kind = ProfileEvent::Kind::ResultCopy;
        event.result = i;
        auto [name, added] = outCopyNames.try_emplace(i);
        if (added)
          name->second =
              "[result " + std::to_string(i) + " copied into its array]";
        event.name = name->second;
        event.bytes = 2 * static_cast<int64_t>(sizeInBytes(result));
        event.ms = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - start)
                       .count();
        outCopies.push_back(std::move(event));
        rt::hostFree(result.data);
        result.data = out->data;
      }
      outputs.push_back(HostArray::adopt(
          result.dtype, result.shape, result.data, out ? +view : rt::hostFree));
    }
    if (error)
      return llvm::createStringError(*error);
    return outputs;
  }
  bool ok = true;
  std::string error;
  std::vector<HostArray> outputs;
  for (auto [i, result] : llvm::enumerate(*results)) {
    if (ok) {
      if (std::optional<std::string> wrong = misfit(i, result)) {
        ok = false;
        error = *wrong;
      }
    }
    if (ok) {
      const Operand *out = outFor(i);
      llvm::Expected<HostArray> array =
          out ? HostArray::adopt(result.dtype, result.shape, out->data, +view)
              : HostArray::create(result.dtype, result.shape);
      if (!array) {
        ok = false;
        error = llvm::toString(array.takeError());
      } else {
        if (!rt::copyToHost(array->data(), result.data, array->sizeInBytes())) {
          ok = false;
          error = rt::lastError();
        }
        outputs.push_back(std::move(*array));
      }
    }
    freeResult(result.data);
  }
  // A failed free is an error too (a leak on the device).
  if (ok && !rt::lastError().empty()) {
    ok = false;
    error = rt::lastError();
  }
  if (!ok)
    return llvm::createStringError(error);
  return outputs;
}

llvm::Expected<std::vector<Executable::Operand>>
Executable::checkOuts(llvm::ArrayRef<Operand> inputs,
                      llvm::ArrayRef<Operand> outs) const {
  std::vector<Operand> direct(outs.begin(), outs.end());
  if (outs.empty())
    return direct;
  auto fail = [](const std::string &message) {
    return llvm::createStringError(message);
  };
  if (llvm::Error error = checkCounts(inputSpecs.size(), outs.size()))
    return error;
  using Range = std::pair<uintptr_t, uintptr_t>;
  auto range = [](const Operand &operand) {
    auto begin = reinterpret_cast<uintptr_t>(operand.data);
    return std::make_pair(begin, begin + sizeInBytes(operand));
  };
  auto overlap = [](Range a, Range b) {
    return a.first < b.second && b.first < a.second;
  };
  std::vector<Range> inputRanges;
  for (const Operand &input : inputs)
    inputRanges.push_back(range(input));
  std::vector<Range> outRanges(outs.size());
  for (auto [i, out] : llvm::enumerate(outs)) {
    if (!out.data)
      continue;
    const TensorSpec &spec = resultSpecs[i];
    std::string what = "the output array for result " + std::to_string(i);
    if (std::optional<std::string> why = spec.mismatch(out.dtype, out.shape))
      return fail(what + " does not fit the result, " + spec.str() + ": " +
                  *why);
    outRanges[i] = range(out);
    for (size_t j = 0; j < i; ++j)
      if (outs[j].data && overlap(outRanges[i], outRanges[j]))
        return fail(what + " overlaps the output array for result " +
                    std::to_string(j) + ": two results must not share memory");
    // The kernels write into the array unless they could read an input
    // after writing it (numpy's in-place np.add(a, b, out=a); a fused
    // program may read an argument after a kernel wrote a result), or
    // their vector stores need an alignment it lacks (a view at an offset):
    // then the result is the kernels' own buffer, copied into it after the
    // run. An argument's own array, which the one kernel reads only where
    // it writes the result (overwrites: an optimizer's step in place), is
    // written into.
    Range mine = outRanges[i];
    bool overInput = false;
    for (auto [j, input] : llvm::enumerate(inputRanges))
      if (overlap(mine, input) &&
          !(input == mine &&
            llvm::is_contained(overwrites,
                               std::make_pair(static_cast<unsigned>(i),
                                              static_cast<unsigned>(j)))))
        overInput = true;
    if (overInput ||
        (!isAligned(out.data) && sizeInBytes(out) > dtypeSize(out.dtype)))
      direct[i].data = nullptr;
  }
  return direct;
}

llvm::Expected<std::vector<Executable::Operand>>
Executable::runOnDevice(llvm::ArrayRef<Operand> inputs, uint64_t stream) {
  if (runTarget != Target::CUDA)
    return llvm::createStringError(
        "arrays in device memory need the cuda target; @" + entryName +
        " was compiled for the cpu");
  if (llvm::Error error = checkOperands(inputs))
    return std::move(error);
  for (auto [i, operand] : llvm::enumerate(inputs))
    if (!isAligned(operand.data))
      return llvm::createStringError(
          "argument " + std::to_string(i) + " (" + inputSpecs[i].str() +
          "): its device data is not " + std::to_string(vectorBytes) +
          "-byte aligned, which the kernels' vector loads need; pass a copy "
          "(a view at an offset is not aligned)");
  rt::clearError();
  // The inputs may still be being written on their producer's stream: the
  // run goes on that stream, after them.
  rt::beginRun(rt::Mode::CUDA, stream);
  llvm::scope_exit profileAtExit([this] { recordProfile(); });
  if (!rt::lastError().empty()) {
    rt::endRun();
    return llvm::createStringError(rt::lastError());
  }
  return invoke(inputs);
}

llvm::Expected<Target> fuse::chooseTarget(TargetRequest request,
                                          std::string &note) {
  note.clear();
  // An earlier failure (a refused module, say) is not this choice's, and
  // would hide the device.
  rt::clearError();
  if (request == TargetRequest::CPU)
    return Target::CPU;
  // A device whose context an earlier fault made unusable (a sticky error)
  // has a driver but answers nothing: no usable GPU either (an auto
  // compile failed with the device query's error).
  std::string why;
  if (rt::initCuda()) {
    llvm::Expected<std::string> chip = deviceChip();
    if (chip)
      return Target::CUDA;
    why = llvm::toString(chip.takeError());
  } else {
    why = rt::lastError();
  }
  rt::clearError();
  if (request == TargetRequest::CUDA)
    return llvm::createStringError(why);
  note = "no usable GPU (" + why + "); running on the CPU target";
  return Target::CPU;
}

bool Executable::emulatedGPU() const {
  return runTarget == Target::CUDA && rt::driverRunsKernelsOnHost();
}

llvm::Expected<std::string> fuse::deviceChip() {
  rt::DeviceInfo info = rt::deviceInfo();
  if (!rt::lastError().empty()) {
    std::string why = rt::lastError();
    rt::clearError();
    return llvm::createStringError(why);
  }
  return "sm_" + std::to_string(info.computeMajor) +
         std::to_string(info.computeMinor);
}

llvm::Expected<std::unique_ptr<Executable>>
fuse::compileForRequest(ModuleOp module, RunOptions options,
                        TargetRequest request, std::string &note) {
  llvm::Expected<std::unique_ptr<Executable>> executable =
      Executable::compile(module, options);
  if (executable || request != TargetRequest::Auto || !rt::kernelsRefused())
    return executable;
  note = "the GPU cannot load the kernels (" +
         llvm::StringRef(llvm::toString(executable.takeError()))
             .split('\n')
             .first.str() +
         "); running on the CPU target";
  rt::clearError();
  options.target = Target::CPU;
  return Executable::compile(module, options);
}
