// RUN: fuse-opt %s --fuse-map-to-gpu -split-input-file -verify-diagnostics

// Generics that fuse-map-to-gpu does not map are refused where they are,
// before anything is mapped (written by hand: fuse's pipeline makes none of
// them). They made IR that failed to verify (an index read in a
// reduction), a race (every row of a reduction whose output map is not a
// projection stored to one element), a vector of complex numbers, a kernel
// name that aborted PTX emission, or stayed on the host unmapped.

#id = affine_map<(d0) -> (d0)>
func.func @name(%a: memref<?xf32>, %o: memref<?xf32>) {
  // expected-error @+1 {{fuse-map-to-gpu cannot map this generic to a kernel: its kernel name 'neg-1' (fuse.kernel) is not a symbol: a letter or '_', then letters, digits and '_'}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%o : memref<?xf32>) attrs = {fuse.kernel = "neg-1", fuse.ops = ["neg"]} {
  ^bb0(%x: f32, %y: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @empty_name(%a: memref<?xf32>, %o: memref<?xf32>) {
  // expected-error @+1 {{its kernel name '' (fuse.kernel) is not a symbol}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%o : memref<?xf32>) attrs = {fuse.kernel = "", fuse.ops = ["neg"]} {
  ^bb0(%x: f32, %y: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

#in = affine_map<(d0, d1) -> (d0, d1)>
#out = affine_map<(d0, d1) -> (d0)>
func.func @index(%a: memref<?x?xf32>, %o: memref<?xf32>) {
  // expected-error @+1 {{fuse-map-to-gpu cannot map this generic to a kernel: its body reads a loop index (linalg.index)}}
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%a : memref<?x?xf32>) outs(%o : memref<?xf32>) attrs = {fuse.kernel = "k0", fuse.ops = ["reduce_sum"]} {
  ^bb0(%x: f32, %y: f32):
    %j = linalg.index 1 : index
    %i = arith.index_cast %j : index to i32
    %f = arith.sitofp %i : i32 to f32
    %p = arith.mulf %x, %f : f32
    %m = arith.addf %y, %p : f32
    linalg.yield %m : f32
  }
  return
}

// -----

#in = affine_map<(d0, d1) -> (d1, d0)>
#out = affine_map<(d0, d1) -> (d0 + d1)>
func.func @not_a_projection(%a: memref<?x?xf32>, %o: memref<?xf32>) {
  // expected-error @+1 {{fuse-map-to-gpu cannot map this generic to a kernel: it reduces, and an indexing map is not a projection of its loops}}
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%a : memref<?x?xf32>) outs(%o : memref<?xf32>) attrs = {fuse.kernel = "k0", fuse.ops = ["reduce_sum"]} {
  ^bb0(%x: f32, %y: f32):
    %m = arith.addf %y, %x : f32
    linalg.yield %m : f32
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @complex(%a: memref<?xcomplex<f32>>, %o: memref<?xcomplex<f32>>) {
  // expected-error @+1 {{fuse-map-to-gpu cannot map this generic to a kernel: its element type complex<f32> is not an integer or a float type}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<?xcomplex<f32>>) outs(%o : memref<?xcomplex<f32>>) attrs = {fuse.kernel = "k0", fuse.ops = ["neg"]} {
  ^bb0(%x: complex<f32>, %y: complex<f32>):
    linalg.yield %x : complex<f32>
  }
  return
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed_output(%a: memref<?x?xf32>, %o: memref<?x?xf32>) {
  // expected-error @+1 {{fuse-map-to-gpu cannot map this generic to a kernel: it is not elementwise (its output's indexing map is not the identity, or an input's map is not a projection of the loops, or its body holds an op that is not elementwise)}}
  linalg.generic {indexing_maps = [#id, #t], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?x?xf32>) outs(%o : memref<?x?xf32>) attrs = {fuse.kernel = "k0", fuse.ops = ["neg"]} {
  ^bb0(%x: f32, %y: f32):
    %s = arith.negf %x : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A generic without a kernel's name is mapped or refused like a named one:
// one that reads a loop index stayed on the host without a word.
#id = affine_map<(d0) -> (d0)>
func.func @unnamed_index(%a: memref<?xf32>) {
  // expected-error @+1 {{fuse-map-to-gpu cannot map this generic to a kernel: its body reads a loop index (linalg.index)}}
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    %f = arith.sitofp %c : i64 to f32
    linalg.yield %f : f32
  }
  return
}

// -----

// A generic on tensors is not bufferized yet (the pass mapped nothing and
// said `fuse.kernels = []`).
#id = affine_map<(d0) -> (d0)>
func.func @tensors(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{fuse-map-to-gpu maps generics on buffers (memrefs), and this one is on tensors: bufferize first (one-shot-bufferize, as the gpu stage does)}}
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<?xf32>) outs(%a : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
