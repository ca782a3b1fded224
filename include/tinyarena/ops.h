/*
 * tinyarena/ops.h -- the ops a runtime can run: its op list.
 *
 * Every op kind with a kernel is one op definition (`ta_op_def`, opaque:
 * src/runtime/ops/), named after the kind as the model spells it:
 * ta_op_CONV_2D, ta_op_FULLY_CONNECTED, ..., and the signal library's custom
 * ops ta_op_SignalWindow, ta_op_SignalRfft, ...  A runtime runs a model
 * with the definitions of one op list (ta_runtime_options.ops); the linker
 * keeps only the definitions -- and so the kernels -- that some list names.
 *
 *   ta_op_list_all            every definition: what hosts use (the CLI,
 *                             ta_runtime_options_default)
 *   <P>_OPS of a budget header the ops one model needs (`tinyarena plan
 *                             --header`), which firmware passes with
 *                             ta_runtime_options_for_ops: the firmware then
 *                             links only those kernels
 *
 * A model with an op whose definition is not in the list fails at query/init
 * with TA_E_UNSUPPORTED and one line naming the op ("op 3 (SOFTMAX): no
 * kernel for this op in the runtime's op list").
 */
#ifndef TINYARENA_OPS_H
#define TINYARENA_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinyarena/graph.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One op kind's definition: record fields, prepare, invoke, flags. */
typedef struct ta_op_def ta_op_def;

/* An op list: `count` definitions (no duplicates needed, order free).
 * `complete` marks the list of every definition (ta_op_list_all), so that
 * an op missing from it is reported as having no kernel at all. */
typedef struct ta_op_list {
    const ta_op_def *const *defs;
    uint32_t count;
    bool complete;
} ta_op_list;

/* Every op definition of this library. */
extern const ta_op_list ta_op_list_all;

/* The definition's name: the kind as ta_op_kind_str spells it ("CONV_2D"),
 * or the custom op's name ("SignalRfft"); its symbol is ta_op_<name>. */
const char *ta_op_def_name(const ta_op_def *def);

/* The element types the definition computes on -- its data input's (for
 * SELECT_V2, x's and y's) -- that its prepare accepts, as bits
 * 1u << ta_dtype; 0xFFFFFFFF for data movement that takes
 * any fixed-size element (RESHAPE, PAD, TRANSPOSE...); 0 for NULL.  Other
 * operands (weights, alpha, a condition) have their own rules, in each op
 * module's comment.  What `tinyarena ops` lists and the README's table shows. */
uint32_t ta_op_def_types(const ta_op_def *def);

/* The definitions of `from` that g needs (every subgraph's ops), each once, in
 * from's order, into out[0..cap); *n gets the count.  TA_E_UNSUPPORTED
 * (naming the op) when an op has no definition in `from`; TA_E_NO_MEMORY
 * when *n > cap (out may be NULL with cap 0 to count). */
ta_status ta_op_list_needed(const ta_op_list *from, const ta_graph *g, const ta_op_def **out, size_t cap,
                            size_t *n, ta_diag *diag);

/* The builtin kinds whose definition in `ops` may write its output over an
 * input (the kernel reads element i of every input before it writes element
 * i of the output): what the INPLACE rewrite (rewrite.h) may use.  The graph
 * layer does not know kernels, so its callers pass this set in. */
void ta_op_list_inplace_kinds(const ta_op_list *ops, ta_op_kind_set *out);

/* The builtin kinds whose definition in `ops` runs a walk.h walk whenever
 * its output overlaps its input -- the ROWS walk (one kernel call per
 * output row, in order: CONV_2D, the pools) or a forward gather
 * (STRIDED_SLICE) -- and checks it in poison mode: what the OVERLAP
 * rewrite (rewrite.h) may declare relations for. */
void ta_op_list_overlap_kinds(const ta_op_list *ops, ta_op_kind_set *out);

/* The definitions (src/runtime/ops/). */
extern const ta_op_def ta_op_ADD, ta_op_SUB, ta_op_MUL, ta_op_DIV, ta_op_AVERAGE_POOL_2D, ta_op_MAX_POOL_2D,
    ta_op_CONCATENATION, ta_op_CONV_2D, ta_op_DEPTHWISE_CONV_2D, ta_op_TRANSPOSE_CONV, ta_op_FULLY_CONNECTED,
    ta_op_BATCH_MATMUL, ta_op_DEQUANTIZE, ta_op_QUANTIZE, ta_op_RESHAPE, ta_op_SQUEEZE, ta_op_EXPAND_DIMS,
    ta_op_SOFTMAX, ta_op_LOGISTIC, ta_op_TANH, ta_op_LEAKY_RELU, ta_op_HARD_SWISH, ta_op_PAD, ta_op_PADV2,
    ta_op_TRANSPOSE, ta_op_MEAN, ta_op_STRIDED_SLICE, ta_op_RESIZE_NEAREST_NEIGHBOR, ta_op_CAST, ta_op_MINIMUM,
    ta_op_MAXIMUM, ta_op_SVDF, ta_op_LSTM; /* UNIDIRECTIONAL_SEQUENCE_LSTM */
/* issue #18 part A: activations, math, comparisons, logic, normalisation */
extern const ta_op_def ta_op_RELU, ta_op_RELU6, ta_op_RELU_N1_TO_1, ta_op_ELU, ta_op_PRELU, ta_op_ABS, ta_op_NEG,
    ta_op_EXP, ta_op_LOG, ta_op_SQRT, ta_op_RSQRT, ta_op_SQUARE, ta_op_FLOOR, ta_op_CEIL, ta_op_ROUND, ta_op_SIN,
    ta_op_COS, ta_op_SQUARED_DIFFERENCE, ta_op_LOG_SOFTMAX, ta_op_L2_NORMALIZATION, ta_op_FLOOR_DIV, ta_op_FLOOR_MOD,
    ta_op_EQUAL, ta_op_NOT_EQUAL, ta_op_GREATER, ta_op_GREATER_EQUAL, ta_op_LESS, ta_op_LESS_EQUAL, ta_op_LOGICAL_AND,
    ta_op_LOGICAL_OR, ta_op_LOGICAL_NOT, ta_op_SELECT_V2;
extern const ta_op_def ta_op_SignalWindow, ta_op_SignalFftAutoScale, ta_op_SignalRfft, ta_op_SignalEnergy,
    ta_op_SignalFilterBank, ta_op_SignalFilterBankSquareRoot, ta_op_SignalFilterBankSpectralSubtraction,
    ta_op_SignalPCAN, ta_op_SignalFilterBankLog;
/* issue 18 part B: indexing, shape and reductions */
extern const ta_op_def ta_op_SLICE, ta_op_SPLIT, ta_op_SPLIT_V, ta_op_PACK, ta_op_UNPACK, ta_op_GATHER,
    ta_op_GATHER_ND, ta_op_EMBEDDING_LOOKUP, ta_op_SHAPE, ta_op_FILL, ta_op_ZEROS_LIKE, ta_op_BROADCAST_TO,
    ta_op_SPACE_TO_DEPTH, ta_op_DEPTH_TO_SPACE, ta_op_SPACE_TO_BATCH_ND, ta_op_BATCH_TO_SPACE_ND, ta_op_MIRROR_PAD,
    ta_op_RESIZE_BILINEAR, ta_op_ARG_MAX, ta_op_ARG_MIN, ta_op_REDUCE_MAX, ta_op_REDUCE_MIN, ta_op_SUM, ta_op_ADD_N,
    ta_op_CUMSUM;
/* issue 18: control flow and resource variables */
extern const ta_op_def ta_op_IF, ta_op_WHILE, ta_op_CALL_ONCE, ta_op_VAR_HANDLE, ta_op_READ_VARIABLE,
    ta_op_ASSIGN_VARIABLE;
/* issue 12: the SILU rewrite's fused LOGISTIC -> MUL (no TFLite builtin) */
extern const ta_op_def ta_op_SILU;

#ifdef __cplusplus
}
#endif
#endif
