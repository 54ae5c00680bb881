// RUN: fuse-opt %s --fuse-lower-asserts --split-input-file | FileCheck %s

// Each cf.assert directly in a function becomes a cf.cond_br to the rest of
// its block or to a block that calls puts with the message, fflush(NULL)
// (so that the message is out before the abort when stdout is a pipe or a
// file: a program compiled ahead of time lost it) and then abort. The
// messages are NUL-terminated private globals named in program order;
// puts, fflush and abort are declared once. An assert in a structured op's region
// stays (upstream's lowering takes it).

// CHECK-LABEL: module {
// CHECK-NEXT:    llvm.func @puts(!llvm.ptr)
// CHECK-NEXT:    llvm.func @fflush(!llvm.ptr)
// CHECK-NEXT:    llvm.func @abort()
// CHECK-NEXT:    llvm.mlir.global private constant @assert_msg("first\00")
// CHECK-NEXT:    llvm.mlir.global private constant @assert_msg_0("second\00")
// CHECK-NEXT:    llvm.mlir.global private constant @assert_msg_1("last\00")
// CHECK-NOT:     llvm.mlir.global

// CHECK-LABEL: func.func @checks
// CHECK:         %[[EQ:.+]] = arith.cmpi eq
// CHECK-NEXT:    cf.cond_br %[[EQ]], ^[[B2:bb[0-9]+]], ^[[F1:bb[0-9]+]]
// CHECK-NEXT:  ^[[F1]]:
// CHECK-NEXT:    %[[M1:.+]] = llvm.mlir.addressof @assert_msg : !llvm.ptr
// CHECK-NEXT:    llvm.call @puts(%[[M1]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    llvm.call @fflush(%[[NULL]]) : (!llvm.ptr) -> ()
// CHECK-NEXT:    llvm.call @abort() : () -> ()
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  ^[[B2]]:
// CHECK-NEXT:    %[[LT:.+]] = arith.cmpi ult
// CHECK-NEXT:    cf.cond_br %[[LT]], ^[[B4:bb[0-9]+]], ^[[F2:bb[0-9]+]]
// CHECK-NEXT:  ^[[F2]]:
// CHECK-NEXT:    %[[M2:.+]] = llvm.mlir.addressof @assert_msg_0 : !llvm.ptr
// CHECK-NEXT:    llvm.call @puts(%[[M2]])
// CHECK-NEXT:    llvm.mlir.zero
// CHECK-NEXT:    llvm.call @fflush
// CHECK-NEXT:    llvm.call @abort()
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  ^[[B4]]:
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      cf.assert %{{.+}}, "nested"
// CHECK-NEXT:      arith.addi
// CHECK:         } else {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    cf.cond_br %{{.+}}, ^[[B6:bb[0-9]+]], ^[[F3:bb[0-9]+]]
// CHECK-NEXT:  ^[[F3]]:
// CHECK-NEXT:    %[[M3:.+]] = llvm.mlir.addressof @assert_msg_1 : !llvm.ptr
// CHECK-NEXT:    llvm.call @puts(%[[M3]])
// CHECK-NEXT:    llvm.mlir.zero
// CHECK-NEXT:    llvm.call @fflush
// CHECK-NEXT:    llvm.call @abort()
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  ^[[B6]]:
// CHECK-NEXT:    return
func.func @checks(%a: index, %b: index, %c: i1) -> index {
  %0 = arith.cmpi eq, %a, %b : index
  cf.assert %0, "first"
  %1 = arith.cmpi ult, %a, %b : index
  cf.assert %1, "second"
  %2 = scf.if %c -> (index) {
    cf.assert %c, "nested"
    %3 = arith.addi %a, %b : index
    scf.yield %3 : index
  } else {
    scf.yield %a : index
  }
  cf.assert %c, "last"
  return %2 : index
}

// -----

// A module that already declares puts and has a symbol named assert_msg:
// the declaration serves, and the message takes another name.

// CHECK-LABEL: module {
// CHECK-NEXT:    llvm.func @fflush(!llvm.ptr)
// CHECK-NEXT:    llvm.func @abort()
// CHECK-NEXT:    llvm.mlir.global private constant @assert_msg_0("size\00")
// CHECK-NEXT:    llvm.func @puts(!llvm.ptr)
// CHECK-NEXT:    llvm.mlir.global private constant @assert_msg(0 : i32)
// CHECK:         llvm.mlir.addressof @assert_msg_0
// CHECK-NEXT:    llvm.call @puts
module {
  llvm.func @puts(!llvm.ptr)
  llvm.mlir.global private constant @assert_msg(0 : i32) : i32
  func.func @declared(%a: i1) {
    cf.assert %a, "size"
    return
  }
}

// -----

// A kernel's assert is left to convert-gpu-to-nvvm (the GPU's
// __assertfail): a gpu.module does not see the host's message globals, and
// the lowered form referred to one.
// CHECK-LABEL: gpu.module @k
// CHECK: gpu.func @f
// CHECK-NEXT: cf.assert %{{.+}}, "in kernel"
// CHECK-NOT: llvm.mlir.global
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%c: i1) kernel {
      cf.assert %c, "in kernel"
      gpu.return
    }
  }
}
