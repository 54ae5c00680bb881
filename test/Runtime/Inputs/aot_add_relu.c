/* Calls add_relu compiled ahead of time for the cpu target (docs/passes.md,
 * "Ahead of time"): the function's C interface takes a pointer to its
 * result's memref descriptor, then one to each argument's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  float *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} Vector;

void _mlir_ciface_add_relu(Vector *result, Vector *a, Vector *b);

int main(int argc, char **argv) {
  int64_t n = 1000, m = argc > 1 ? atoi(argv[1]) : 1000;
  float *a = aligned_alloc(64, 4096), *b = aligned_alloc(64, 4096);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = (float)(i - 500);
    b[i] = 0.5f;
  }
  Vector x = {a, a, 0, {n}, {1}}, y = {b, b, 0, {m}, {1}}, r;
  _mlir_ciface_add_relu(&r, &x, &y);
  int64_t wrong = 0;
  for (int64_t i = 0; i < n; ++i) {
    float expected = a[i] + b[i] > 0 ? a[i] + b[i] : 0;
    wrong += r.aligned[i] != expected;
  }
  printf("%lld elements, %lld wrong, aligned to 64: %d\n", (long long)r.sizes[0],
         (long long)wrong, (int)((uintptr_t)r.aligned % 64 == 0));
  free(r.allocated); /* the runtime's fuse_result_alloc: free() */
  free(a);
  free(b);
  return 0;
}
