/*===- Fuse.h - C API of fuse: compile, run, report ---------------*- C -*-===*\
|*                                                                            *|
|* A small C interface over the fuse library for other languages (the Python *|
|* package uses it through ctypes). Strings returned as `char *` (and error *|
|* messages) are owned by the caller (fuse_free_string), as are result      *|
|* buffers (fuse_free_buffer); strings returned as `const char *` are the   *|
|* library's: a dtype's spelling lives as long as the process, a program's  *|
|* target note and remarks as long as the program (until fuse_destroy).     *|
|* Functions that can fail take `char **error` and set                      *|
|* it to a message (with source locations) on failure; they leave it as it  *|
|* is on success. A NULL program (a fuse_compile that failed) is an error   *|
|* for those, and gives -1, "" or NULL from the others. Any function may be *|
|* called from any thread: runs of one program (and the reads of its last     *|
|* profile) take turns, runs of different programs go at once, compiling      *|
|* and destroying take turns, and fuse_free_buffer waits for no compile.      *|
|* fuse_destroy waits for the program's run in progress on another thread;    *|
|* using a program after its fuse_destroy (destroying it twice, or a run      *|
|* started after) is undefined. A fork waits for the compile (destroy,        *|
|* free) and the runs in progress on other threads, so that the child can     *|
|* compile, and run any program. A run leaves the calling thread's OpenMP     *|
|* settings as they were.                                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef FUSE_C_FUSE_H
#define FUSE_C_FUSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types, in this order (include/fuse/Support/DTypes.def). A
 * FUSE_BOOL element is one byte, 0 or 1: a host input with another byte is
 * an error (the targets read one differently); device inputs are not
 * read on the host, and must hold 0 or 1. */
enum {
  FUSE_F16 = 0,
  FUSE_BF16 = 1,
  FUSE_F32 = 2,
  FUSE_F64 = 3,
  FUSE_I32 = 4,
  FUSE_I64 = 5,
  FUSE_BOOL = 6
};

/* Targets. */
enum { FUSE_TARGET_CPU = 0, FUSE_TARGET_CUDA = 1, FUSE_TARGET_AUTO = 2 };

/* The highest rank of the tensors fuse compiles and of the arrays it runs
 * (numpy 1.x's limit): a program with a tensor of a higher rank is an
 * error. */
#define FUSE_MAX_RANK 32

/* FUSE_MAX_RANK, for languages that do not read this header. */
int32_t fuse_max_rank(void);

/* The byte alignment that fuse's kernels assume of the data of every array
 * of more than one number (not bool): arrays in device memory must have it;
 * host arrays without it are read through an aligned copy. */
int32_t fuse_alignment(void);

/* The MLIR spelling of element type `code` ("f16", ..., "i1"), or NULL past
 * the last one: the codes, for languages that do not read this header. */
const char *fuse_dtype_spelling(int32_t code);

/* A host array: row-major data of `dtype` with `rank` dimensions. */
typedef struct {
  void *data;
  int32_t dtype;
  int32_t rank;
  int64_t shape[FUSE_MAX_RANK];
} fuse_array;

typedef struct fuse_program fuse_program;

/* `options`, here and below: the compiler's options written as the
 * `fuse-lower` pipeline's (docs/passes.md), e.g. "fusion=off block-size=128
 * opt-level=3", separated by white space; NULL or "": the defaults. An
 * unknown or bad option is an error that names it. `mlir_text`, here and
 * below: the program's text, NUL-terminated; NULL is an error. */

/* Compiles function `entry` (NULL or "": the only public one) of the fuse
 * program `mlir_text` for `target` (one of FUSE_TARGET_*; another is an
 * error) with `options`; on the cuda target the chip is the device's unless
 * `options` names one. */
fuse_program *fuse_compile(const char *mlir_text, const char *entry,
                           int32_t target, const char *options, char **error);
void fuse_destroy(fuse_program *program);

/* The target the program runs on (auto resolved), and why auto chose the
 * CPU ("" when it did not): no usable GPU, or a driver that refused the
 * kernels' PTX (a driver older than its ISA version). */
int32_t fuse_program_target(const fuse_program *program);
const char *fuse_program_target_note(const fuse_program *program);

/* What the compiler said while compiling the program ("" when nothing):
 * with the `remarks` option, a remark for each producer/consumer pair left
 * unfused and a note at its producer, one per line, each with its source
 * location ("<program>:3:8: remark: not fused with ..."). */
const char *fuse_program_remarks(const fuse_program *program);

/* The signature: number of inputs/results, and each one's dtype and rank;
 * dynamic sizes are -1 in the shapes. An index out of range gives dtype and
 * rank -1. */
int32_t fuse_num_inputs(const fuse_program *program);
int32_t fuse_num_results(const fuse_program *program);
void fuse_input_type(const fuse_program *program, int32_t index,
                     fuse_array *type);
void fuse_result_type(const fuse_program *program, int32_t index,
                      fuse_array *type);

/* Runs the program on `inputs`; fills `results` (fuse_num_results of them,
 * data owned by the caller: a buffer even for a result of no element).
 * Returns 0 on success. An input of an unknown dtype, a rank past
 * FUSE_MAX_RANK, a negative size, more than 2^63 - 1 bytes, or NULL data
 * with elements is an error. */
int32_t fuse_run(fuse_program *program, const fuse_array *inputs,
                 int32_t num_inputs, fuse_array *results, char **error);

/* fuse_run with the caller's arrays for the results (fuse_run is this with
 * no `outs`, num_outs 0): `outs` has one entry
 * per result (fuse_num_results; `data` NULL for a result without one), of
 * the result's dtype and shape, sharing no memory with another output. The
 * CPU target's kernels write into them directly, except into one that
 * shares memory with an input or is not 16-byte aligned, which gets its
 * result by a copy after the run; the CUDA target copies each result into
 * its array. An output that is exactly an input's array is written
 * directly when the program is one elementwise kernel that reads that
 * input only where it writes the result (an optimizer's step in place). The
 * results filled for them point to the caller's arrays (not to free). */
int32_t fuse_run_into(fuse_program *program, const fuse_array *inputs,
                      int32_t num_inputs, const fuse_array *outs,
                      int32_t num_outs, fuse_array *results, char **error);

/* Runs a program compiled for FUSE_TARGET_CUDA on arrays already in device
 * memory (`inputs[i].data` are device pointers of device 0's primary
 * context, as PyTorch and CuPy use), with no host copies. The launches go
 * on `stream` (a CUstream of that context; 0: fuse's own), behind the work
 * already queued there, and the call returns once they are done. Fills
 * `results` with device memory the caller frees with fuse_free_device. Returns
 * 0 on success. */
int32_t fuse_run_device(fuse_program *program, const fuse_array *inputs,
                        int32_t num_inputs, uint64_t stream,
                        fuse_array *results, char **error);
void fuse_free_device(void *data);

/* The last run's kernels as JSON: [{"name", "bytes", "ms"}...], and the
   copies of results that no kernel writes ("[result R copied]"). Result
   buffers and strings outlive the program that made them. */
char *fuse_last_profile_json(const fuse_program *program);

/* The report (kernels, ops, bytes; fused vs eager) of every function, as
 * the JSON of `fuse-opt --fuse-report=json`, for the compiler's `options`
 * (fuse_compile's; NULL or "" for the defaults): a program compiled with
 * "horizontal=off" or another "block-size" has other kernels. The report
 * shows the fused and the eager kernels whatever "fusion" says. */
char *fuse_report_json(const char *mlir_text, const char *options,
                       char **error);

/* The same report as the text of `fuse-opt --fuse-report`. */
char *fuse_report_text(const char *mlir_text, const char *options,
                       char **error);

/* The Graphviz graph of `fuse-opt --fuse-report=dot`: the fused kernels, or
 * the eager ones with "fusion=off". */
char *fuse_report_dot(const char *mlir_text, const char *options, char **error);

/* The PTX of every kernel (for sm_90 unless `options` names a chip). */
char *fuse_ptx(const char *mlir_text, const char *options, char **error);

void fuse_free_string(char *text);
void fuse_free_buffer(void *data);

/* The CPU target's cache of freed result buffers (FUSE_HOST_CACHE_MB MiB at
 * most, 1024 by default): the bytes it keeps, and freeing them all. */
size_t fuse_host_cache_bytes(void);
void fuse_release_host_cache(void);

#ifdef __cplusplus
}
#endif

#endif /* FUSE_C_FUSE_H */
