// RUN: fuse-opt %s --fuse-report=dot | FileCheck %s

// An op at a name with no place (`loc("...")`) is labelled with the name as
// written, which the DOT string escapes: it read `loc("a<b>&\22c")` and
// `loc("\C3\BCn\C3\AF")`, MLIR's escaped bytes.
// CHECK: label="fuse.add\n\"a<b>&\"c\""
// CHECK: label="fuse.relu\n\"back\\slash\""
// CHECK: label="fuse.exp\n\"ünï\""
func.func @names(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32> loc("a<b>&\"c")
  %1 = fuse.relu %0 : tensor<?xf32> loc("back\\slash")
  %2 = fuse.exp %1 : tensor<?xf32> loc("ünï")
  return %2 : tensor<?xf32>
}
