//===- MapToGPU.cpp - elementwise kernels to vectorized gpu.launch -------===//
//
// One gpu.launch per bufferized elementwise generic. The iteration space is
// flattened; thread t of the 1-D grid owns elements [t*V, t*V + V), where V
// elements of the narrowest operand fill `vector-bytes`. A full vector is
// read and written with vector loads and stores (broadcast inputs are
// gathered lane by lane). The one thread whose vector runs past the end runs
// the same vector code on lanes clamped to the last element: its extra lanes
// read, compute and write that element's value again, so the kernel body is
// emitted once, not once per lane plus once for a scalar tail.
//
//===----------------------------------------------------------------------===//

#include "fuse/Conversion/Passes.h"
#include "fuse/Dialect/Fuse/Transforms/Passes.h"
#include "fuse/Dialect/Fuse/Utils/Kernel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

namespace fuse {
#define GEN_PASS_DEF_FUSEMAPTOGPU
#include "fuse/Conversion/Passes.h.inc"
} // namespace fuse

using namespace mlir;
using namespace fuse;

namespace {

/// Emits the body of one launch for `op`.
class KernelBuilder {
public:
  KernelBuilder(linalg::GenericOp op, OpBuilder &b, ArrayRef<Value> sizes,
                Value total, int64_t width)
      : op(op), b(b), loc(op.getLoc()), sizes(sizes), total(total),
        width(width) {}

  /// Emits the code of thread `thread` (an index).
  void emit(Value thread) {
    Value vectorWidth = index(width);
    Value start = arith::MulIOp::create(b, loc, thread, vectorWidth);
    Value end = arith::AddIOp::create(b, loc, start, vectorWidth);
    for (OpOperand &operand : op->getOpOperands())
      if (isFlat(operand))
        flat[operand.getOperandNumber()] = flatten(operand.get());

    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, start, total);
    auto ifInRange = scf::IfOp::create(b, loc, inRange);
    b.setInsertionPointToStart(&ifInRange.getThenRegion().front());
    Value full =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ule, end, total);
    emitVector(start, full);
  }

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }

  Type elementType(OpOperand &operand) {
    return cast<MemRefType>(operand.get().getType()).getElementType();
  }

  /// Operands read or written at the identity position are accessed through
  /// a flat 1-D view.
  bool isFlat(OpOperand &operand) {
    return op.getMatchingIndexingMap(&operand).isIdentity();
  }

  /// Operands that every thread reads at index 0 (0-d or fully broadcast).
  bool isUniform(OpOperand &operand) {
    AffineMap map = op.getMatchingIndexingMap(&operand);
    return llvm::all_of(map.getResults(), [](AffineExpr e) {
      return isa<AffineConstantExpr>(e);
    });
  }

  Value flatten(Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    auto flatType =
        MemRefType::get({ShapedType::kDynamic}, type.getElementType());
    return memref::ReinterpretCastOp::create(
        b, loc, flatType, memref, /*offset=*/b.getIndexAttr(0),
        /*sizes=*/ArrayRef<OpFoldResult>{total},
        /*strides=*/ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  }

  /// The multi-index of flat position `linear` in the iteration space.
  SmallVector<Value> delinearize(Value linear) {
    SmallVector<Value> indices(sizes.size());
    for (int64_t d = sizes.size() - 1; d >= 0; --d) {
      if (d == 0) {
        indices[d] = linear;
        break;
      }
      indices[d] = arith::RemUIOp::create(b, loc, linear, sizes[d]);
      linear = arith::DivUIOp::create(b, loc, linear, sizes[d]);
    }
    return indices;
  }

  /// Loads the element of a broadcast input at iteration point `indices`.
  Value loadBroadcast(OpOperand &operand, ArrayRef<Value> indices) {
    SmallVector<Value> at;
    for (AffineExpr expr : op.getMatchingIndexingMap(&operand).getResults()) {
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        at.push_back(indices[dim.getPosition()]);
      else
        at.push_back(index(0));
    }
    return memref::LoadOp::create(b, loc, operand.get(), at);
  }

  /// Lane l's element, start + l, clamped to the last one: the same
  /// position as start + l whenever the vector is full. Created where they
  /// are used, so that the full path keeps no registers for them.
  SmallVector<Value> clampedPositions(Value start) {
    Value last = arith::SubIOp::create(b, loc, total, index(1));
    SmallVector<Value> positions;
    for (int64_t lane = 0; lane < width; ++lane)
      positions.push_back(arith::MinUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, start, index(lane)), last));
    return positions;
  }

  /// The vector of `operand` at the thread's lanes: one vector load when
  /// the vector is full, else element by element at the clamped positions.
  Value loadFlat(OpOperand &operand, Value start, Value full) {
    Type element = elementType(operand);
    auto vectorType = VectorType::get({width}, element);
    Value memref = flat[operand.getOperandNumber()];
    auto ifFull = scf::IfOp::create(b, loc, TypeRange{vectorType}, full,
                                    /*addThenBlock=*/true,
                                    /*addElseBlock=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifFull.thenBlock());
    Value vector =
        vector::LoadOp::create(b, loc, vectorType, memref, ValueRange{start},
                               /*nontemporal=*/false, alignment(element));
    scf::YieldOp::create(b, loc, vector);
    b.setInsertionPointToStart(ifFull.elseBlock());
    scf::YieldOp::create(b, loc,
                         gather(memref, vectorType, clampedPositions(start)));
    return ifFull.getResult(0);
  }

  Value gather(Value memref, VectorType type, ArrayRef<Value> positions) {
    SmallVector<Value> elements;
    for (Value position : positions)
      elements.push_back(
          memref::LoadOp::create(b, loc, memref, ValueRange{position}));
    return vector::FromElementsOp::create(b, loc, type, elements);
  }

  void scatter(Value value, Value memref, ArrayRef<Value> positions) {
    for (auto [lane, position] : llvm::enumerate(positions)) {
      Value scalar = vector::ExtractOp::create(b, loc, value, lane);
      memref::StoreOp::create(b, loc, scalar, memref, ValueRange{position});
    }
  }

  void emitVector(Value start, Value full) {
    Block &body = op.getRegion().front();
    IRMapping mapping;
    // Lane positions for the accesses made element by element on every
    // path (broadcast and i1 operands), created once when first needed.
    std::optional<SmallVector<Value>> positions;
    auto lanePositions = [&]() -> ArrayRef<Value> {
      if (!positions)
        positions = clampedPositions(start);
      return *positions;
    };
    std::optional<SmallVector<SmallVector<Value>>> laneIndices;
    auto lanes = [&]() -> ArrayRef<SmallVector<Value>> {
      if (!laneIndices) {
        laneIndices.emplace();
        for (Value position : lanePositions())
          laneIndices->push_back(delinearize(position));
      }
      return *laneIndices;
    };

    for (OpOperand *operand : op.getDpsInputOperands()) {
      Type element = elementType(*operand);
      auto vectorType = VectorType::get({width}, element);
      Value value;
      if (isUniform(*operand)) {
        Value scalar = loadBroadcast(*operand, {});
        value = vector::BroadcastOp::create(b, loc, vectorType, scalar);
      } else if (isFlat(*operand) && !element.isInteger(1)) {
        value = loadFlat(*operand, start, full);
      } else if (isFlat(*operand)) {
        // i1 is bit-packed in vectors but byte-sized in memory.
        value = gather(flat[operand->getOperandNumber()], vectorType,
                       lanePositions());
      } else {
        // A broadcast input is strided: gathered lane by lane.
        SmallVector<Value> elements;
        for (int64_t lane = 0; lane < width; ++lane)
          elements.push_back(loadBroadcast(*operand, lanes()[lane]));
        value = vector::FromElementsOp::create(b, loc, vectorType, elements);
      }
      mapping.map(body.getArgument(operand->getOperandNumber()), value);
    }

    for (Operation &inner : body.without_terminator())
      vectorizeOp(inner, mapping);

    auto yield = cast<linalg::YieldOp>(body.getTerminator());
    for (auto [init, yielded] :
         llvm::zip(op.getDpsInitsMutable(), yield.getOperands())) {
      Value value = lookupVector(yielded, mapping);
      Value target = flat[init.getOperandNumber()];
      Type element = elementType(init);
      if (element.isInteger(1)) {
        scatter(value, target, lanePositions());
        continue;
      }
      auto ifFull = scf::IfOp::create(b, loc, full, /*withElseRegion=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifFull.thenBlock());
      vector::StoreOp::create(b, loc, value, target, ValueRange{start},
                              /*nontemporal=*/false, alignment(element));
      b.setInsertionPointToStart(ifFull.elseBlock());
      scatter(value, target, clampedPositions(start));
    }
  }

  /// Vector accesses are aligned to the vector size, up to 16 bytes: every
  /// buffer is allocated 16-byte aligned and start is a multiple of width.
  llvm::MaybeAlign alignment(Type element) {
    return llvm::MaybeAlign(
        std::min<int64_t>(16, width * storageBytes(element)));
  }

  Value lookupVector(Value scalar, IRMapping &mapping) {
    if (Value mapped = mapping.lookupOrNull(scalar))
      return mapped;
    // A value from outside the body is the same in every lane.
    auto type = VectorType::get({width}, scalar.getType());
    Value splat = vector::BroadcastOp::create(b, loc, type, scalar);
    mapping.map(scalar, splat);
    return splat;
  }

  void vectorizeOp(Operation &inner, IRMapping &mapping) {
    if (auto constant = dyn_cast<arith::ConstantOp>(inner)) {
      auto type = VectorType::get({width}, constant.getType());
      auto value = DenseElementsAttr::get(type, constant.getValue());
      mapping.map(constant.getResult(),
                  arith::ConstantOp::create(b, loc, type, value).getResult());
      return;
    }
    OperationState state(inner.getLoc(), inner.getName());
    for (Value operand : inner.getOperands())
      state.addOperands(lookupVector(operand, mapping));
    for (Type type : inner.getResultTypes())
      state.addTypes(VectorType::get({width}, type));
    state.addAttributes(inner.getAttrs());
    Operation *vectorized = b.create(state);
    mapping.map(inner.getResults(), vectorized->getResults());
  }

  linalg::GenericOp op;
  OpBuilder &b;
  Location loc;
  ArrayRef<Value> sizes;
  Value total;
  int64_t width;
  DenseMap<unsigned, Value> flat;
};

struct FuseMapToGPUPass : fuse::impl::FuseMapToGPUBase<FuseMapToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    if (blockSize <= 0 || blockSize > fuse::kMaxBlockSize ||
        vectorBytes <= 0) {
      getOperation().emitError("block-size must be in [1, ")
          << fuse::kMaxBlockSize << "] (a CUDA block has at most "
          << fuse::kMaxBlockSize
          << " threads) and vector-bytes positive; got block-size="
          << blockSize.getValue() << " vector-bytes=" << vectorBytes.getValue();
      return signalPassFailure();
    }
    SmallVector<linalg::GenericOp> kernels;
    getOperation().walk([&](linalg::GenericOp op) {
      if (op.hasPureBufferSemantics() && isElementwiseKernel(op))
        kernels.push_back(op);
    });
    if (profile)
      declareHooks();
    SmallVector<Attribute> names;
    for (linalg::GenericOp op : kernels) {
      auto name = op->getAttrOfType<StringAttr>(kKernelAttrName);
      StringAttr kernelName =
          name ? name
               : StringAttr::get(&getContext(),
                                 "kernel_" + std::to_string(names.size()));
      mapKernel(op, kernelName, names.size());
      names.push_back(kernelName);
    }
    getOperation()->setAttr("fuse.kernels",
                            ArrayAttr::get(&getContext(), names));
  }

  void declareHooks() {
    ModuleOp module = getOperation();
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    Type i64 = b.getI64Type();
    auto declare = [&](StringRef name, TypeRange inputs) {
      if (module.lookupSymbol(name))
        return;
      auto func = func::FuncOp::create(b, module.getLoc(), name,
                                       b.getFunctionType(inputs, {}));
      func.setPrivate();
    };
    declare("fuse_kernel_begin", {i64, i64});
    declare("fuse_kernel_end", {i64});
  }

  /// Bytes the kernel reads and writes: each distinct input once, each
  /// output once (also when it overwrites an input in place), in full.
  Value bytesMoved(OpBuilder &b, Location loc, linalg::GenericOp op) {
    Value total = arith::ConstantIntOp::create(b, loc, 0, 64);
    llvm::SmallDenseSet<Value> seen;
    for (OpOperand &opOperand : op->getOpOperands()) {
      Value operand = opOperand.get();
      if (op.isDpsInput(&opOperand) && !seen.insert(operand).second)
        continue;
      auto type = cast<MemRefType>(operand.getType());
      Value size = arith::ConstantIndexOp::create(
          b, loc, storageBytes(type.getElementType()));
      for (int64_t d = 0; d < type.getRank(); ++d)
        size = arith::MulIOp::create(b, loc, size,
                                     memref::DimOp::create(b, loc, operand, d));
      total = arith::AddIOp::create(
          b, loc, total,
          arith::IndexCastUIOp::create(b, loc, b.getI64Type(), size));
    }
    return total;
  }

  void mapKernel(linalg::GenericOp op, StringAttr name, int64_t id) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value out = op.getDpsInits().front();
    auto outType = cast<MemRefType>(out.getType());

    SmallVector<Value> sizes;
    Value total = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d = 0; d < outType.getRank(); ++d) {
      Value size = memref::DimOp::create(b, loc, out, d);
      sizes.push_back(size);
      total = arith::MulIOp::create(b, loc, total, size);
    }

    // i1 is accessed lane by lane anyway, so it does not narrow the vector
    // unless it is all there is.
    int64_t narrowest = vectorBytes;
    bool onlyI1 = true;
    for (Value operand : op->getOperands()) {
      Type element = getElementTypeOrSelf(operand.getType());
      if (element.isInteger(1))
        continue;
      onlyI1 = false;
      narrowest = std::min(narrowest, storageBytes(element));
    }
    if (onlyI1)
      narrowest = 1;
    int64_t width = std::max<int64_t>(1, vectorBytes / narrowest);

    // ceil(ceil(total / width) / blockSize) blocks; none when empty, where
    // a launch of 0 blocks would be an error.
    Value threads = arith::CeilDivUIOp::create(
        b, loc, total, arith::ConstantIndexOp::create(b, loc, width));
    Value blockDim = arith::ConstantIndexOp::create(b, loc, blockSize);
    Value grid = arith::CeilDivUIOp::create(b, loc, threads, blockDim);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value nonEmpty =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, total, zero);
    auto ifNonEmpty = scf::IfOp::create(b, loc, nonEmpty);
    b.setInsertionPointToStart(&ifNonEmpty.getThenRegion().front());

    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value kernelId = arith::ConstantIntOp::create(b, loc, id, 64);
    if (profile)
      func::CallOp::create(b, loc, "fuse_kernel_begin", TypeRange{},
                           ValueRange{kernelId, bytesMoved(b, loc, op)});
    auto launch = gpu::LaunchOp::create(
        b, loc, grid, one, one, blockDim, one, one,
        /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
        /*asyncDependencies=*/{}, /*workgroupAttributions=*/{},
        /*privateAttributions=*/{}, /*clusterSizeX=*/nullptr,
        /*clusterSizeY=*/nullptr, /*clusterSizeZ=*/nullptr,
        FlatSymbolRefAttr::get(b.getContext(), "fuse_kernels"),
        FlatSymbolRefAttr::get(name));
    if (profile) {
      b.setInsertionPointAfter(launch);
      func::CallOp::create(b, loc, "fuse_kernel_end", TypeRange{},
                           ValueRange{kernelId});
    }
    b.setInsertionPointToStart(&launch.getBody().front());
    Value thread = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, launch.getBlockIds().x, blockDim),
        launch.getThreadIds().x);
    KernelBuilder(op, b, sizes, total, width).emit(thread);
    b.setInsertionPointToEnd(&launch.getBody().front());
    gpu::TerminatorOp::create(b, loc);
    op.erase();
  }
};

} // namespace
