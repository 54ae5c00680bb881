// RUN: fuse-opt %s --fuse-lower-asserts --split-input-file --verify-diagnostics

// A symbol named puts, fflush or abort that is not the C library's declaration:
// the failed checks could not call it.

// expected-error @+1 {{the name 'puts' is taken: the run-time checks call the C library's 'puts'; rename this symbol}}
func.func @puts(%a: i1) {
  cf.assert %a, "size"
  return
}

// -----

// expected-error @+1 {{the name 'abort' is taken: the run-time checks call the C library's 'abort'; rename this symbol}}
llvm.func @abort(i32)
func.func @f(%a: i1) {
  cf.assert %a, "size"
  return
}

// -----

// expected-error @+1 {{the name 'fflush' is taken: the run-time checks call the C library's 'fflush'; rename this symbol}}
func.func @fflush(%a: i1) {
  cf.assert %a, "size"
  return
}
