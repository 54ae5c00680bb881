// RUN: fuse-opt %s --fuse-report=json | FileCheck %s

// The JSON form of the report. Keys print in alphabetical order: a function's
// "eager" and "fused" come before its "name". Counted by hand like
// report.mlir; kernels are numbered across this module.

// add_relu, every field.
// fused: fused_add_relu_0 reads a,b (8*N), writes c (4*N): 12*N.
// eager: add_0 8*N + 4*N = 12*N; relu_1 4*N + 4*N = 8*N; total 20*N.
// CHECK-LABEL: "functions": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "eager": {
// CHECK-NEXT:        "bytes": "20*N",
// CHECK-NEXT:        "bytes_read": "12*N",
// CHECK-NEXT:        "bytes_written": "8*N",
// CHECK-NEXT:        "kernel_count": 2,
// CHECK-NEXT:        "kernels": [
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": "12*N",
// CHECK-NEXT:            "bytes_read": "8*N",
// CHECK-NEXT:            "bytes_written": "4*N",
// CHECK-NEXT:            "elements": "N",
// CHECK-NEXT:            "name": "add_0",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "add"
// CHECK-NEXT:            ]
// CHECK-NEXT:          },
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": "8*N",
// CHECK-NEXT:            "bytes_read": "4*N",
// CHECK-NEXT:            "bytes_written": "4*N",
// CHECK-NEXT:            "elements": "N",
// CHECK-NEXT:            "name": "relu_1",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "relu"
// CHECK-NEXT:            ]
// CHECK-NEXT:          }
// CHECK-NEXT:        ]
// CHECK-NEXT:      },
// CHECK-NEXT:      "fused": {
// CHECK-NEXT:        "bytes": "12*N",
// CHECK-NEXT:        "bytes_read": "8*N",
// CHECK-NEXT:        "bytes_written": "4*N",
// CHECK-NEXT:        "kernel_count": 1,
// CHECK-NEXT:        "kernels": [
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": "12*N",
// CHECK-NEXT:            "bytes_read": "8*N",
// CHECK-NEXT:            "bytes_written": "4*N",
// CHECK-NEXT:            "elements": "N",
// CHECK-NEXT:            "name": "fused_add_relu_0",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "add",
// CHECK-NEXT:              "relu"
// CHECK-NEXT:            ]
// CHECK-NEXT:          }
// CHECK-NEXT:        ]
// CHECK-NEXT:      },
// CHECK-NEXT:      "name": "add_relu",
// CHECK-NEXT:      "sizes": [
// CHECK-NEXT:        {
// CHECK-NEXT:          "argument": 0,
// CHECK-NEXT:          "dimension": 0,
// CHECK-NEXT:          "name": "N"
// CHECK-NEXT:        }
// CHECK-NEXT:      ]
// CHECK-NEXT:    },
func.func @add_relu(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.relu %0 : tensor<?xf32>
  return %1 : tensor<?xf32>
}

// Horizontal fusion: one kernel reads a, b, c once (12*N), writes 12*N.
// eager: three kernels of 8*N + 4*N = 12*N each.
// CHECK:           "eager": {
// CHECK-NEXT:        "bytes": "36*N",
// CHECK-NEXT:        "bytes_read": "24*N",
// CHECK-NEXT:        "bytes_written": "12*N",
// CHECK-NEXT:        "kernel_count": 3,
// CHECK:               "bytes": "12*N",
// CHECK:               "name": "add_2",
// CHECK:               "bytes": "12*N",
// CHECK:               "name": "sub_3",
// CHECK:               "bytes": "12*N",
// CHECK:               "name": "mul_4",
// CHECK:           "fused": {
// CHECK-NEXT:        "bytes": "24*N",
// CHECK-NEXT:        "bytes_read": "12*N",
// CHECK-NEXT:        "bytes_written": "12*N",
// CHECK-NEXT:        "kernel_count": 1,
// CHECK-NEXT:        "kernels": [
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": "24*N",
// CHECK-NEXT:            "bytes_read": "12*N",
// CHECK-NEXT:            "bytes_written": "12*N",
// CHECK-NEXT:            "elements": "N",
// CHECK-NEXT:            "name": "fused_add_sub_mul_1",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "add",
// CHECK-NEXT:              "sub",
// CHECK-NEXT:              "mul"
// CHECK-NEXT:            ]
// CHECK-NEXT:          }
// CHECK-NEXT:        ]
// CHECK-NEXT:      },
// CHECK-NEXT:      "name": "horizontal",
func.func @horizontal(%a: tensor<?xf32>, %b: tensor<?xf32>, %c: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %0 = fuse.add %a, %b : tensor<?xf32>
  %1 = fuse.sub %a, %c : tensor<?xf32>
  %2 = fuse.mul %b, %c : tensor<?xf32>
  return %0, %1, %2 : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}

// A broadcast consumer starts a new kernel. N = v's size (argument 0),
// M = x's rows (argument 1).
// fused: exp reads 4*N writes 4*N (8*N); mul+relu reads 4*N*M + 4*N, writes
//        4*N*M (8*N*M + 4*N). Read 4*N*M + 8*N, written 4*N*M + 4*N.
// eager: exp 8*N, mul 8*N*M + 4*N, relu 8*N*M: 16*N*M + 12*N.
// CHECK:           "eager": {
// CHECK-NEXT:        "bytes": "16*N*M + 12*N",
// CHECK-NEXT:        "bytes_read": "8*N*M + 8*N",
// CHECK-NEXT:        "bytes_written": "8*N*M + 4*N",
// CHECK-NEXT:        "kernel_count": 3,
// CHECK:               "bytes": "8*N",
// CHECK:               "name": "exp_5",
// CHECK:               "bytes": "8*N*M + 4*N",
// CHECK:               "elements": "N*M",
// CHECK:               "name": "mul_6",
// CHECK:               "bytes": "8*N*M",
// CHECK:               "name": "relu_7",
// CHECK:           "fused": {
// CHECK-NEXT:        "bytes": "8*N*M + 12*N",
// CHECK-NEXT:        "bytes_read": "4*N*M + 8*N",
// CHECK-NEXT:        "bytes_written": "4*N*M + 4*N",
// CHECK-NEXT:        "kernel_count": 2,
// CHECK-NEXT:        "kernels": [
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": "8*N",
// CHECK-NEXT:            "bytes_read": "4*N",
// CHECK-NEXT:            "bytes_written": "4*N",
// CHECK-NEXT:            "elements": "N",
// CHECK-NEXT:            "name": "exp_2",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "exp"
// CHECK-NEXT:            ]
// CHECK-NEXT:          },
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": "8*N*M + 4*N",
// CHECK-NEXT:            "bytes_read": "4*N*M + 4*N",
// CHECK-NEXT:            "bytes_written": "4*N*M",
// CHECK-NEXT:            "elements": "N*M",
// CHECK-NEXT:            "name": "fused_mul_relu_3",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "mul",
// CHECK-NEXT:              "relu"
// CHECK-NEXT:            ]
// CHECK-NEXT:          }
// CHECK-NEXT:        ]
// CHECK-NEXT:      },
// CHECK-NEXT:      "name": "broadcast_boundary",
// CHECK-NEXT:      "sizes": [
// CHECK-NEXT:        {
// CHECK-NEXT:          "argument": 0,
// CHECK-NEXT:          "dimension": 0,
// CHECK-NEXT:          "name": "N"
// CHECK-NEXT:        },
// CHECK-NEXT:        {
// CHECK-NEXT:          "argument": 1,
// CHECK-NEXT:          "dimension": 0,
// CHECK-NEXT:          "name": "M"
// CHECK-NEXT:        }
// CHECK-NEXT:      ]
func.func @broadcast_boundary(%v: tensor<?xf32>, %x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = fuse.exp %v : tensor<?xf32>
  %1 = fuse.mul %x, %0 : tensor<?x?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  %2 = fuse.relu %1 : tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

// i1 is one byte. fused: reads a,b (8*N), writes the select result (4*N) and
// the mask (N). eager: cmp reads 8*N writes N (9*N); select reads N + 8*N
// writes 4*N (13*N).
// CHECK:           "eager": {
// CHECK-NEXT:        "bytes": "22*N",
// CHECK-NEXT:        "bytes_read": "17*N",
// CHECK-NEXT:        "bytes_written": "5*N",
// CHECK-NEXT:        "kernel_count": 2,
// CHECK-NEXT:        "kernels": [
// CHECK-NEXT:          {
// CHECK-NEXT:            "bytes": "9*N",
// CHECK-NEXT:            "bytes_read": "8*N",
// CHECK-NEXT:            "bytes_written": "N",
// CHECK-NEXT:            "elements": "N",
// CHECK-NEXT:            "name": "cmp_8",
// CHECK:                 "bytes": "13*N",
// CHECK-NEXT:            "bytes_read": "9*N",
// CHECK-NEXT:            "bytes_written": "4*N",
// CHECK-NEXT:            "elements": "N",
// CHECK-NEXT:            "name": "select_9",
// CHECK:           "fused": {
// CHECK-NEXT:        "bytes": "13*N",
// CHECK-NEXT:        "bytes_read": "8*N",
// CHECK-NEXT:        "bytes_written": "5*N",
// CHECK-NEXT:        "kernel_count": 1,
// CHECK:                 "name": "fused_cmp_select_4",
// CHECK-NEXT:            "ops": [
// CHECK-NEXT:              "cmp",
// CHECK-NEXT:              "select"
// CHECK-NEXT:            ]
// CHECK:           "name": "cmp_select",
func.func @cmp_select(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
  %m = fuse.cmp gt, %a, %b : tensor<?xf32>, tensor<?xf32> -> tensor<?xi1>
  %0 = fuse.select %m, %a, %b : tensor<?xi1>, tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return %0, %m : tensor<?xf32>, tensor<?xi1>
}
