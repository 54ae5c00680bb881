// The profile's table: bytes in decimal units chosen after rounding (999,999
// bytes printed as 1000.00 KB), whole bytes below 1000 (999.00 B), and
// times with at least three significant digits (a kernel of a few
// microseconds printed 0.000 ms beside its GB/s). A compare of two i32
// vectors moves 9 bytes an element.
// RUN: fuse-run %s --target=cpu --input rand:111 --input rand:111 --profile | FileCheck %s --check-prefix=BYTES
// BYTES: {{^}}cmp_0  {{ *}}1  {{ *}}{{[0-9.]+}}  {{ *}}{{[0-9.]+}}  {{ *}}999 B  
// RUN: fuse-run %s --target=cpu --input rand:111111 --input rand:111111 --profile | FileCheck %s --check-prefix=MB
// MB: {{^}}cmp_0  {{ *}}1  {{ *}}{{[0-9.]+}}  {{ *}}{{[0-9.]+}}  {{ *}}1.00 MB  
// RUN: fuse-run %s --target=cpu --input rand:1000 --input rand:1000 --profile | FileCheck %s --check-prefix=TIME
// TIME: {{^}}cmp_0  {{ *}}1  {{ *}}{{([1-9][0-9]*\.[0-9]{3}|0\.[1-9][0-9]{2}|0\.0[1-9][0-9]{2}|0\.00[1-9][0-9]{2}|0\.000[1-9][0-9]{2})}}  {{ *}}{{[0-9.]+}}  {{ *}}9.00 KB  
func.func @c(%a: tensor<?xi32>, %b: tensor<?xi32>) -> tensor<?xi1> {
  %m = fuse.cmp lt, %a, %b : tensor<?xi32>, tensor<?xi32> -> tensor<?xi1>
  return %m : tensor<?xi1>
}
