// RUN: fuse-opt %s --convert-fuse-to-linalg --fuse-elementwise-fusion --fuse-reduction-fusion --fuse-name-kernels | FileCheck %s
// RUN: fuse-opt %s --convert-fuse-to-linalg --fuse-name-kernels | FileCheck %s --check-prefix=EAGER
// RUN: fuse-opt %s --convert-fuse-to-linalg --fuse-elementwise-fusion --fuse-reduction-fusion --fuse-elementwise-fusion=skip-groups=true --fuse-name-kernels | FileCheck %s --check-prefix=PRUNED

// fuse-reduction-fusion: a reduction and the generics over its rows are one
// kernel (one fuse.group, one name); values passed inside never reach
// memory (fuse-map-to-gpu).

// softmax: both reductions, the prologue exp(x - max) and the division that
// reads the sum broadcast over the row.
// CHECK-LABEL: func @softmax
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} attrs = {fuse.group = [[G:[0-9]+]] : i64, fuse.kernel = "fused_reduce_max_sub_exp_reduce_sum_div_[[K:[0-9]+]]", fuse.ops = ["reduce_max"]}
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} attrs = {fuse.group = [[G]] : i64, fuse.kernel = "fused_reduce_max_sub_exp_reduce_sum_div_[[K]]", fuse.ops = ["sub", "exp"]}
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} attrs = {fuse.group = [[G]] : i64, fuse.kernel = "fused_reduce_max_sub_exp_reduce_sum_div_[[K]]", fuse.ops = ["reduce_sum"]}
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} attrs = {fuse.group = [[G]] : i64, fuse.kernel = "fused_reduce_max_sub_exp_reduce_sum_div_[[K]]", fuse.ops = ["div"]}
// CHECK-NOT: linalg.generic
// CHECK: return
// Eager: one kernel per op.
// EAGER-LABEL: func @softmax
// EAGER: fuse.kernel = "reduce_max_0"
// EAGER: fuse.kernel = "sub_1"
// EAGER: fuse.kernel = "exp_2"
// EAGER: fuse.kernel = "reduce_sum_3"
// EAGER: fuse.kernel = "div_4"
func.func @softmax(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %r = fuse.div %e, %s : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// layer norm: two means (each with its division), the values over the
// rows with the dimension kept (var + eps, rsqrt), scale and shift read
// broadcast along the row.
// CHECK-LABEL: func @layer_norm
// CHECK-COUNT-6: fuse.group = [[G:[0-9]+]] : i64, fuse.kernel = "fused_reduce_mean_sub_mul_reduce_mean_add_plus4_{{[0-9]+}}"
// CHECK-NOT: linalg.generic
// CHECK: return
// Eager: a mean is one kernel of two generics (the sum, the division).
// EAGER-LABEL: func @layer_norm
// EAGER: fuse.group = [[G1:[0-9]+]] : i64, fuse.kernel = "reduce_mean_[[K1:[0-9]+]]", fuse.ops = ["reduce_mean"]
// EAGER: fuse.group = [[G1]] : i64, fuse.kernel = "reduce_mean_[[K1]]", fuse.ops = []
// EAGER: fuse.kernel = "sub_
// EAGER: fuse.kernel = "mul_
// EAGER: fuse.group = [[G2:[0-9]+]] : i64, fuse.kernel = "reduce_mean_[[K2:[0-9]+]]", fuse.ops = ["reduce_mean"]
// EAGER: fuse.group = [[G2]] : i64, fuse.kernel = "reduce_mean_[[K2]]", fuse.ops = []
func.func @layer_norm(%x: tensor<?x?xf32>, %w: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %mean = fuse.reduce_mean %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %c = fuse.sub %x, %mean : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %sq = fuse.mul %c, %c : tensor<?x?xf32>
  %var = fuse.reduce_mean %sq {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %eps = fuse.constant 1.0e-5 : tensor<f32>
  %ve = fuse.add %var, %eps : tensor<?x1xf32>, tensor<f32> -> tensor<?x1xf32>
  %r = fuse.rsqrt %ve : tensor<?x1xf32>
  %n = fuse.mul %c, %r : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %s = fuse.mul %n, %w : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %y = fuse.add %s, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// Reductions over different rows stay apart.
// CHECK-LABEL: func @rows_and_columns
// CHECK: iterator_types = ["parallel", "reduction"]{{.*}} attrs = {fuse.kernel = "reduce_sum_{{[0-9]+}}", fuse.ops = ["reduce_sum"]}
// CHECK: iterator_types = ["reduction", "parallel"]{{.*}} attrs = {fuse.kernel = "reduce_sum_{{[0-9]+}}", fuse.ops = ["reduce_sum"]}
func.func @rows_and_columns(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %r = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %c = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %r, %c : tensor<?xf32>, tensor<?xf32>
}

// A reduction over another space than the first's is a kernel of its own.
// The value of the rows between them goes with the second, over few rows
// (one: the whole vector): a kernel that ends at its rows (few or strided)
// is formed first and takes what comes before its reduction.
// CHECK-LABEL: func @sum_then_max
// CHECK: {fuse.kernel = "reduce_sum_{{[0-9]+}}", fuse.ops = ["reduce_sum"]}
// CHECK: fuse.group = [[G:[0-9]+]] : i64, fuse.kernel = "fused_exp_reduce_max_[[K:[0-9]+]]", fuse.ops = ["exp"]
// CHECK: fuse.group = [[G]] : i64, fuse.kernel = "fused_exp_reduce_max_[[K]]", fuse.ops = ["reduce_max"]
func.func @sum_then_max(%x: tensor<?x?xf32>) -> tensor<f32> {
  %r = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %e = fuse.exp %r : tensor<?xf32>
  %m = fuse.reduce_max %e {dims = array<i64: 0>} : tensor<?xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// A reduction over dimension 0 keeps the columns: its kernel goes down
// each column a thread per column (4 columns of 4, no pieces), and takes no generic over the whole
// space after it (Rows::strided): the add is a kernel of its own, a thread
// per element. One over dimension 1 keeps the rows: the same read is a
// transpose, and the generic stays out too.
// CHECK-LABEL: func @columns
// CHECK: {fuse.kernel = "reduce_sum_{{[0-9]+}}", fuse.ops = ["reduce_sum"]}
// CHECK: {fuse.kernel = "add_{{[0-9]+}}", fuse.ops = ["add"]}
func.func @columns(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %c = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<4x4xf32> -> tensor<4xf32>
  %y = fuse.add %x, %c : tensor<4x4xf32>, tensor<4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// CHECK-LABEL: func @transposed_read
// CHECK: {fuse.kernel = "reduce_sum_{{[0-9]+}}", fuse.ops = ["reduce_sum"]}
// CHECK: {fuse.kernel = "add_{{[0-9]+}}", fuse.ops = ["add"]}
func.func @transposed_read(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<4x4xf32> -> tensor<4xf32>
  %z = fuse.add %x, %r : tensor<4x4xf32>, tensor<4xf32> -> tensor<4x4xf32>
  return %z : tensor<4x4xf32>
}

// The members become adjacent: an op between them that uses a member's
// result moves after the kernel.
// CHECK-LABEL: func @adjacent
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}}fuse.group = [[G:[0-9]+]] : i64{{.*}}fuse.ops = ["reduce_max"]
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[DIV:.+]] = linalg.generic {{.*}}fuse.group = [[G]] : i64{{.*}}fuse.ops = ["sub", "exp", "div"]
// CHECK: tensor.expand_shape %[[MAX]]
// CHECK: return %[[DIV]]
func.func @adjacent(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x1xf32>) {
  %m = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %d = fuse.sub %x, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %e = fuse.exp %d : tensor<?x?xf32>
  %r = fuse.div %e, %m : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %r, %m : tensor<?x?xf32>, tensor<?x1xf32>
}

// Reductions of one operand over the same rows are one kernel, though no op
// reads both: it reads x once for them. A sum over other rows (columns)
// stays apart.
// CHECK-LABEL: func @siblings
// CHECK: linalg.generic {{.*}}ins(%[[X:[^ ]+]] : tensor<?x?xf32>){{.*}}fuse.group = [[G:[0-9]+]] : i64, fuse.kernel = "fused_reduce_sum_reduce_max_[[K:[0-9]+]]", fuse.ops = ["reduce_sum"]
// CHECK: linalg.generic {{.*}}ins(%[[X]] : tensor<?x?xf32>){{.*}}fuse.group = [[G]] : i64, fuse.kernel = "fused_reduce_sum_reduce_max_[[K]]", fuse.ops = ["reduce_max"]
// CHECK: linalg.generic {{.*}}ins(%[[X]] : tensor<?x?xf32>){{.*}}attrs = {fuse.kernel = "reduce_sum_{{[0-9]+}}", fuse.ops = ["reduce_sum"]}
// CHECK: return
func.func @siblings(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %a = fuse.reduce_sum %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %c = fuse.reduce_max %x {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?xf32>
  %s = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %a, %c, %s : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// Over columns, the kernel takes what comes before the reduction (the exp)
// and what runs over the rows (the mean's division): one kernel.
// CHECK-LABEL: func @columns_prologue
// CHECK: fuse.group = [[G:[0-9]+]] : i64, fuse.kernel = "fused_exp_reduce_mean_[[K:[0-9]+]]", fuse.ops = ["exp"]
// CHECK: fuse.group = [[G]] : i64, fuse.kernel = "fused_exp_reduce_mean_[[K]]", fuse.ops = ["reduce_mean"]
// CHECK: fuse.group = [[G]] : i64, fuse.kernel = "fused_exp_reduce_mean_[[K]]", fuse.ops = []
// CHECK-NOT: fuse.group
func.func @columns_prologue(%x: tensor<?x?xf32>) -> tensor<?xf32> {
  %e = fuse.exp %x : tensor<?x?xf32>
  %m = fuse.reduce_mean %e {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  return %m : tensor<?xf32>
}

// Reduced dimensions that are not adjacent (a batch norm's mean over the
// batch and the positions) are reduced in two stages (convert-fuse-to-
// linalg): the rows of the positions, in lanes, and then those sums over
// the batch, strided rows (with the mean's division). Each stage is a
// kernel, and the subtraction, over the whole space, one of its own.
// CHECK-LABEL: func @strided_two_dims
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]} {{.*}}{fuse.kernel = "reduce_mean_[[K1:[0-9]+]]", fuse.ops = ["reduce_mean"]}
// CHECK: iterator_types = ["reduction", "parallel"]} {{.*}}fuse.group = [[G:[0-9]+]] : i64, fuse.kernel = "reduce_mean_[[K2:[0-9]+]]", fuse.ops = ["reduce_mean"]}
// CHECK: fuse.group = [[G]] : i64, fuse.kernel = "reduce_mean_[[K2]]", fuse.ops = []}
// CHECK: {fuse.kernel = "sub_{{[0-9]+}}", fuse.ops = ["sub"]}
func.func @strided_two_dims(%x: tensor<?x64x?xf32>) -> tensor<?x64x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 0, 2>} : tensor<?x64x?xf32> -> tensor<1x64x1xf32>
  %y = fuse.sub %x, %m : tensor<?x64x?xf32>, tensor<1x64x1xf32> -> tensor<?x64x?xf32>
  return %y : tensor<?x64x?xf32>
}

// A value before a reduction over columns that the function returns is
// computed again by a copy, as for few rows: the kernel reduces the columns
// in pieces (dynamic columns, any number), a launch of their own.
// CHECK-LABEL: func @columns_returned
// CHECK: %[[E:.+]] = linalg.generic {{.*}}{fuse.kernel = "fused_add_exp_{{[0-9]+}}", fuse.ops = ["add", "exp"]}
// CHECK: linalg.generic {{.*}}fuse.group = [[G:[0-9]+]] : i64, fuse.kernel = "fused_add_exp_reduce_sum_log_[[K:[0-9]+]]", fuse.ops = ["add", "exp"]
// CHECK: fuse.group = [[G]] : i64, fuse.kernel = "fused_add_exp_reduce_sum_log_[[K]]", fuse.ops = ["reduce_sum"]
// CHECK: %[[L:.+]] = linalg.generic {{.*}}fuse.group = [[G]] : i64, fuse.kernel = "fused_add_exp_reduce_sum_log_[[K]]", fuse.ops = ["log"]
// CHECK-NOT: linalg.generic
// CHECK: return %[[L]], %[[E]]
func.func @columns_returned(%x: tensor<?x?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?x?xf32>) {
  %a = fuse.add %x, %b : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %e = fuse.exp %a : tensor<?x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  %l = fuse.log %s : tensor<?xf32>
  return %l, %e : tensor<?xf32>, tensor<?x?xf32>
}

// Strided rows that are not in pieces (columns of 16): a value before the
// reduction that the function returns is stored by the reduction's kernel
// (one launch), no copy computes it again.
// CHECK-LABEL: func @strided_returned
// CHECK: %[[E:.+]] = linalg.generic {{.*}}fuse.group = [[G:[0-9]+]] : i64, fuse.kernel = "fused_exp_reduce_sum_log_[[K:[0-9]+]]", fuse.ops = ["exp"]
// CHECK: fuse.group = [[G]] : i64, fuse.kernel = "fused_exp_reduce_sum_log_[[K]]", fuse.ops = ["reduce_sum"]
// CHECK: %[[L:.+]] = linalg.generic {{.*}}fuse.group = [[G]] : i64, fuse.kernel = "fused_exp_reduce_sum_log_[[K]]", fuse.ops = ["log"]
// CHECK-NOT: linalg.generic
// CHECK: return %[[L]], %[[E]]
func.func @strided_returned(%x: tensor<16x?xf32>) -> (tensor<?xf32>, tensor<16x?xf32>) {
  %e = fuse.exp %x : tensor<16x?xf32>
  %s = fuse.reduce_sum %e {dims = array<i64: 0>} : tensor<16x?xf32> -> tensor<?xf32>
  %l = fuse.log %s : tensor<?xf32>
  return %l, %e : tensor<?xf32>, tensor<16x?xf32>
}

// Copies of a generic that writes a tensor.empty (here the sub over a
// `1 x ?` tensor's elements without its dimension of size 1, which the full
// sums after it read) each write one of their own, a fresh tensor.empty:
// sharing one, the kernels wrote one buffer that another read, and the
// program did not compile ("writes a buffer that this op uses before the
// kernel's last generic").
// CHECK-LABEL: func @collapsed_copies
// CHECK: fuse.kernel = "reduce_sum_{{[0-9]+}}", fuse.ops = ["reduce_sum"]
// CHECK: fuse.kernel = "reduce_sum_{{[0-9]+}}", fuse.ops = ["reduce_sum"]
// CHECK-NEXT: ^bb0
// CHECK: %[[E1:[0-9]+]] = tensor.empty(%{{.+}}) : tensor<?xf32>
// CHECK-NEXT: %[[E2:[0-9]+]] = tensor.empty(%{{.+}}) : tensor<?xf32>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[E2]] : tensor<?xf32>) {{.*}}fuse.ops = ["sub"]
// CHECK: linalg.generic {{.*}} outs(%[[E1]] : tensor<?xf32>) {{.*}}fuse.ops = ["sub"]
func.func @collapsed_copies(%x: tensor<?x?xf32>) -> tensor<1x?xf32> {
  %0 = fuse.reduce_sum %x {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<1x?xf32>
  %1 = fuse.reduce_sum %0 {dims = array<i64: 0, 1>} : tensor<1x?xf32> -> tensor<f32>
  %2 = fuse.sub %0, %1 : tensor<1x?xf32>, tensor<f32> -> tensor<1x?xf32>
  %3 = fuse.reduce_sum %2 {dims = array<i64: 0, 1>} : tensor<1x?xf32> -> tensor<f32>
  %4 = fuse.sub %2, %3 : tensor<1x?xf32>, tensor<f32> -> tensor<1x?xf32>
  %5 = fuse.reduce_sum %4 {dims = array<i64: 0, 1>} : tensor<1x?xf32> -> tensor<f32>
  %6 = fuse.sub %4, %5 : tensor<1x?xf32>, tensor<f32> -> tensor<1x?xf32>
  return %6 : tensor<1x?xf32>
}

// A layer norm's backward pass: the column sums `dw = (dy * xhat).sum(0)`
// and `db = dy.sum(0)` beside the row means of dx. The columns' kernel is
// formed first (reductions over strided rows before the others), so it
// takes the prologue that both kernels read (xhat and dy * xhat, which the
// rows' kernel computes again from a copy instead of storing it), and the
// sum of dy, a reduction over the same rows of an operand that the
// prologue reads: 3 kernels (this one in pieces), dy and x read twice
// each, only dx stored (20 bytes per element, as TorchInductor's).
// CHECK-LABEL: func @layer_norm_backward
// CHECK: iterator_types = ["parallel", "parallel"]{{.*}}fuse.group = [[R:[0-9]+]] : i64, fuse.kernel = "[[ROWS:fused_sub_mul_mul_mul_mul_plus6_[0-9]+]]", fuse.ops = ["sub", "mul", "mul", "mul", "mul"]
// CHECK: iterator_types = ["parallel", "reduction"]{{.*}}fuse.group = [[R]] : i64, fuse.kernel = "[[ROWS]]", fuse.ops = ["reduce_mean"]
// CHECK: iterator_types = ["parallel", "reduction"]{{.*}}fuse.group = [[R]] : i64, fuse.kernel = "[[ROWS]]", fuse.ops = ["reduce_mean"]
// CHECK: fuse.group = [[R]] : i64, fuse.kernel = "[[ROWS]]", fuse.ops = []
// CHECK: fuse.group = [[R]] : i64, fuse.kernel = "[[ROWS]]", fuse.ops = ["mul", "add", "sub", "mul"]
// CHECK: iterator_types = ["reduction", "parallel"]} ins(%arg0 : tensor<?x?xf32>){{.*}}fuse.group = [[C:[0-9]+]] : i64, fuse.kernel = "[[COLUMNS:fused_reduce_sum_sub_mul_mul_mul_plus2_[0-9]+]]", fuse.ops = ["reduce_sum"]
// CHECK: iterator_types = ["parallel", "parallel"]{{.*}}fuse.group = [[C]] : i64, fuse.kernel = "[[COLUMNS]]", fuse.ops = ["sub", "mul", "mul", "mul", "mul"]
// CHECK: iterator_types = ["reduction", "parallel"]{{.*}}fuse.group = [[C]] : i64, fuse.kernel = "[[COLUMNS]]", fuse.ops = ["reduce_sum"]
// CHECK-NOT: linalg.generic
// CHECK: return
// After the copies are fused, each kernel's prologue computes only what it
// reads: the rows' kernel not dy * xhat, the columns' kernel neither dy * w
// nor xhat * dy * w (and does not read w).
// PRUNED-LABEL: func @layer_norm_backward
// PRUNED: ins(%arg1, %arg3, %arg4, %arg0, %arg2 : {{.*}}fuse.group = [[R:[0-9]+]] : i64, fuse.kernel = "fused_sub_mul_mul_mul_reduce_mean_plus5_{{[0-9]+}}", fuse.ops = ["sub", "mul", "mul", "mul"]
// PRUNED: ins(%arg0 : tensor<?x?xf32>){{.*}}fuse.group = [[C:[0-9]+]] : i64, fuse.kernel = "[[COLUMNS:fused_reduce_sum_sub_mul_mul_reduce_sum_[0-9]+]]", fuse.ops = ["reduce_sum"]
// PRUNED-NEXT: ^bb0
// PRUNED: ins(%arg1, %arg3, %arg4, %arg0 : {{.*}}) outs(%{{[0-9]+}} : tensor<?x?xf32>) {{.*}}fuse.group = [[C]] : i64, fuse.kernel = "[[COLUMNS]]", fuse.ops = ["sub", "mul", "mul"]
// PRUNED-NEXT: ^bb0
// PRUNED-NEXT: arith.subf
// PRUNED-NEXT: arith.mulf
// PRUNED-NEXT: arith.mulf
// PRUNED-NEXT: linalg.yield
func.func @layer_norm_backward(%dy: tensor<?x?xf32>, %x: tensor<?x?xf32>, %w: tensor<?xf32>, %mean: tensor<?x1xf32>, %rstd: tensor<?x1xf32>) -> (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c = fuse.sub %x, %mean : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %xhat = fuse.mul %c, %rstd : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %p = fuse.mul %dy, %xhat : tensor<?x?xf32>
  %dw = fuse.reduce_sum %p {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  %db = fuse.reduce_sum %dy {dims = array<i64: 0>} : tensor<?x?xf32> -> tensor<?xf32>
  %wdy = fuse.mul %dy, %w : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %q = fuse.mul %xhat, %wdy : tensor<?x?xf32>
  %c1 = fuse.reduce_mean %q {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %c2 = fuse.reduce_mean %wdy {dims = array<i64: 1>} : tensor<?x?xf32> -> tensor<?x1xf32>
  %t = fuse.mul %xhat, %c1 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %u = fuse.add %t, %c2 : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  %v = fuse.sub %wdy, %u : tensor<?x?xf32>
  %dx = fuse.mul %v, %rstd : tensor<?x?xf32>, tensor<?x1xf32> -> tensor<?x?xf32>
  return %dx, %dw, %db : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>
}

// A group norm's x - mean, which the product with a weight per channel reads
// uncollapsed (the weight is broadcast along part of the rows' collapsed
// dimensions), is computed again by that product's kernel from x and the
// mean (the copy over the whole space, through upstream's reshape
// propagation), not stored by the rows' kernel: 12 bytes per element, not 16.
// PRUNED-LABEL: func @group_norm
// PRUNED: ins(%{{.+}}, %{{.+}} : tensor<?x?x?xf32>, tensor<?x?xf32>) {{.*}}fuse.kernel = "fused_reduce_mean_sub_mul_reduce_mean_rsqrt_{{[0-9]+}}", fuse.ops = ["sub", "mul"]
// PRUNED: linalg.generic {{.*}} ins(%arg0, %{{.+}}, %{{.+}}, %arg1, %arg2 : tensor<?x?x?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<1x?x?x1x1xf32>, tensor<1x?x?x1x1xf32>) {{.*}}fuse.ops = ["sub", "mul", "mul", "add"]
// PRUNED-NOT: linalg.generic
func.func @group_norm(%x: tensor<?x?x?x?x?xf32>, %g: tensor<1x?x?x1x1xf32>, %b: tensor<1x?x?x1x1xf32>) -> tensor<?x?x?x?x?xf32> {
  %m = fuse.reduce_mean %x {dims = array<i64: 2, 3, 4>} : tensor<?x?x?x?x?xf32> -> tensor<?x?x1x1x1xf32>
  %c = fuse.sub %x, %m : tensor<?x?x?x?x?xf32>, tensor<?x?x1x1x1xf32> -> tensor<?x?x?x?x?xf32>
  %s = fuse.mul %c, %c : tensor<?x?x?x?x?xf32>
  %v = fuse.reduce_mean %s {dims = array<i64: 2, 3, 4>} : tensor<?x?x?x?x?xf32> -> tensor<?x?x1x1x1xf32>
  %r = fuse.rsqrt %v : tensor<?x?x1x1x1xf32>
  %n = fuse.mul %c, %r : tensor<?x?x?x?x?xf32>, tensor<?x?x1x1x1xf32> -> tensor<?x?x?x?x?xf32>
  %w = fuse.mul %n, %g : tensor<?x?x?x?x?xf32>, tensor<1x?x?x1x1xf32> -> tensor<?x?x?x?x?xf32>
  %y = fuse.add %w, %b : tensor<?x?x?x?x?xf32>, tensor<1x?x?x1x1xf32> -> tensor<?x?x?x?x?xf32>
  return %y : tensor<?x?x?x?x?xf32>
}
