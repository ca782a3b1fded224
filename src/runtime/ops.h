/*
 * Internal: the op layer between the graph and the kernels.
 *
 * For one op of a ta_graph, ta__op_prepare validates the op (types, shapes,
 * options, constant operands), derives every quantisation constant once, and
 * writes a self-contained "op record": the op's tensor indices, the kernel's
 * params and any per-channel tables.  ta__op_invoke then runs the kernel
 * from that record, a table of tensor data pointers and the op's scratch --
 * the graph is not needed at invoke time.
 *
 * The record is frozen (see ops/op.h and ops/core.c): 32-bit words and tables, no pointers
 * (tables are found by their offset from the record start), no size_t.  It
 * does not change after prepare and can be moved or copied anywhere -- into
 * the arena, or out to a const blob that firmware keeps in flash -- as long
 * as it stays 8-byte aligned.  Prepare output is deterministic, padding
 * included, so records compare byte for byte.
 *
 * Two-phase memory, like every tinyarena call: prepare with data == NULL
 * reports the bytes (info->data_bytes) and the kernel's scratch need; call
 * again with a block of that size (8-byte aligned) to fill it.
 */
#ifndef TA_RUNTIME_OPS_H
#define TA_RUNTIME_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinyarena/graph.h"
#include "tinyarena/ops.h"
#include "tinyarena/status.h"

typedef struct ta__op_info {
    size_t data_bytes;    /* op record bytes (persistent) */
    size_t scratch_bytes; /* kernel scratch needed during invoke (0: none) */
    size_t state_bytes;   /* state the op keeps from one invoke to the next (0:
                             none): the runtime keeps it in the persistent part,
                             zeroed by init and ta_runtime_reset */
    size_t table_bytes;   /* of data_bytes: out-of-line constant tables (per-channel
                             multipliers and shifts, concat sizes) */
} ta__op_info;

/* What the control-flow ops (IF, WHILE, CALL_ONCE) and the resource-variable
 * ops (READ_VARIABLE, ASSIGN_VARIABLE) need of the runtime that runs them
 * (runtime_subgraph.c): every other op runs from its record alone. */
typedef struct ta__op_host {
    void *ctx;
    void *const *ptrs; /* every tensor of the graph, by global index */
    /* runs ops [op_base, op_base + n_ops) of the subgraph whose tensors
     * start at tensor_base; fills diag on failure */
    ta_status (*run)(void *ctx, uint32_t op_base, uint32_t n_ops, uint32_t tensor_base, ta_diag *diag);
    /* resource variable `id`'s bytes (*bytes its size), NULL when none */
    uint8_t *(*var)(void *ctx, uint32_t id, uint32_t *bytes);
    /* poison mode: the op copied into the buffer holding p (re-checksum it);
     * NULL outside poison mode */
    void (*wrote)(void *ctx, const void *p);
    /* WHILE: body runs per invoke, every WHILE op and nesting level
     * together (*spent counts them; the runtime zeroes it per invoke), so
     * that nested loops are bounded too */
    uint32_t max_iterations;
    uint32_t *spent;
} ta__op_host;

/* The resource variables of a graph, as TFLM's prepare creates them
 * (micro_resource_variable.cc): VAR_HANDLE ops in global order (subgraph 0
 * first) create one per (container, shared_name) -- a handle without a
 * container matches any variable of its shared name -- and the first
 * ASSIGN_VARIABLE (same order) sizes it: its value's bytes and type, every
 * byte initially the low byte of the value's first zero point.  A READ or
 * ASSIGN names its variable through a handle written by a VAR_HANDLE of its
 * own subgraph. */
#define TA__MAX_VAR_OPS 256u /* VAR_HANDLE + READ_VARIABLE + ASSIGN_VARIABLE per model */
#define TA__MAX_VARS 64u
typedef struct ta__var_table {
    uint32_t n; /* variables */
    struct {
        const char *container, *shared_name;
        uint32_t bytes;  /* 0: never assigned */
        ta_dtype dtype;
        uint8_t fill;
        uint8_t assigned;
    } v[TA__MAX_VARS];
} ta__var_table;
/* Fills *t from g; with want_op set (a global op index), *id gets the
 * variable that op's handle names (its own for a VAR_HANDLE).  One pass
 * over the ops; TA_E_UNSUPPORTED beyond the limits above, TA_E_MALFORMED
 * for a handle no VAR_HANDLE of the op's subgraph writes. */
ta_status ta__var_scan(const ta_graph *g, int64_t want_op, ta__var_table *t, uint32_t *id, ta_diag *diag);

/* Validates op `op_index` of subgraph sg and fills its record, with the
 * op's definition from `ops` (ta_op_list_all: every op).  Errors name the
 * op, its index and the offending type, e.g. "op 3 (CONV_2D): input type
 * int16 is not supported".  TA_E_UNSUPPORTED for ops/types without a kernel
 * (or without a definition in `ops`), TA_E_MALFORMED for inconsistent
 * shapes or missing constant operands, TA_E_NO_MEMORY when data_bytes is
 * below the size query. */
ta_status ta__op_prepare_in(const ta_op_list *ops, const ta_graph *g, uint32_t sg, uint32_t op_index, void *data,
                            size_t data_bytes, ta__op_info *info, ta_diag *diag);

/* Runs a prepared op from its record with its definition from `ops`.
 * ptrs[k] is the data of local tensor k of the subgraph (constant tensors:
 * their model data); scratch is at least ta__op_scratch_bytes(rec), 8-byte
 * aligned (NULL when that is 0); state is ta__op_state_bytes_in(ops, rec)
 * bytes, 8-byte aligned, which the op reads and updates (NULL when 0; an op
 * with state refuses NULL). */
ta_status ta__op_invoke_in(const ta_op_list *ops, const void *rec, void *const *ptrs, void *scratch, void *state,
                           ta_diag *diag);
/* The same with poison mode's walk check (ta__op_run.check_walk): an op
 * running the ROWS walk fails with TA_E_OVERLAP, before the row's call,
 * when an output row would land on input bytes that row or a later one
 * reads. */
ta_status ta__op_invoke_checked(const ta_op_list *ops, const void *rec, void *const *ptrs, void *scratch, void *state,
                                bool check_walk, ta_diag *diag);
/* The same with the runtime's host (NULL: an op that needs one refuses). */
ta_status ta__op_invoke_host(const ta_op_list *ops, const void *rec, void *const *ptrs, void *scratch, void *state,
                             bool check_walk, const ta__op_host *host, ta_diag *diag);
/* Whether the record's op needs the host (control flow, variables). */
bool ta__op_needs_host(const ta_op_list *ops, const void *rec);
/* How a runtime hosts such ops from an init table (runtime_int.h,
 * runtime_flow_table.c): named by their definitions only, so that a
 * firmware links it only when its op list holds one of them.  The
 * record's definition's (NULL: none, or an op that needs no host). */
struct ta__flow_table;
extern const struct ta__flow_table ta__rt_flow_table;
const struct ta__flow_table *ta__op_flow_table(const ta_op_list *ops, const void *rec);

/* Patch-based execution (patch.h, runtime_patch.c).  A record whose op can
 * run on a band of output rows (CONV_2D, DEPTHWISE_CONV_2D, the 2-D pools;
 * the elementwise ops below):
 * true and its rows along H (*rows: in_h, out_h, stride, pad, dilation,
 * taps, as prepare decided them) and the bytes of one input and output row
 * (*in_row, *out_row); false for any other op.  ta__op_invoke_band runs it
 * once on out_h output rows at out from in_h input rows at in, with pad rows
 * of leading padding (batch 1): the caller proves those rows lie in its
 * buffers. */
typedef struct ta__op_band_call {
    const void *in;
    void *out;
    int32_t in_h, out_h, pad;
    /* elementwise ops (ADD, SUB, MUL, RELU-type, LOGISTIC, TANH, SILU):
     * input 1's rows (binary ops) and the whole output's rows, of which the
     * band is out_h (in_h = out_h, pad 0).  Their ta__op_band_rows gives
     * in_h = out_h = the rows when the record knows them, else 0 (unary
     * ops: the stage finds them from its other ops) and the whole tensors'
     * bytes as *in_row / *out_row. */
    const void *in2;
    int32_t h;
} ta__op_band_call;
bool ta__op_band_rows(const ta_op_list *ops, const void *rec, int32_t rows[6], size_t *in_row, size_t *out_row);
ta_status ta__op_invoke_band(const ta_op_list *ops, const void *rec, void *const *ptrs, void *scratch,
                             const ta__op_band_call *band, ta_diag *diag);

/* The same with every op (ta_op_list_all; all.c), for tests and hosts. */
ta_status ta__op_prepare(const ta_graph *g, uint32_t sg, uint32_t op_index, void *data, size_t data_bytes,
                         ta__op_info *info, ta_diag *diag);
ta_status ta__op_invoke(const void *rec, void *const *ptrs, void *scratch, ta_diag *diag);
ta_status ta__op_invoke_state(const void *rec, void *const *ptrs, void *scratch, void *state, ta_diag *diag);

/* The op kind a record runs (TA_OP_CUSTOM for the signal library's custom
 * ops), its name for messages ("CONV_2D", "SignalRfft"; from its definition
 * in `ops`, "UNKNOWN" without one), the scratch it needs during invoke and
 * the state it keeps between invokes (0 without a definition in `ops`). */
ta_op_kind ta__op_kind(const void *rec);
const char *ta__op_name_in(const ta_op_list *ops, const void *rec);
uint32_t ta__op_scratch_bytes(const void *rec);
uint32_t ta__op_state_bytes_in(const ta_op_list *ops, const void *rec);
/* Whether `ops` has the definition a record runs (init from an init table
 * checks every op's before anything is written). */
bool ta__op_has_def(const ta_op_list *ops, const void *rec);
/* Whether the record's op runs the ROWS walk with its check under poison
 * mode (TA__OVERLAP_ROWS): poison mode then lets it overwrite its dying
 * input where its output overlaps it, and only such an op. */
bool ta__op_walks_rows(const ta_op_list *ops, const void *rec);
/* The record's output count; *tensor (when k is below it) gets output k's
 * tensor index (-1: absent).  Poison mode re-checksums what an op wrote. */
uint32_t ta__op_output(const void *rec, uint32_t k, int32_t *tensor);
/* The same for the record's inputs (a patch stage finds its chain's
 * tensors). */
uint32_t ta__op_input(const void *rec, uint32_t k, int32_t *tensor);

/* What the op modules declare of their buffers' alignment (ops/op.h,
 * ta__op_align): the scratch of op (16 when its definition declares
 * nothing), and per global tensor of g the most any op of `ops` declares
 * for it (0: nothing beyond its element size). */
uint32_t ta__op_scratch_align(const ta_op_list *ops, const ta_op *op);
void ta__op_operand_align(const ta_op_list *ops, const ta_graph *g, uint32_t *out);
/* The same scratch alignment for a record's op (16 without a definition). */
uint32_t ta__op_scratch_align_rec(const ta_op_list *ops, const void *rec);

/* Checks that every definition's record field list covers its params
 * struct on this ABI (no field forgotten: gaps only where the compiler
 * pads), that kinds are unique and names match the kinds.  For tests. */
ta_status ta__op_layout_check(ta_diag *diag);

#endif
