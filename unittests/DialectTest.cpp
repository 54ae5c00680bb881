//===- DialectTest.cpp - fuse ops built from C++ --------------------------===//

#include "fuse/Dialect/Fuse/IR/FuseOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {
class DialectTest : public ::testing::Test {
protected:
  DialectTest() { context.loadDialect<fuse::FuseDialect>(); }
  MLIRContext context;
};
} // namespace

TEST_F(DialectTest, InferBroadcastType) {
  Type f32 = Float32Type::get(&context);
  auto a = RankedTensorType::get({8, ShapedType::kDynamic}, f32);
  auto b = RankedTensorType::get({ShapedType::kDynamic}, f32);
  EXPECT_EQ(fuse::inferBroadcastType({a, b}, Type()), a);
  Type i1 = IntegerType::get(&context, 1);
  EXPECT_EQ(fuse::inferBroadcastType({a, b}, i1),
            RankedTensorType::get(a.getShape(), i1));
  auto c = RankedTensorType::get({3}, f32);
  EXPECT_FALSE(fuse::inferBroadcastType({RankedTensorType::get({8, 4}, f32), c},
                                        Type()));
}

TEST_F(DialectTest, BinaryBuilderInfersResultAndVerifies) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  Type f32 = builder.getF32Type();
  auto lhsType = RankedTensorType::get({3, 4}, f32);
  auto rhsType = RankedTensorType::get({4}, f32);
  auto lhs = fuse::ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(lhsType, builder.getF32FloatAttr(1)));
  auto rhs = fuse::ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(rhsType, builder.getF32FloatAttr(2)));
  auto add = fuse::AddOp::create(builder, loc, lhs, rhs);
  EXPECT_EQ(add.getType(), lhsType);
  EXPECT_TRUE(succeeded(verify(add)));
  add->destroy();
  lhs->destroy();
  rhs->destroy();
}
