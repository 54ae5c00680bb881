//===- HostCompiler.cpp - kernel modules compiled for the host ----------===//
//
// Compiles the NVVM IR recorded for a PTX module (KernelIR.cpp) for the host
// with LLVM ORC, for a driver that runs kernels on the host. The IR is the
// one NVPTX code generation received; the host build differs from it only
// where the GPU's instructions are not LLVM IR:
//
// - each call of an NVVM intrinsic (thread and block ids, the approximate
//   and rounding-mode math of libdevice) calls the driver's emulation of
//   it, found by name and type with the driver's resolver;
// - each inline PTX block (libdevice's rcp.approx.ftz.f32 and its
//   multi-word arithmetic) calls the driver's emulation of exactly that
//   text, with its operands as bits in two arrays;
// - each load and store of memory that is not the thread's own (not an
//   alloca or a global of the module) first calls the driver's access
//   check, with the alignment the GPU requires of it, so that a misaligned
//   128-bit access or one out of bounds fails as on the GPU;
// - each shift by a variable amount gives what PTX's `shl` and `shr` give
//   for an amount of the register width or more (0; the sign bits for an
//   arithmetic shift right), not what the host's instruction gives (x86
//   takes the amount modulo the width): LLVM IR leaves such shifts
//   undefined, NVPTX emits the PTX instruction, and libdevice relies on it
//   (pow's odd-integer test of y shifts by y's exponent);
// - each kernel gets a wrapper `void NAME.host(void **params)` that unpacks
//   CUDA's kernelParams array and calls it: one GPU thread.
//
// Anything else that NVPTX would compile and the host cannot (an intrinsic
// or inline PTX the driver does not emulate, atomics) is refused with an
// error that names it; nothing is skipped silently.
//
//===----------------------------------------------------------------------===//

#include "fuse/Emulator/HostKernels.h"

#include "fuse/Runtime/Runtime.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Local.h"

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <set>

using namespace fuse;
using namespace llvm;

namespace {

/// One compiled module: the JIT that owns the code and the kernels' names.
struct HostBuild {
  std::unique_ptr<orc::LLJIT> jit;
  std::vector<std::unique_ptr<std::string>> names;
  std::vector<FuseHostKernel> kernels;
};

/// Host builds by PTX text, compiled once per process.
struct Builds {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<HostBuild>> byPTX;
};

Builds &builds() {
  static Builds *instance = new Builds();
  return *instance;
}

/// x86 features whose instructions would change a result the numerics
/// contract calls exact (fuse::excludedCPUFeatures, for the cpu target):
/// the host build must not use them either.
constexpr const char *kExcludedFeatures[] = {"avx512bf16", "avxneconvert",
                                             "avx512fp16"};

/// Conversions the host code generator may call and the JIT may not find
/// in the process; the driver provides them.
constexpr const char *kRuntimeFunctions[] = {"__truncsfbf2", "__truncdfbf2",
                                             "__truncsfhf2", "__truncdfhf2",
                                             "__extendhfsf2"};

std::string typeText(Type *type) {
  std::string text;
  raw_string_ostream os(text);
  type->print(os);
  return text;
}

/// Inline assembly as the resolver's key: white space runs made one space.
std::string asmKey(const InlineAsm &assembly) {
  std::string key = "asm ";
  bool space = false;
  for (char c : assembly.getAsmString()) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    if (space && key.size() > 4)
      key += ' ';
    space = false;
    key += c;
  }
  return key + "|" + assembly.getConstraintString().str();
}

class Compiler {
public:
  Compiler(Module &module, FuseHostResolver resolve)
      : module(module), resolve(resolve), layout(module.getDataLayout()) {}

  /// Rewrites the module for the host; the names of the absolute symbols it
  /// now needs are in `symbols`.
  Error rewrite() {
    for (Function &function : module)
      if (function.getCallingConv() == CallingConv::PTX_Kernel &&
          !function.isDeclaration())
        kernels.push_back(&function);
    if (kernels.empty())
      return createStringError("the module has no kernel");
    if (Error error = checkMemoryAccesses())
      return error;
    resolveReflect();
    if (Error error = replaceIntrinsics())
      return error;
    if (Error error = replaceInlineAsm())
      return error;
    clampShifts();
    for (Function &function : module) {
      if (function.getCallingConv() == CallingConv::PTX_Kernel ||
          function.getCallingConv() == CallingConv::PTX_Device)
        function.setCallingConv(CallingConv::C);
      function.removeFnAttr("target-cpu");
      function.removeFnAttr("target-features");
      for (User *user : function.users())
        if (auto *call = dyn_cast<CallBase>(user))
          call->setCallingConv(function.getCallingConv());
    }
    for (Function *kernel : kernels)
      addWrapper(*kernel);
    return Error::success();
  }

  std::vector<Function *> kernels;
  /// Symbol name -> the driver's function.
  std::map<std::string, void *> symbols;

private:
  Error unsupported(const Twine &what) {
    return createStringError("the emulated GPU has no " + what.str() +
                             " (test/Runtime/FakeCuda/Emulator.cpp lists "
                             "what it emulates)");
  }

  /// Declares `name` with `type`, bound to the driver's `address`.
  FunctionCallee declare(StringRef name, FunctionType *type, void *address) {
    symbols[name.str()] = address;
    return module.getOrInsertFunction(name, type);
  }

  Error checkMemoryAccesses() {
    const char *key = "fuse.access void (ptr, i64, i64)";
    void *address = resolve(key);
    if (!address)
      return unsupported(key);
    LLVMContext &context = module.getContext();
    Type *i64 = Type::getInt64Ty(context);
    PointerType *generic = PointerType::get(context, 0);
    FunctionCallee access = declare(
        "fuse.access",
        FunctionType::get(Type::getVoidTy(context), {generic, i64, i64}, false),
        address);
    for (Function &function : module) {
      if (function.isDeclaration())
        continue;
      std::vector<Instruction *> accesses;
      for (Instruction &inst : instructions(function)) {
        if (isa<AtomicRMWInst, AtomicCmpXchgInst, MemIntrinsic>(inst)) {
          std::string text;
          raw_string_ostream(text) << inst;
          return unsupported("check of this access:" + text);
        }
        if (isa<LoadInst, StoreInst>(inst))
          accesses.push_back(&inst);
      }
      for (Instruction *inst : accesses) {
        Value *pointer = getLoadStorePointerOperand(inst);
        Type *type = getLoadStoreType(inst);
        SmallVector<const Value *> objects;
        getUnderlyingObjects(pointer, objects);
        // The thread's own memory (allocas) and the module's constants are
        // not device allocations.
        if (!objects.empty() && llvm::all_of(objects, [](const Value *object) {
              return isa<AllocaInst, GlobalVariable>(object);
            }))
          continue;
        uint64_t bytes = layout.getTypeStoreSize(type);
        // The GPU accesses `bytes` at once when the alignment allows it (a
        // 16-byte vector is one 128-bit access), else in pieces of the
        // alignment; each access must be aligned to its size.
        uint64_t required = std::min<uint64_t>(
            getLoadStoreAlignment(inst).value(), bytes & (~bytes + 1));
        IRBuilder<> b(inst);
        Value *address = pointer->getType()->getPointerAddressSpace()
                             ? b.CreateAddrSpaceCast(pointer, generic)
                             : pointer;
        b.CreateCall(access,
                     {address, b.getInt64(bytes), b.getInt64(required)});
      }
    }
    return Error::success();
  }

  /// Answers libdevice's `__nvvm_reflect` queries as NVPTX's code
  /// generation does (NVVMReflect: `__CUDA_FTZ` from the module's
  /// `nvvm-reflect-ftz` flag, `__CUDA_ARCH` from the chip, others 0) and
  /// drops the branches they rule out. An optimized module has none left;
  /// one of --opt-level=0 has them, with the intrinsics of the other
  /// branches (`llvm.nvvm.ceil.ftz.f` in `__nv_ceilf`), which the emulated
  /// GPU need not have: the PTX has no call to them.
  void resolveReflect() {
    Function *reflect = module.getFunction("__nvvm_reflect");
    if (!reflect)
      return;
    unsigned arch = 0;
    for (Function *kernel : kernels) {
      StringRef chip = kernel->getFnAttribute("target-cpu").getValueAsString();
      if (chip.consume_front("sm_"))
        chip.take_while(llvm::isDigit).getAsInteger(10, arch);
    }
    int ftz = 0;
    if (auto *flag = mdconst::extract_or_null<ConstantInt>(
            module.getModuleFlag("nvvm-reflect-ftz")))
      ftz = flag->getSExtValue();
    std::set<Function *> changed;
    for (User *user : llvm::make_early_inc_range(reflect->users())) {
      auto *call = dyn_cast<CallInst>(user);
      if (!call)
        continue;
      StringRef query;
      Value *name = call->getArgOperand(0)->stripPointerCasts();
      if (auto *global = dyn_cast<GlobalVariable>(name))
        if (auto *text = dyn_cast_or_null<ConstantDataSequential>(
                global->getInitializer());
            text && text->isCString())
          query = text->getAsCString();
      int answer = query == "__CUDA_FTZ"    ? ftz
                   : query == "__CUDA_ARCH" ? int(arch * 10)
                                            : 0;
      call->replaceAllUsesWith(ConstantInt::get(call->getType(), answer));
      changed.insert(call->getFunction());
      call->eraseFromParent();
    }
    const DataLayout &dataLayout = module.getDataLayout();
    for (Function *function : changed) {
      for (bool folded = true; folded;) {
        folded = false;
        for (Instruction &inst :
             llvm::make_early_inc_range(instructions(*function)))
          if (Constant *value = ConstantFoldInstruction(&inst, dataLayout)) {
            inst.replaceAllUsesWith(value);
            inst.eraseFromParent();
            folded = true;
          }
      }
      for (BasicBlock &block : *function)
        ConstantFoldTerminator(&block, /*DeleteDeadConditions=*/true);
      removeUnreachableBlocks(*function);
    }
  }

  Error replaceIntrinsics() {
    std::vector<Function *> intrinsics;
    for (Function &function : llvm::make_early_inc_range(module)) {
      if (!function.isDeclaration() ||
          !function.getName().starts_with("llvm.nvvm."))
        continue;
      // (One that only a branch ruled out called: resolveReflect.)
      if (function.use_empty())
        function.eraseFromParent();
      else
        intrinsics.push_back(&function);
    }
    // Each one's emulation; every missing one named at once.
    std::vector<void *> addresses;
    std::string missing;
    for (Function *intrinsic : intrinsics) {
      std::string key = intrinsic->getName().str() + " " +
                        typeText(intrinsic->getFunctionType());
      addresses.push_back(resolve(key.c_str()));
      if (!addresses.back())
        missing += (missing.empty() ? "" : ", ") + key;
    }
    if (!missing.empty())
      return unsupported(missing);
    for (auto [intrinsic, address] : llvm::zip(intrinsics, addresses)) {
      FunctionCallee shim = declare(("fuse.emu." + intrinsic->getName()).str(),
                                    intrinsic->getFunctionType(), address);
      intrinsic->replaceAllUsesWith(shim.getCallee());
      intrinsic->eraseFromParent();
    }
    return Error::success();
  }

  /// Operand or result `value` of inline assembly as 64 bits, and back.
  static Value *toBits(IRBuilder<> &b, Value *value) {
    Type *type = value->getType();
    if (type->isPointerTy())
      return b.CreatePtrToInt(value, b.getInt64Ty());
    unsigned width = type->getPrimitiveSizeInBits();
    if (!type->isIntegerTy())
      value = b.CreateBitCast(value, b.getIntNTy(width));
    return width == 64 ? value : b.CreateZExt(value, b.getInt64Ty());
  }
  static Value *fromBits(IRBuilder<> &b, Value *bits, Type *type) {
    unsigned width = type->getPrimitiveSizeInBits();
    Value *value = width == 64 ? bits : b.CreateTrunc(bits, b.getIntNTy(width));
    return type->isIntegerTy() ? value : b.CreateBitCast(value, type);
  }
  static bool isScalar(Type *type) {
    return type->isIntegerTy() || type->isFloatingPointTy();
  }

  Error replaceInlineAsm() {
    std::vector<CallInst *> calls;
    for (Function &function : module)
      for (Instruction &inst : instructions(function))
        if (auto *call = dyn_cast<CallInst>(&inst); call && call->isInlineAsm())
          calls.push_back(call);
    LLVMContext &context = module.getContext();
    PointerType *generic = PointerType::get(context, 0);
    auto *shimType =
        FunctionType::get(Type::getVoidTy(context), {generic, generic}, false);
    std::map<std::string, FunctionCallee> shims;
    for (CallInst *call : calls) {
      auto &assembly = *cast<InlineAsm>(call->getCalledOperand());
      std::string key = asmKey(assembly);
      Type *result = call->getType();
      SmallVector<Type *> outputs;
      if (auto *structType = dyn_cast<StructType>(result))
        outputs.append(structType->element_begin(), structType->element_end());
      else if (!result->isVoidTy())
        outputs.push_back(result);
      bool scalars = llvm::all_of(outputs, isScalar) &&
                     llvm::all_of(call->args(), [](Value *arg) {
                       return isScalar(arg->getType());
                     });
      void *address = scalars ? resolve(key.c_str()) : nullptr;
      if (!address)
        return unsupported("inline PTX '" + key + "'");
      auto [it, added] = shims.try_emplace(key);
      if (added)
        it->second = declare("fuse.asm." + std::to_string(shims.size()),
                             shimType, address);

      Function &function = *call->getFunction();
      IRBuilder<> entry(&function.getEntryBlock(),
                        function.getEntryBlock().getFirstInsertionPt());
      Type *i64 = entry.getInt64Ty();
      Value *in = entry.CreateAlloca(
          ArrayType::get(i64, std::max<size_t>(call->arg_size(), 1)));
      Value *out = entry.CreateAlloca(
          ArrayType::get(i64, std::max<size_t>(outputs.size(), 1)));
      IRBuilder<> b(call);
      for (auto [i, arg] : llvm::enumerate(call->args()))
        b.CreateStore(toBits(b, arg), b.CreateConstGEP1_64(i64, in, i));
      b.CreateCall(it->second, {out, in});
      Value *value = PoisonValue::get(result);
      for (auto [i, type] : llvm::enumerate(outputs)) {
        Value *bits = b.CreateLoad(i64, b.CreateConstGEP1_64(i64, out, i));
        Value *element = fromBits(b, bits, type);
        value = isa<StructType>(result) ? b.CreateInsertValue(value, element, i)
                                        : element;
      }
      if (!result->isVoidTy())
        call->replaceAllUsesWith(value);
      call->eraseFromParent();
    }
    return Error::success();
  }

  /// Shifts as PTX defines them: an amount of the width or more shifts
  /// every bit out. NVPTX passes the amount as 32 bits.
  void clampShifts() {
    std::vector<BinaryOperator *> shifts;
    for (Function &function : module)
      for (Instruction &inst : instructions(function))
        if (auto *shift = dyn_cast<BinaryOperator>(&inst);
            shift && shift->isShift() && !isa<Constant>(shift->getOperand(1)))
          shifts.push_back(shift);
    for (BinaryOperator *shift : shifts) {
      Type *type = shift->getType();
      unsigned width = type->getScalarSizeInBits();
      IRBuilder<> b(shift);
      Value *amount = shift->getOperand(1);
      Value *amount32 =
          width > 32
              ? b.CreateTrunc(amount, amount->getType()->getWithNewBitWidth(32))
              : amount;
      Value *tooFar = b.CreateICmpUGE(
          amount32, ConstantInt::get(amount32->getType(), width));
      Value *clamped =
          b.CreateSelect(tooFar, ConstantInt::get(type, width - 1), amount);
      Value *inRange =
          b.CreateBinOp(shift->getOpcode(), shift->getOperand(0), clamped);
      Value *result =
          shift->getOpcode() == Instruction::AShr
              ? inRange
              : b.CreateSelect(tooFar, Constant::getNullValue(type), inRange);
      shift->replaceAllUsesWith(result);
      shift->eraseFromParent();
    }
  }

  /// `void NAME.host(void **params)`: loads each argument from the pointer
  /// CUDA's kernelParams holds for it and calls the kernel.
  void addWrapper(Function &kernel) {
    LLVMContext &context = module.getContext();
    PointerType *generic = PointerType::get(context, 0);
    auto *type = FunctionType::get(Type::getVoidTy(context), {generic}, false);
    Function *wrapper = Function::Create(type, GlobalValue::ExternalLinkage,
                                         kernel.getName() + ".host", module);
    IRBuilder<> b(BasicBlock::Create(context, "entry", wrapper));
    SmallVector<Value *> args;
    for (Argument &param : kernel.args()) {
      Value *slot = b.CreateLoad(
          generic,
          b.CreateConstGEP1_64(generic, wrapper->getArg(0), param.getArgNo()));
      args.push_back(b.CreateAlignedLoad(param.getType(), slot, Align(1)));
    }
    b.CreateCall(&kernel, args);
    b.CreateRetVoid();
  }

  Module &module;
  FuseHostResolver resolve;
  const DataLayout layout;
};

Expected<std::unique_ptr<HostBuild>> build(StringRef ptx,
                                           FuseHostResolver resolve) {
  std::optional<std::string> bitcode = hostkernels::find(ptx);
  if (!bitcode)
    return createStringError(
        "no host build for this PTX (" + hostkernels::keyOf(ptx) +
        "): this process did not generate it with host builds on, or it "
        "changed since (fuse records the LLVM IR of every kernel module it "
        "compiles while a driver that runs kernels on the host is loaded)");

  auto context = std::make_unique<LLVMContext>();
  Expected<std::unique_ptr<Module>> parsed =
      parseBitcodeFile(MemoryBufferRef(*bitcode, "kernels"), *context);
  if (!parsed)
    return parsed.takeError();
  Module &module = **parsed;
  Compiler compiler(module, resolve);
  if (Error error = compiler.rewrite())
    return std::move(error);

  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  Expected<orc::JITTargetMachineBuilder> machine =
      orc::JITTargetMachineBuilder::detectHost();
  if (!machine)
    return machine.takeError();
  for (const char *feature : kExcludedFeatures)
    machine->getFeatures().AddFeature(feature, /*Enable=*/false);
  machine->setCodeGenOptLevel(CodeGenOptLevel::Default);
  Expected<DataLayout> hostLayout = machine->getDefaultDataLayoutForTarget();
  if (!hostLayout)
    return hostLayout.takeError();
  module.setDataLayout(*hostLayout);
  module.setTargetTriple(machine->getTargetTriple());
  std::string broken;
  raw_string_ostream os(broken);
  if (verifyModule(module, &os))
    return createStringError("the host build of the kernels is invalid: " +
                             broken);

  auto result = std::make_unique<HostBuild>();
  Expected<std::unique_ptr<orc::LLJIT>> jit =
      orc::LLJITBuilder().setJITTargetMachineBuilder(*machine).create();
  if (!jit)
    return jit.takeError();
  result->jit = std::move(*jit);
  orc::JITDylib &library = result->jit->getMainJITDylib();
  Expected<std::unique_ptr<orc::DynamicLibrarySearchGenerator>> process =
      orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
          hostLayout->getGlobalPrefix());
  if (!process)
    return process.takeError();
  library.addGenerator(std::move(*process));
  orc::SymbolMap symbols;
  auto bind = [&](StringRef name, void *address) {
    symbols[result->jit->mangleAndIntern(name)] = {
        orc::ExecutorAddr::fromPtr(address), JITSymbolFlags::Exported};
  };
  for (auto &[name, address] : compiler.symbols)
    bind(name, address);
  for (const char *name : kRuntimeFunctions)
    if (void *address = resolve(name))
      bind(name, address);
  if (Error error = library.define(orc::absoluteSymbols(std::move(symbols))))
    return std::move(error);

  std::vector<std::string> names;
  for (Function *kernel : compiler.kernels)
    names.push_back(kernel->getName().str());
  if (Error error = result->jit->addIRModule(
          orc::ThreadSafeModule(std::move(*parsed), std::move(context))))
    return std::move(error);
  for (const std::string &name : names) {
    Expected<orc::ExecutorAddr> address = result->jit->lookup(name + ".host");
    if (!address)
      return address.takeError();
    result->names.push_back(std::make_unique<std::string>(name));
    result->kernels.push_back(
        {result->names.back()->c_str(), address->toPtr<void (*)(void **)>()});
  }
  return result;
}

} // namespace

int hostkernels::compile(const char *ptx, FuseHostResolver resolve,
                         const FuseHostKernel **kernels, size_t *count,
                         char *error, size_t errorSize) {
  Builds &all = builds();
  std::lock_guard<std::mutex> lock(all.mutex);
  std::string key = StringRef(ptx).str();
  auto it = all.byPTX.find(key);
  if (it == all.byPTX.end()) {
    Expected<std::unique_ptr<HostBuild>> built = build(key, resolve);
    if (!built) {
      std::snprintf(error, errorSize, "%s",
                    toString(built.takeError()).c_str());
      return 1;
    }
    it = all.byPTX.emplace(key, std::move(*built)).first;
  }
  *kernels = it->second->kernels.data();
  *count = it->second->kernels.size();
  return 0;
}

void hostkernels::enableIfDriverRunsKernelsOnHost() {
  if (!rt::driverRunsKernelsOnHost())
    return;
  startRecording();
  rt::setHostCompiler([](const char *ptx, FuseHostResolver resolve,
                         const FuseHostKernel **kernels, size_t *count,
                         char *error, size_t errorSize) {
    return compile(ptx, resolve, kernels, count, error, errorSize);
  });
}
