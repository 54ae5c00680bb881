//===- LowerAsserts.cpp - cf.assert to puts and abort, in linear time -----===//
//
// Upstream's LLVM lowering of cf.assert looks its message's global and the
// functions it calls up by scanning the module, and splits the assert's
// block there, moving every later operation of the block into a new one. A
// program of rank R checks R sizes with R asserts in one block: O(R^2) both
// ways. This pass lowers the asserts of the host functions to the same code
// (puts of the message, then abort, with fflush(NULL) between so that the
// message is out before the abort) with one symbol table for the module,
// from the last assert of a block to the first, so that each operation
// moves once. The canonicalizer merges the blocks again.
//
//===----------------------------------------------------------------------===//

#include "fuse/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace fuse {
#define GEN_PASS_DEF_FUSELOWERASSERTS
#include "fuse/Transforms/Passes.h.inc"
} // namespace fuse

using namespace mlir;

namespace {

struct FuseLowerAssertsPass
    : fuse::impl::FuseLowerAssertsBase<FuseLowerAssertsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<cf::AssertOp> asserts;
    module.walk([&](cf::AssertOp op) {
      // Blocks of structured ops' regions (scf.if) cannot be split: the
      // usual lowering takes those. A kernel's (in a gpu.module, which does
      // not see the host's globals and functions) is the GPU's own:
      // convert-gpu-to-nvvm lowers it to __assertfail.
      if (isa<FunctionOpInterface>(op->getParentOp()) &&
          !op->getParentOfType<gpu::GPUModuleOp>())
        asserts.push_back(op);
    });
    if (asserts.empty())
      return;

    MLIRContext *context = &getContext();
    SymbolTable symbols(module);
    OpBuilder top = OpBuilder::atBlockBegin(module.getBody());
    auto ptr = LLVM::LLVMPointerType::get(context);
    // puts, fflush and abort of the C library (the JIT's own puts and
    // abort turn a failed check into an error); a program's function
    // cannot take their names.
    auto declare = [&](StringRef name,
                       ArrayRef<Type> params) -> LLVM::LLVMFuncOp {
      auto type =
          LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context), params);
      if (Operation *existing = symbols.lookup(name)) {
        auto fn = dyn_cast<LLVM::LLVMFuncOp>(existing);
        if (fn && fn.getFunctionType() == type)
          return fn;
        existing->emitError()
            << "the name '" << name
            << "' is taken: the run-time checks call the C library's '" << name
            << "'; rename this symbol";
        return nullptr;
      }
      auto fn = LLVM::LLVMFuncOp::create(top, module.getLoc(), name, type);
      symbols.insert(fn);
      return fn;
    };
    LLVM::LLVMFuncOp puts = declare("puts", {ptr});
    // fflush(NULL) before abort: a program compiled ahead of time, whose
    // stdout is a pipe or a file, lost the message in stdout's buffer.
    LLVM::LLVMFuncOp fflush = declare("fflush", {ptr});
    LLVM::LLVMFuncOp abort = declare("abort", {});
    if (!puts || !fflush || !abort)
      return signalPassFailure();

    // Each message, NUL-terminated, in a global of its own, in program
    // order (the symbol table makes each name unique).
    SmallVector<LLVM::GlobalOp> messages;
    for (cf::AssertOp op : asserts) {
      std::string text = op.getMsg().str();
      text.push_back('\0');
      auto global = LLVM::GlobalOp::create(
          top, op.getLoc(),
          LLVM::LLVMArrayType::get(IntegerType::get(context, 8), text.size()),
          /*isConstant=*/true, LLVM::Linkage::Private, "assert_msg",
          StringAttr::get(context, text));
      symbols.insert(global);
      messages.push_back(global);
    }

    for (auto [op, global] :
         llvm::reverse(llvm::zip_equal(asserts, messages))) {
      Location loc = op.getLoc();
      Block *rest = op->getBlock()->splitBlock(op->getNextNode());
      Block *failure = new Block();
      failure->insertBefore(rest);
      OpBuilder b = OpBuilder::atBlockEnd(failure);
      Value message = LLVM::AddressOfOp::create(b, loc, global);
      LLVM::CallOp::create(b, loc, puts, ValueRange{message});
      LLVM::CallOp::create(b, loc, fflush,
                           ValueRange{LLVM::ZeroOp::create(b, loc, ptr)});
      LLVM::CallOp::create(b, loc, abort, ValueRange{});
      LLVM::UnreachableOp::create(b, loc);

      b.setInsertionPoint(op);
      cf::CondBranchOp::create(b, loc, op.getArg(), rest, failure);
      op.erase();
    }
  }
};

} // namespace
