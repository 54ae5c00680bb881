// RUN: fuse-opt %s --fuse-report | FileCheck %s --match-full-lines
// RUN: fuse-opt %s --fuse-report=json | FileCheck %s --check-prefix=JSON

// Totals past int64 (bytes of huge static shapes summed over kernels) say
// so, and no ratio; they wrapped to negative numbers. Each tensor is
// 1.6e18 bytes, each eager kernel 3.2e18, the 4 of them 1.28e19 > 2^63.
// CHECK-LABEL: @huge
// CHECK-NEXT:   fused: 1 kernel, 3200000000000000000 bytes (read 1600000000000000000, written 1600000000000000000)
// CHECK:        eager: 4 kernels, more than 2^63 bytes (read 6400000000000000000, written 6400000000000000000)
// CHECK:        fused vs eager: 1 vs 4 kernels, 3200000000000000000 vs more than 2^63 bytes
// JSON:         "bytes": {
// JSON-NEXT:      "text": "more than 2^63",
// JSON-NEXT:      "too_large": true
func.func @huge(%x: tensor<200000000000000000xf64>) -> tensor<200000000000000000xf64> {
  %0 = fuse.exp %x : tensor<200000000000000000xf64>
  %1 = fuse.neg %0 : tensor<200000000000000000xf64>
  %2 = fuse.exp %1 : tensor<200000000000000000xf64>
  %3 = fuse.neg %2 : tensor<200000000000000000xf64>
  return %3 : tensor<200000000000000000xf64>
}

// A ratio below 0.01 has two significant digits: 120 ops, eager 960*N
// bytes against 8*N fused, 0.0083x (it printed 0.00x).
// CHECK-LABEL: @long_chain  N = argument 0 dimension 0
// CHECK:        fused vs eager: 1 vs 120 kernels, 8*N vs 960*N bytes (0.0083x the traffic)
func.func @long_chain(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.neg %x : tensor<?xf32>
  %1 = fuse.abs %0 : tensor<?xf32>
  %2 = fuse.neg %1 : tensor<?xf32>
  %3 = fuse.abs %2 : tensor<?xf32>
  %4 = fuse.neg %3 : tensor<?xf32>
  %5 = fuse.abs %4 : tensor<?xf32>
  %6 = fuse.neg %5 : tensor<?xf32>
  %7 = fuse.abs %6 : tensor<?xf32>
  %8 = fuse.neg %7 : tensor<?xf32>
  %9 = fuse.abs %8 : tensor<?xf32>
  %10 = fuse.neg %9 : tensor<?xf32>
  %11 = fuse.abs %10 : tensor<?xf32>
  %12 = fuse.neg %11 : tensor<?xf32>
  %13 = fuse.abs %12 : tensor<?xf32>
  %14 = fuse.neg %13 : tensor<?xf32>
  %15 = fuse.abs %14 : tensor<?xf32>
  %16 = fuse.neg %15 : tensor<?xf32>
  %17 = fuse.abs %16 : tensor<?xf32>
  %18 = fuse.neg %17 : tensor<?xf32>
  %19 = fuse.abs %18 : tensor<?xf32>
  %20 = fuse.neg %19 : tensor<?xf32>
  %21 = fuse.abs %20 : tensor<?xf32>
  %22 = fuse.neg %21 : tensor<?xf32>
  %23 = fuse.abs %22 : tensor<?xf32>
  %24 = fuse.neg %23 : tensor<?xf32>
  %25 = fuse.abs %24 : tensor<?xf32>
  %26 = fuse.neg %25 : tensor<?xf32>
  %27 = fuse.abs %26 : tensor<?xf32>
  %28 = fuse.neg %27 : tensor<?xf32>
  %29 = fuse.abs %28 : tensor<?xf32>
  %30 = fuse.neg %29 : tensor<?xf32>
  %31 = fuse.abs %30 : tensor<?xf32>
  %32 = fuse.neg %31 : tensor<?xf32>
  %33 = fuse.abs %32 : tensor<?xf32>
  %34 = fuse.neg %33 : tensor<?xf32>
  %35 = fuse.abs %34 : tensor<?xf32>
  %36 = fuse.neg %35 : tensor<?xf32>
  %37 = fuse.abs %36 : tensor<?xf32>
  %38 = fuse.neg %37 : tensor<?xf32>
  %39 = fuse.abs %38 : tensor<?xf32>
  %40 = fuse.neg %39 : tensor<?xf32>
  %41 = fuse.abs %40 : tensor<?xf32>
  %42 = fuse.neg %41 : tensor<?xf32>
  %43 = fuse.abs %42 : tensor<?xf32>
  %44 = fuse.neg %43 : tensor<?xf32>
  %45 = fuse.abs %44 : tensor<?xf32>
  %46 = fuse.neg %45 : tensor<?xf32>
  %47 = fuse.abs %46 : tensor<?xf32>
  %48 = fuse.neg %47 : tensor<?xf32>
  %49 = fuse.abs %48 : tensor<?xf32>
  %50 = fuse.neg %49 : tensor<?xf32>
  %51 = fuse.abs %50 : tensor<?xf32>
  %52 = fuse.neg %51 : tensor<?xf32>
  %53 = fuse.abs %52 : tensor<?xf32>
  %54 = fuse.neg %53 : tensor<?xf32>
  %55 = fuse.abs %54 : tensor<?xf32>
  %56 = fuse.neg %55 : tensor<?xf32>
  %57 = fuse.abs %56 : tensor<?xf32>
  %58 = fuse.neg %57 : tensor<?xf32>
  %59 = fuse.abs %58 : tensor<?xf32>
  %60 = fuse.neg %59 : tensor<?xf32>
  %61 = fuse.abs %60 : tensor<?xf32>
  %62 = fuse.neg %61 : tensor<?xf32>
  %63 = fuse.abs %62 : tensor<?xf32>
  %64 = fuse.neg %63 : tensor<?xf32>
  %65 = fuse.abs %64 : tensor<?xf32>
  %66 = fuse.neg %65 : tensor<?xf32>
  %67 = fuse.abs %66 : tensor<?xf32>
  %68 = fuse.neg %67 : tensor<?xf32>
  %69 = fuse.abs %68 : tensor<?xf32>
  %70 = fuse.neg %69 : tensor<?xf32>
  %71 = fuse.abs %70 : tensor<?xf32>
  %72 = fuse.neg %71 : tensor<?xf32>
  %73 = fuse.abs %72 : tensor<?xf32>
  %74 = fuse.neg %73 : tensor<?xf32>
  %75 = fuse.abs %74 : tensor<?xf32>
  %76 = fuse.neg %75 : tensor<?xf32>
  %77 = fuse.abs %76 : tensor<?xf32>
  %78 = fuse.neg %77 : tensor<?xf32>
  %79 = fuse.abs %78 : tensor<?xf32>
  %80 = fuse.neg %79 : tensor<?xf32>
  %81 = fuse.abs %80 : tensor<?xf32>
  %82 = fuse.neg %81 : tensor<?xf32>
  %83 = fuse.abs %82 : tensor<?xf32>
  %84 = fuse.neg %83 : tensor<?xf32>
  %85 = fuse.abs %84 : tensor<?xf32>
  %86 = fuse.neg %85 : tensor<?xf32>
  %87 = fuse.abs %86 : tensor<?xf32>
  %88 = fuse.neg %87 : tensor<?xf32>
  %89 = fuse.abs %88 : tensor<?xf32>
  %90 = fuse.neg %89 : tensor<?xf32>
  %91 = fuse.abs %90 : tensor<?xf32>
  %92 = fuse.neg %91 : tensor<?xf32>
  %93 = fuse.abs %92 : tensor<?xf32>
  %94 = fuse.neg %93 : tensor<?xf32>
  %95 = fuse.abs %94 : tensor<?xf32>
  %96 = fuse.neg %95 : tensor<?xf32>
  %97 = fuse.abs %96 : tensor<?xf32>
  %98 = fuse.neg %97 : tensor<?xf32>
  %99 = fuse.abs %98 : tensor<?xf32>
  %100 = fuse.neg %99 : tensor<?xf32>
  %101 = fuse.abs %100 : tensor<?xf32>
  %102 = fuse.neg %101 : tensor<?xf32>
  %103 = fuse.abs %102 : tensor<?xf32>
  %104 = fuse.neg %103 : tensor<?xf32>
  %105 = fuse.abs %104 : tensor<?xf32>
  %106 = fuse.neg %105 : tensor<?xf32>
  %107 = fuse.abs %106 : tensor<?xf32>
  %108 = fuse.neg %107 : tensor<?xf32>
  %109 = fuse.abs %108 : tensor<?xf32>
  %110 = fuse.neg %109 : tensor<?xf32>
  %111 = fuse.abs %110 : tensor<?xf32>
  %112 = fuse.neg %111 : tensor<?xf32>
  %113 = fuse.abs %112 : tensor<?xf32>
  %114 = fuse.neg %113 : tensor<?xf32>
  %115 = fuse.abs %114 : tensor<?xf32>
  %116 = fuse.neg %115 : tensor<?xf32>
  %117 = fuse.abs %116 : tensor<?xf32>
  %118 = fuse.neg %117 : tensor<?xf32>
  %119 = fuse.abs %118 : tensor<?xf32>
  return %119 : tensor<?xf32>
}
