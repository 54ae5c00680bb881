//===- BroadcastTest.cpp - numpy broadcasting of shapes ------------------===//

#include "fuse/Dialect/Fuse/Utils/Broadcast.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"

#include <gtest/gtest.h>

using fuse::BroadcastConflict;
using fuse::broadcastShapes;
using llvm::SmallVector;

static constexpr int64_t kDyn = mlir::ShapedType::kDynamic;

static SmallVector<int64_t> bcast(llvm::ArrayRef<int64_t> a,
                                  llvm::ArrayRef<int64_t> b) {
  std::optional<SmallVector<int64_t>> r = broadcastShapes(a, b);
  EXPECT_TRUE(r.has_value());
  return r.value_or(SmallVector<int64_t>{});
}

TEST(Broadcast, EqualShapes) {
  EXPECT_EQ(bcast({3, 4}, {3, 4}), (SmallVector<int64_t>{3, 4}));
}

TEST(Broadcast, RankExpansion) {
  EXPECT_EQ(bcast({3, 4}, {4}), (SmallVector<int64_t>{3, 4}));
  EXPECT_EQ(bcast({4}, {2, 3, 4}), (SmallVector<int64_t>{2, 3, 4}));
}

TEST(Broadcast, ScalarBroadcastsEverywhere) {
  EXPECT_EQ(bcast({}, {5, kDyn}), (SmallVector<int64_t>{5, kDyn}));
  EXPECT_EQ(bcast({}, {}), (SmallVector<int64_t>{}));
}

TEST(Broadcast, SizeOneStretches) {
  EXPECT_EQ(bcast({3, 1}, {1, 4}), (SmallVector<int64_t>{3, 4}));
  EXPECT_EQ(bcast({1}, {kDyn}), (SmallVector<int64_t>{kDyn}));
  EXPECT_EQ(bcast({kDyn}, {1}), (SmallVector<int64_t>{kDyn}));
}

TEST(Broadcast, DynamicAgainstDynamicStaysDynamic) {
  EXPECT_EQ(bcast({kDyn, 4}, {kDyn, 4}), (SmallVector<int64_t>{kDyn, 4}));
}

TEST(Broadcast, DynamicAgainstStaticTakesStatic) {
  EXPECT_EQ(bcast({kDyn}, {7}), (SmallVector<int64_t>{7}));
  EXPECT_EQ(bcast({7}, {kDyn}), (SmallVector<int64_t>{7}));
}

TEST(Broadcast, ConflictNamesResultDimension) {
  BroadcastConflict conflict;
  EXPECT_FALSE(broadcastShapes({3, 4}, {5}, &conflict).has_value());
  EXPECT_EQ(conflict.resultDim, 1u);
  EXPECT_EQ(conflict.lhsSize, 4);
  EXPECT_EQ(conflict.rhsSize, 5);

  EXPECT_FALSE(broadcastShapes({2, 1, 6}, {3, 1, 6}, &conflict).has_value());
  EXPECT_EQ(conflict.resultDim, 0u);
  EXPECT_EQ(conflict.lhsSize, 2);
  EXPECT_EQ(conflict.rhsSize, 3);
}

TEST(Broadcast, IsBroadcastDim) {
  // Operand tensor<4> in result tensor<3x4>: dim 0 missing, dim 1 matches.
  EXPECT_TRUE(fuse::isBroadcastDim({4}, {3, 4}, 0));
  EXPECT_FALSE(fuse::isBroadcastDim({4}, {3, 4}, 1));
  // A static 1 against a result 1 is not a broadcast.
  EXPECT_FALSE(fuse::isBroadcastDim({1, 4}, {1, 4}, 0));
  EXPECT_TRUE(fuse::isBroadcastDim({1, 4}, {kDyn, 4}, 0));
}
