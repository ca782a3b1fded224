/*
 * tinyarena/graph.h -- the format-free graph IR.
 *
 * A graph is a list of subgraphs; each subgraph owns a contiguous run of
 * tensors and a contiguous run of ops, in execution order.  Tensor indices
 * inside a subgraph (op inputs/outputs, subgraph inputs/outputs) are local to
 * that subgraph: tensor k of subgraph s is g->tensors[g->subgraphs[s].tensor_base + k].
 * An index of -1 marks an absent optional input.
 *
 * Nothing here knows any file format.  Readers (the TFLite importer) and
 * builders (the built-in demo networks) fill a graph through the add calls;
 * lifetime analysis, planners and the runtime read it.
 *
 * Memory: the caller provides one block sized by ta_graph_bytes() for given
 * capacities.  The graph keeps its tables in that block and never allocates.
 * Strings, quantisation arrays and constant data are NOT copied: they are
 * pointers the caller keeps alive as long as the graph (for a model read in
 * place, pointers into the model bytes).  Shapes and index lists ARE copied.
 * The one exception: a reader may copy an array the file stores misaligned
 * for its type (an int64 zero-point vector at 4 mod 8) into the graph's word
 * pool (ta_graph_copy_words), so the IR's typed pointers stay aligned; a graph
 * derived from this one (ta_rewrite_graph) points at those copies too.
 *
 *     ta_graph_limits lim = {.subgraphs = 1, .tensors = 8, .ops = 4,
 *                            .indices = 32, .dims = 32};
 *     size_t need = ta_graph_bytes(&lim);
 *     ta_graph g;
 *     ta_graph_init(&g, &lim, block, need);
 *     ta_graph_add_subgraph(&g, "main", NULL);
 *     int32_t shape[4] = {1, 32, 32, 1};
 *     ta_tensor_desc td = {.name = "input", .dtype = TA_DTYPE_INT8, .rank = 4, .shape = shape};
 *     int32_t in;
 *     ta_graph_add_tensor(&g, &td, &in);
 *     ...
 */
#ifndef TINYARENA_GRAPH_H
#define TINYARENA_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinyarena/status.h"
#include "tinyarena/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Tensor flags. */
#define TA_TENSOR_INPUT 1u    /* an input of its subgraph */
#define TA_TENSOR_OUTPUT 2u   /* an output of its subgraph */
#define TA_TENSOR_CONST 4u    /* has data in the model (weights, constants): not planned */
#define TA_TENSOR_VARIABLE 8u /* persistent state (LSTM/SVDF): not planned, lives in the tail */
#define TA_TENSOR_DYNAMIC 16u /* shape has unknown (-1) dims in its signature */
#define TA_TENSOR_ELIDED 32u  /* removed by a rewrite (rewrite.h): no op reads or writes it any
                                 more, so it gets no bytes; never set by readers */
/* (bit 30, 0x40000000, is ta_graph_validate's own scratch: never set it) */

/* Quantisation: affine, per tensor (count == 1) or per channel along `axis`. */
typedef struct ta_quant {
    uint32_t count;            /* 0: not quantised */
    const float *scale;        /* count entries (caller/model owned) */
    const int64_t *zero_point; /* count entries, or NULL for all-zero */
    int32_t axis;              /* quantised dimension for per-channel */
} ta_quant;

#define TA_MAX_RANK 8

typedef struct ta_tensor {
    const char *name;  /* never NULL ("" when unnamed) */
    ta_dtype dtype;
    int32_t rank;      /* 0..TA_MAX_RANK; 0 is a scalar */
    const int32_t *shape; /* rank entries, copied into the graph */
    size_t bytes;      /* elements x element size (the unrounded size) */
    const void *data;  /* constant data, or NULL */
    size_t data_bytes; /* bytes at data */
    uint32_t flags;    /* TA_TENSOR_* */
    ta_quant quant;
    uint32_t subgraph; /* owning subgraph */
    int32_t index;     /* index inside its subgraph */
} ta_tensor;

/* What a tensor is described by when added.  bytes == 0 means "compute from
 * dtype and shape"; flags may carry CONST/VARIABLE (INPUT/OUTPUT are set by
 * ta_graph_set_io). */
typedef struct ta_tensor_desc {
    const char *name;
    ta_dtype dtype;
    int32_t rank;
    const int32_t *shape;
    size_t bytes;
    const void *data;
    size_t data_bytes;
    uint32_t flags;
    ta_quant quant;
} ta_tensor_desc;

/* Operator kinds.  The IR's own list of the operations we know; anything
 * else imports as TA_OP_OTHER (a builtin we do not model) or TA_OP_CUSTOM
 * (with custom_name).  Both still plan: their outputs are sized by shape. */
typedef enum ta_op_kind {
    TA_OP_OTHER = 0,
    TA_OP_CUSTOM,
    TA_OP_ADD,
    TA_OP_SUB,
    TA_OP_MUL,
    TA_OP_DIV,
    TA_OP_AVERAGE_POOL_2D,
    TA_OP_MAX_POOL_2D,
    TA_OP_CONCATENATION,
    TA_OP_CONV_2D,
    TA_OP_DEPTHWISE_CONV_2D,
    TA_OP_TRANSPOSE_CONV,
    TA_OP_FULLY_CONNECTED,
    TA_OP_BATCH_MATMUL,
    TA_OP_DEQUANTIZE,
    TA_OP_QUANTIZE,
    TA_OP_REQUANTIZE,
    TA_OP_RESHAPE,
    TA_OP_SQUEEZE,
    TA_OP_EXPAND_DIMS,
    TA_OP_SOFTMAX,
    TA_OP_LOGISTIC,
    TA_OP_TANH,
    TA_OP_RELU,
    TA_OP_RELU6,
    TA_OP_RELU_N1_TO_1,
    TA_OP_LEAKY_RELU,
    TA_OP_HARD_SWISH,
    TA_OP_PRELU,
    TA_OP_PAD,
    TA_OP_PADV2,
    TA_OP_MIRROR_PAD,
    TA_OP_TRANSPOSE,
    TA_OP_MEAN,
    TA_OP_SUM,
    TA_OP_REDUCE_MAX,
    TA_OP_STRIDED_SLICE,
    TA_OP_SLICE,
    TA_OP_SPLIT,
    TA_OP_SPLIT_V,
    TA_OP_PACK,
    TA_OP_UNPACK,
    TA_OP_GATHER,
    TA_OP_RESIZE_BILINEAR,
    TA_OP_RESIZE_NEAREST_NEIGHBOR,
    TA_OP_ARG_MAX,
    TA_OP_ARG_MIN,
    TA_OP_CAST,
    TA_OP_SHAPE,
    TA_OP_LOG,
    TA_OP_EXP,
    TA_OP_SQRT,
    TA_OP_RSQRT,
    TA_OP_SQUARE,
    TA_OP_ABS,
    TA_OP_NEG,
    TA_OP_MINIMUM,
    TA_OP_MAXIMUM,
    TA_OP_SVDF,
    TA_OP_LSTM,  /* unidirectional sequence LSTM */
    TA_OP_IF,
    TA_OP_WHILE,
    TA_OP_CALL_ONCE,
    TA_OP_CALL,
    /* issue #18 (appended: kinds are never renumbered) */
    TA_OP_ELU,
    TA_OP_SQUARED_DIFFERENCE,
    TA_OP_FLOOR,
    TA_OP_CEIL,
    TA_OP_ROUND,
    TA_OP_SIN,
    TA_OP_COS,
    TA_OP_LOG_SOFTMAX,
    TA_OP_L2_NORMALIZATION,
    TA_OP_FLOOR_DIV,
    TA_OP_FLOOR_MOD,
    TA_OP_EQUAL,
    TA_OP_NOT_EQUAL,
    TA_OP_GREATER,
    TA_OP_GREATER_EQUAL,
    TA_OP_LESS,
    TA_OP_LESS_EQUAL,
    TA_OP_LOGICAL_AND,
    TA_OP_LOGICAL_OR,
    TA_OP_LOGICAL_NOT,
    TA_OP_SELECT_V2,
    TA_OP_GATHER_ND,
    TA_OP_SPACE_TO_DEPTH,
    TA_OP_DEPTH_TO_SPACE,
    TA_OP_SPACE_TO_BATCH_ND,
    TA_OP_BATCH_TO_SPACE_ND,
    TA_OP_FILL,
    TA_OP_ZEROS_LIKE,
    TA_OP_BROADCAST_TO,
    TA_OP_REDUCE_MIN,
    TA_OP_REDUCE_PROD,
    TA_OP_ADD_N,
    TA_OP_CUMSUM,
    TA_OP_EMBEDDING_LOOKUP,
    /* issue #18's resource variables (appended) */
    TA_OP_VAR_HANDLE,
    TA_OP_READ_VARIABLE,
    TA_OP_ASSIGN_VARIABLE,
    /* no TFLite builtin: LOGISTIC then MUL(x, sigmoid(x)) fused by the SILU
     * rewrite (rewrite.h); input 0 is x, intermediate 0 the elided sigmoid */
    TA_OP_SILU,
    TA_OP_KIND_COUNT
} ta_op_kind;

/* Upper-case name of a kind ("CONV_2D"); "OTHER"/"CUSTOM" for those. */
const char *ta_op_kind_str(ta_op_kind k);

/* The options of an op, one struct for all kinds: each kind reads its fields.
 * Readers fill what they understand; everything else stays zero. */
typedef struct ta_op_options {
    ta_padding padding;
    int32_t stride_w, stride_h;
    int32_t dilation_w, dilation_h; /* 1 when not given */
    int32_t filter_w, filter_h;     /* pooling */
    int32_t depth_multiplier;
    ta_activation activation;
    int32_t axis;                   /* concatenation, split, gather, pack... */
    int32_t num;                    /* split num_splits, pack/unpack values_count */
    bool keep_dims;                 /* reductions; fully connected keep_num_dims */
    bool adj_x, adj_y;              /* batch matmul */
    bool asymmetric_quantize_inputs;
    bool align_corners, half_pixel_centers; /* resize */
    float beta;                     /* softmax */
    float alpha;                    /* leaky relu */
    float cell_clip, proj_clip;     /* lstm */
    bool time_major;                /* lstm */
    int32_t rank;                   /* svdf */
    int32_t begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask; /* strided slice */
    bool offset;                    /* strided slice offset */
    int32_t subgraph_a;             /* IF then / WHILE cond / CALL_ONCE init / CALL target; -1 none */
    int32_t subgraph_b;             /* IF else / WHILE body; -1 none */
    ta_dtype out_dtype;             /* cast, arg_max, shape output type */
    int32_t new_shape[TA_MAX_RANK]; /* reshape option (when given) */
    int32_t new_shape_rank;         /* -1 when not given */
    int32_t fc_weights_format;      /* 0 default */
    /* padding == TA_PAD_EXPLICIT (conv, depthwise conv): rows above and below,
     * columns left and right of the input, >= 0; zero otherwise */
    int32_t pad_top, pad_bottom, pad_left, pad_right;
    int32_t block_size;             /* space_to_depth, depth_to_space */
    int32_t batch_dims;             /* gather */
    int32_t mirror_mode;            /* mirror pad: 0 REFLECT, 1 SYMMETRIC */
    bool exclusive, reverse;        /* cumsum */
    /* DEPTHWISE_CONV_2D marked by the DWINPLACE rewrite (rewrite.h): the op
     * runs over its input's buffer through a one-channel kernel scratch when
     * the plan gives its output the input's bytes.  Never set by a reader. */
    bool in_place;
    /* TRANSPOSE_CONV (int8, int16) marked by the GATHER rewrite (rewrite.h):
     * runs output-stationary with no accumulator scratch.  Never set by a
     * reader. */
    bool gather;
    /* VAR_HANDLE: the variable's container and shared name (NUL-terminated,
     * owned by the model bytes or the caller; NULL when absent) */
    const char *container, *shared_name;
    /* The op runs in a patch stage (patch.h): no rewrite writes its output
     * over an input's buffer (INPLACE), since band by band the input's
     * rows are still read by later bands.  Never set by a reader. */
    bool patch_apart;
} ta_op_options;

typedef struct ta_op {
    ta_op_kind kind;
    const char *custom_name; /* for TA_OP_CUSTOM / TA_OP_OTHER: the op's name in the file */
    int32_t builtin_code;    /* the reader's raw operator code (for messages), -1 if none */
    int32_t version;
    uint32_t subgraph;
    int32_t index;           /* index inside its subgraph (execution order) */
    const int32_t *inputs;   /* n_inputs local tensor indices, -1 = absent */
    uint32_t n_inputs;
    const int32_t *outputs;
    uint32_t n_outputs;
    const int32_t *intermediates; /* n_intermediates (LSTM), may be 0 */
    uint32_t n_intermediates;
    ta_op_options opt;
    const void *custom_data;  /* custom op options bytes (caller/model owned), or NULL */
    size_t custom_data_bytes;
} ta_op;

typedef struct ta_op_desc {
    ta_op_kind kind;
    const char *custom_name;
    int32_t builtin_code;
    int32_t version;
    const int32_t *inputs;
    uint32_t n_inputs;
    const int32_t *outputs;
    uint32_t n_outputs;
    const int32_t *intermediates;
    uint32_t n_intermediates;
    const ta_op_options *opt; /* NULL: defaults (see ta_op_options_default) */
    const void *custom_data;
    size_t custom_data_bytes;
} ta_op_desc;

/* Defaults: strides/dilations 1, subgraph_a/b -1, new_shape_rank -1, rest zero. */
ta_op_options ta_op_options_default(void);

typedef struct ta_subgraph {
    const char *name;
    uint32_t tensor_base, n_tensors; /* range in g->tensors */
    uint32_t op_base, n_ops;         /* range in g->ops, execution order */
    const int32_t *inputs;           /* local tensor indices */
    uint32_t n_inputs;
    const int32_t *outputs;
    uint32_t n_outputs;
} ta_subgraph;

/* Capacities for one graph block. */
typedef struct ta_graph_limits {
    uint32_t subgraphs;
    uint32_t tensors;  /* over all subgraphs */
    uint32_t ops;      /* over all subgraphs */
    uint32_t indices;  /* all op inputs+outputs+intermediates and subgraph inputs+outputs */
    uint32_t dims;     /* sum of all tensor ranks */
    uint32_t words;    /* 8-byte words for arrays copied by ta_graph_copy_words (0: none) */
} ta_graph_limits;

typedef struct ta_graph {
    const char *name;         /* description (model name), may be "" */
    ta_subgraph *subgraphs;
    uint32_t n_subgraphs;
    ta_tensor *tensors;
    uint32_t n_tensors;
    ta_op *ops;
    uint32_t n_ops;
    /* internal pools */
    int32_t *index_pool;
    uint32_t index_used;
    int32_t *dim_pool;
    uint32_t dim_used;
    uint64_t *word_pool;
    uint32_t word_used;
    ta_graph_limits cap;
    /* ta_graph_validate's work table (2 words per subgraph, only when there
     * are several), in the block */
    uint32_t *walk_;
} ta_graph;

/* Bytes of the block ta_graph_init needs for these capacities; 0 if absurd
 * (over 2^31 of anything or the total would overflow). */
size_t ta_graph_bytes(const ta_graph_limits *lim);

/* Lays out the tables in mem (any alignment; it aligns internally).
 * TA_E_NO_MEMORY when bytes < ta_graph_bytes(lim). */
ta_status ta_graph_init(ta_graph *g, const ta_graph_limits *lim, void *mem, size_t bytes);

/* Copies `bytes` bytes from src (any alignment) into the graph's word pool
 * and sets *out to the copy, 8-byte aligned, alive as long as the graph's
 * block.  For readers whose source arrays are misaligned for their type.
 * TA_E_INVALID_ARG (g, out NULL, or src NULL with bytes > 0); TA_E_NO_MEMORY
 * when the pool (limits.words) is used up.  bytes == 0 gives *out = NULL. */
ta_status ta_graph_copy_words(ta_graph *g, const void *src, size_t bytes, const void **out);

/* Starts a new subgraph; tensors and ops added afterwards belong to it.
 * TA_E_NO_MEMORY when the capacity is used up. */
ta_status ta_graph_add_subgraph(ta_graph *g, const char *name, uint32_t *index);

/* Appends a tensor to the current subgraph; *index (optional) gets its local
 * index.  Computes bytes from dtype x shape when desc->bytes == 0 (shape dims
 * < 0 count as 1, the batch convention).  TA_E_STATE without a subgraph,
 * TA_E_INVALID_ARG for a bad rank, TA_E_OVERFLOW for absurd shapes. */
ta_status ta_graph_add_tensor(ta_graph *g, const ta_tensor_desc *desc, int32_t *index);

/* Appends an op to the current subgraph.  Every input/output index must be
 * -1 or a tensor of this subgraph added already or later (checked by
 * ta_graph_validate, not here, so ops may be added before tensors). */
ta_status ta_graph_add_op(ta_graph *g, const ta_op_desc *desc, uint32_t *index);

/* Sets the current subgraph's inputs and outputs (copied) and flags the
 * tensors TA_TENSOR_INPUT / TA_TENSOR_OUTPUT. */
ta_status ta_graph_set_io(ta_graph *g, const int32_t *inputs, uint32_t n_inputs,
                          const int32_t *outputs, uint32_t n_outputs);

/*
 * The graph validator: the importer runs it before anything else sees the
 * graph, and lifetime analysis, the rewrites and the runtime run it again,
 * so every path (CLI, library, runtime) goes through it.  It checks, per
 * subgraph, in time linear in the graph:
 *  - every index (op inputs, outputs, intermediates, subgraph io) is in
 *    range; -1 (absent) only for op inputs and intermediates;
 *  - every op has at least one output (except CALL_ONCE and the TFLite
 *    builtin ASSIGN_VARIABLE, which act only on resource variables);
 *  - no op output is a constant (a tensor with data: the model's bytes,
 *    flash on a target), a variable (state is an input of the op that
 *    updates it: SVDF, LSTM), or a subgraph input;
 *  - exactly one writer per written tensor (no two outputs name one tensor);
 *  - no read before the write: every op input is a constant, a variable, a
 *    subgraph input or the output of an EARLIER op (a custom op may also
 *    read a tensor nothing writes: its work memory, as Vela's ethos-u op's
 *    scratch tensors).  With one writer, this
 *    is "the ops form a DAG and run in a topological order" (self-reads and
 *    cycles are reported as such);
 *  - every subgraph output is written (or a constant, variable or input);
 *  - control flow: IF and WHILE name two subgraphs, CALL and CALL_ONCE one,
 *    explicitly (-1 = "absent options" is refused: TFLM would take subgraph
 *    0), each another existing subgraph, and the call graph has no cycle
 *    (no recursion, e.g. CALL 0 -> 1 -> 2 -> 1).
 * TA_E_MALFORMED with a one-line diag naming the subgraph, the op (index and
 * kind) and the tensor (index and name) of the first violation found.
 * It needs no memory of its own: it uses one internal flag bit of each
 * tensor (cleared again before it returns) and, for several subgraphs, a
 * table of 8 bytes per subgraph that ta_graph_init carves in the graph
 * block (a several-subgraph graph not made by ta_graph_init gets
 * TA_E_STATE).  So validating writes into the graph's tables: do not run it
 * on one graph from two threads at once.
 */
ta_status ta_graph_validate(const ta_graph *g, ta_diag *diag);

/* Tensor `local` of subgraph sg, or NULL when out of range. */
const ta_tensor *ta_graph_tensor(const ta_graph *g, uint32_t sg, int32_t local);
/* Op `local` of subgraph sg, or NULL. */
const ta_op *ta_graph_op(const ta_graph *g, uint32_t sg, uint32_t local);

/* Number of elements of a tensor (product of shape; scalar = 1; negative dims count as 1). */
uint64_t ta_tensor_elements(const ta_tensor *t);

#ifdef __cplusplus
}
#endif
#endif
