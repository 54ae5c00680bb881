// RUN: fuse-opt %s --fuse-split-asserts | FileCheck %s

// Each cf.assert directly in a function ends its block: the rest of the
// block moves to a new one, reached by a cf.br. An assert that already
// ends its block (before the terminator) and an assert in a structured
// op's region stay where they are.

// CHECK-LABEL: func.func @checks
// CHECK:         cf.assert %{{.+}}, "first"
// CHECK-NEXT:    cf.br ^[[B1:bb[0-9]+]]
// CHECK:       ^[[B1]]:
// CHECK-NEXT:    arith.cmpi
// CHECK-NEXT:    cf.assert %{{.+}}, "second"
// CHECK-NEXT:    cf.br ^[[B2:bb[0-9]+]]
// CHECK:       ^[[B2]]:
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      cf.assert %{{.+}}, "nested"
// CHECK-NEXT:      arith.addi
// CHECK:         } else {
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    cf.assert %{{.+}}, "last"
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
