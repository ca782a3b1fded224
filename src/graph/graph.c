/* The format-free graph IR: tables carved from one caller block. */
#include <string.h>

#include "common/util.h"
#include "tinyarena/graph.h"

static const struct {
    size_t size;
    const char *name;
} k_dtypes[TA_DTYPE_COUNT] = {
    [TA_DTYPE_UNKNOWN] = {0, "unknown"},   [TA_DTYPE_FLOAT32] = {4, "float32"},
    [TA_DTYPE_FLOAT16] = {2, "float16"},   [TA_DTYPE_FLOAT64] = {8, "float64"},
    [TA_DTYPE_BFLOAT16] = {2, "bfloat16"}, [TA_DTYPE_INT4] = {1, "int4"},
    [TA_DTYPE_INT8] = {1, "int8"},         [TA_DTYPE_UINT8] = {1, "uint8"},
    [TA_DTYPE_INT16] = {2, "int16"},       [TA_DTYPE_UINT16] = {2, "uint16"},
    [TA_DTYPE_INT32] = {4, "int32"},       [TA_DTYPE_UINT32] = {4, "uint32"},
    [TA_DTYPE_INT64] = {8, "int64"},       [TA_DTYPE_UINT64] = {8, "uint64"},
    [TA_DTYPE_BOOL] = {1, "bool"},         [TA_DTYPE_COMPLEX64] = {8, "complex64"},
    [TA_DTYPE_COMPLEX128] = {16, "complex128"}, [TA_DTYPE_STRING] = {0, "string"},
    [TA_DTYPE_RESOURCE] = {0, "resource"}, [TA_DTYPE_VARIANT] = {0, "variant"},
};

size_t ta_dtype_size(ta_dtype t) { return (unsigned)t < TA_DTYPE_COUNT ? k_dtypes[t].size : 0; }

const char *ta_dtype_str(ta_dtype t) {
    return (unsigned)t < TA_DTYPE_COUNT ? k_dtypes[t].name : "unknown";
}

ta_status ta_dtype_bytes_for(ta_dtype t, uint64_t elements, size_t *bytes) {
    if (!bytes) return TA_E_INVALID_ARG;
    size_t es = ta_dtype_size(t);
    if (!es) return TA_E_UNSUPPORTED;
    uint64_t b;
    if (t == TA_DTYPE_INT4) {
        b = elements / 2 + (elements & 1);
    } else {
        if (elements > UINT64_MAX / es) return TA_E_OVERFLOW;
        b = elements * es;
    }
    if (b > (uint64_t)SIZE_MAX) return TA_E_OVERFLOW;
    *bytes = (size_t)b;
    return TA_OK;
}

static const char *const k_kinds[TA_OP_KIND_COUNT] = {
#define K(x) [TA_OP_##x] = #x
    K(OTHER), K(CUSTOM), K(ADD), K(SUB), K(MUL), K(DIV), K(AVERAGE_POOL_2D), K(MAX_POOL_2D),
    K(CONCATENATION), K(CONV_2D), K(DEPTHWISE_CONV_2D), K(TRANSPOSE_CONV), K(FULLY_CONNECTED),
    K(BATCH_MATMUL), K(DEQUANTIZE), K(QUANTIZE), K(REQUANTIZE), K(RESHAPE), K(SQUEEZE),
    K(EXPAND_DIMS), K(SOFTMAX), K(LOGISTIC), K(TANH), K(RELU), K(RELU6), K(RELU_N1_TO_1),
    K(LEAKY_RELU), K(HARD_SWISH), K(PRELU), K(PAD), K(PADV2), K(MIRROR_PAD), K(TRANSPOSE),
    K(MEAN), K(SUM), K(REDUCE_MAX), K(STRIDED_SLICE), K(SLICE), K(SPLIT), K(SPLIT_V), K(PACK),
    K(UNPACK), K(GATHER), K(RESIZE_BILINEAR), K(RESIZE_NEAREST_NEIGHBOR), K(ARG_MAX),
    K(ARG_MIN), K(CAST), K(SHAPE), K(LOG), K(EXP), K(SQRT), K(RSQRT), K(SQUARE), K(ABS), K(NEG),
    K(MINIMUM), K(MAXIMUM), K(SVDF), K(LSTM), K(IF), K(WHILE), K(CALL_ONCE), K(CALL),
    K(ELU), K(SQUARED_DIFFERENCE), K(FLOOR), K(CEIL), K(ROUND), K(SIN), K(COS), K(LOG_SOFTMAX),
    K(L2_NORMALIZATION), K(FLOOR_DIV), K(FLOOR_MOD), K(EQUAL), K(NOT_EQUAL), K(GREATER), K(GREATER_EQUAL),
    K(LESS), K(LESS_EQUAL), K(LOGICAL_AND), K(LOGICAL_OR), K(LOGICAL_NOT), K(SELECT_V2), K(GATHER_ND),
    K(SPACE_TO_DEPTH), K(DEPTH_TO_SPACE), K(SPACE_TO_BATCH_ND), K(BATCH_TO_SPACE_ND), K(FILL), K(ZEROS_LIKE),
    K(BROADCAST_TO), K(REDUCE_MIN), K(REDUCE_PROD), K(ADD_N), K(CUMSUM), K(EMBEDDING_LOOKUP),
    K(VAR_HANDLE), K(READ_VARIABLE), K(ASSIGN_VARIABLE), K(SILU),
#undef K
};

const char *ta_op_kind_str(ta_op_kind k) {
    return (unsigned)k < TA_OP_KIND_COUNT && k_kinds[k] ? k_kinds[k] : "OTHER";
}

ta_op_options ta_op_options_default(void) {
    ta_op_options o;
    memset(&o, 0, sizeof o);
    o.stride_w = o.stride_h = 1;
    o.dilation_w = o.dilation_h = 1;
    o.depth_multiplier = 1;
    o.subgraph_a = o.subgraph_b = -1;
    o.new_shape_rank = -1;
    o.beta = 1.0f;
    return o;
}

/* Carves the tables in a fixed order; the same code sizes (mem == NULL) and lays out. */
static bool carve(ta__bump *b, const ta_graph_limits *lim, ta_graph *g) {
    const uint32_t lim31 = 0x7fffffffu;
    if (lim->subgraphs > lim31 || lim->tensors > lim31 || lim->ops > lim31 ||
        lim->indices > lim31 || lim->dims > lim31 || lim->words > lim31)
        return false;
    g->subgraphs = ta__bump_take(b, lim->subgraphs, sizeof(ta_subgraph));
    g->tensors = ta__bump_take(b, lim->tensors, sizeof(ta_tensor));
    g->ops = ta__bump_take(b, lim->ops, sizeof(ta_op));
    g->index_pool = ta__bump_take(b, lim->indices, sizeof(int32_t));
    g->dim_pool = ta__bump_take(b, lim->dims, sizeof(int32_t));
    /* ta_graph_validate's depth-first walk over the subgraph call graph;
     * a single subgraph cannot call another (nothing to walk), so the
     * common one-subgraph model pays nothing for it */
    g->walk_ = lim->subgraphs > 1 ? ta__bump_take(b, lim->subgraphs, 2 * sizeof(uint32_t)) : NULL;
    /* No pool at all when none is asked for: not even the slice's
     * alignment padding, so a graph's size is what it was without copies. */
    g->word_pool = lim->words ? ta__bump_take(b, lim->words, sizeof(uint64_t)) : NULL;
    return !b->fail;
}

size_t ta_graph_bytes(const ta_graph_limits *lim) {
    if (!lim) return 0;
    ta__bump b;
    ta_graph g;
    ta__bump_init(&b, NULL, 0);
    if (!carve(&b, lim, &g)) return 0;
    return ta__bump_need(&b);
}

ta_status ta_graph_init(ta_graph *g, const ta_graph_limits *lim, void *mem, size_t bytes) {
    if (!g || !lim || (!mem && bytes)) return TA_E_INVALID_ARG;
    size_t need = ta_graph_bytes(lim);
    if (!need) return TA_E_OVERFLOW;
    if (bytes < need || !mem) return TA_E_NO_MEMORY;
    memset(g, 0, sizeof *g);
    ta__bump b;
    ta__bump_init_aligned(&b, mem, bytes);
    if (!carve(&b, lim, g)) return TA_E_NO_MEMORY;
    g->cap = *lim;
    g->name = "";
    return TA_OK;
}

ta_status ta_graph_add_subgraph(ta_graph *g, const char *name, uint32_t *index) {
    if (!g) return TA_E_INVALID_ARG;
    if (g->n_subgraphs >= g->cap.subgraphs) return TA_E_NO_MEMORY;
    ta_subgraph *s = &g->subgraphs[g->n_subgraphs];
    memset(s, 0, sizeof *s);
    s->name = name ? name : "";
    s->tensor_base = g->n_tensors;
    s->op_base = g->n_ops;
    if (index) *index = g->n_subgraphs;
    g->n_subgraphs++;
    return TA_OK;
}

ta_status ta_graph_copy_words(ta_graph *g, const void *src, size_t bytes, const void **out) {
    if (!g || !out || (!src && bytes)) return TA_E_INVALID_ARG;
    *out = NULL;
    if (!bytes) return TA_OK;
    /* Whole words, so the next copy starts 8-aligned too (the pool is). */
    size_t words = bytes / 8 + (bytes % 8 != 0);
    if (!g->word_pool || words > (size_t)(g->cap.words - g->word_used)) return TA_E_NO_MEMORY;
    uint64_t *dst = g->word_pool + g->word_used;
    memcpy(dst, src, bytes);
    g->word_used += (uint32_t)words;
    *out = dst;
    return TA_OK;
}

static int32_t *copy_indices(ta_graph *g, const int32_t *src, uint32_t n) {
    if (n == 0) return g->index_pool ? g->index_pool + g->index_used : NULL;
    if (!src || n > g->cap.indices - g->index_used) return NULL;
    int32_t *dst = g->index_pool + g->index_used;
    memcpy(dst, src, n * sizeof *dst);
    g->index_used += n;
    return dst;
}

uint64_t ta_tensor_elements(const ta_tensor *t) {
    uint64_t e = 1;
    for (int32_t i = 0; i < t->rank; i++) {
        uint64_t d = t->shape[i] < 0 ? 1u : (uint64_t)t->shape[i];
        if (d && e > UINT64_MAX / d) return UINT64_MAX;
        e *= d;
    }
    return e;
}

ta_status ta_graph_add_tensor(ta_graph *g, const ta_tensor_desc *d, int32_t *index) {
    if (!g || !d) return TA_E_INVALID_ARG;
    if (!g->n_subgraphs) return TA_E_STATE;
    if (d->rank < 0 || d->rank > TA_MAX_RANK || (d->rank && !d->shape)) return TA_E_INVALID_ARG;
    if (g->n_tensors >= g->cap.tensors) return TA_E_NO_MEMORY;
    if ((uint32_t)d->rank > g->cap.dims - g->dim_used) return TA_E_NO_MEMORY;
    ta_subgraph *s = &g->subgraphs[g->n_subgraphs - 1];
    ta_tensor *t = &g->tensors[g->n_tensors];
    memset(t, 0, sizeof *t);
    int32_t *dims = g->dim_pool ? g->dim_pool + g->dim_used : NULL;
    if (d->rank) memcpy(dims, d->shape, (size_t)d->rank * sizeof *dims);
    g->dim_used += (uint32_t)d->rank;
    t->name = d->name ? d->name : "";
    t->dtype = d->dtype;
    t->rank = d->rank;
    t->shape = dims;
    t->data = d->data;
    t->data_bytes = d->data_bytes;
    t->flags = d->flags;
    t->quant = d->quant;
    t->subgraph = g->n_subgraphs - 1;
    t->index = (int32_t)s->n_tensors;
    for (int32_t i = 0; i < t->rank; i++)
        if (t->shape[i] < 0) t->flags |= TA_TENSOR_DYNAMIC;
    if (d->bytes) {
        t->bytes = d->bytes;
    } else {
        uint64_t e = ta_tensor_elements(t);
        if (e == UINT64_MAX) return TA_E_OVERFLOW;
        ta_status st = ta_dtype_bytes_for(t->dtype, e, &t->bytes);
        if (st == TA_E_OVERFLOW) return st;
        if (st != TA_OK) t->bytes = 0; /* strings/resources: sized by data, not planned */
    }
    if (index) *index = t->index;
    g->n_tensors++;
    s->n_tensors++;
    return TA_OK;
}

ta_status ta_graph_add_op(ta_graph *g, const ta_op_desc *d, uint32_t *index) {
    if (!g || !d) return TA_E_INVALID_ARG;
    if (!g->n_subgraphs) return TA_E_STATE;
    if (g->n_ops >= g->cap.ops) return TA_E_NO_MEMORY;
    if ((d->n_inputs && !d->inputs) || (d->n_outputs && !d->outputs) ||
        (d->n_intermediates && !d->intermediates))
        return TA_E_INVALID_ARG;
    uint64_t need = (uint64_t)d->n_inputs + d->n_outputs + d->n_intermediates;
    if (need > (uint64_t)(g->cap.indices - g->index_used)) return TA_E_NO_MEMORY;
    ta_subgraph *s = &g->subgraphs[g->n_subgraphs - 1];
    ta_op *op = &g->ops[g->n_ops];
    memset(op, 0, sizeof *op);
    op->kind = d->kind;
    op->custom_name = d->custom_name;
    op->builtin_code = d->builtin_code;
    op->version = d->version;
    op->subgraph = g->n_subgraphs - 1;
    op->index = (int32_t)s->n_ops;
    op->inputs = copy_indices(g, d->inputs, d->n_inputs);
    op->n_inputs = d->n_inputs;
    op->outputs = copy_indices(g, d->outputs, d->n_outputs);
    op->n_outputs = d->n_outputs;
    op->intermediates = copy_indices(g, d->intermediates, d->n_intermediates);
    op->n_intermediates = d->n_intermediates;
    op->opt = d->opt ? *d->opt : ta_op_options_default();
    op->custom_data = d->custom_data;
    op->custom_data_bytes = d->custom_data_bytes;
    if (index) *index = (uint32_t)op->index;
    g->n_ops++;
    s->n_ops++;
    return TA_OK;
}

ta_status ta_graph_set_io(ta_graph *g, const int32_t *inputs, uint32_t n_inputs,
                          const int32_t *outputs, uint32_t n_outputs) {
    if (!g || (n_inputs && !inputs) || (n_outputs && !outputs)) return TA_E_INVALID_ARG;
    if (!g->n_subgraphs) return TA_E_STATE;
    if ((uint64_t)n_inputs + n_outputs > (uint64_t)(g->cap.indices - g->index_used))
        return TA_E_NO_MEMORY;
    ta_subgraph *s = &g->subgraphs[g->n_subgraphs - 1];
    s->inputs = copy_indices(g, inputs, n_inputs);
    s->n_inputs = n_inputs;
    s->outputs = copy_indices(g, outputs, n_outputs);
    s->n_outputs = n_outputs;
    for (uint32_t i = 0; i < n_inputs; i++)
        if (inputs[i] >= 0 && (uint32_t)inputs[i] < s->n_tensors)
            g->tensors[s->tensor_base + (uint32_t)inputs[i]].flags |= TA_TENSOR_INPUT;
    for (uint32_t i = 0; i < n_outputs; i++)
        if (outputs[i] >= 0 && (uint32_t)outputs[i] < s->n_tensors)
            g->tensors[s->tensor_base + (uint32_t)outputs[i]].flags |= TA_TENSOR_OUTPUT;
    return TA_OK;
}

const ta_tensor *ta_graph_tensor(const ta_graph *g, uint32_t sg, int32_t local) {
    if (!g || sg >= g->n_subgraphs || local < 0) return NULL;
    const ta_subgraph *s = &g->subgraphs[sg];
    if ((uint32_t)local >= s->n_tensors) return NULL;
    return &g->tensors[s->tensor_base + (uint32_t)local];
}

const ta_op *ta_graph_op(const ta_graph *g, uint32_t sg, uint32_t local) {
    if (!g || sg >= g->n_subgraphs) return NULL;
    const ta_subgraph *s = &g->subgraphs[sg];
    if (local >= s->n_ops) return NULL;
    return &g->ops[s->op_base + local];
}

static ta_status check_list(const ta_subgraph *s, uint32_t sg, const char *what, int32_t op,
                            const int32_t *idx, uint32_t n, bool allow_absent, ta_diag *d) {
    for (uint32_t i = 0; i < n; i++) {
        int32_t t = idx[i];
        if (t == -1 && allow_absent) continue;
        if (t < 0 || (uint32_t)t >= s->n_tensors) {
            if (op >= 0)
                return ta_diag_set(d, TA_E_MALFORMED,
                                   "subgraph %u op %d: %s %u refers to tensor %d of %u", sg, op,
                                   what, i, t, s->n_tensors);
            return ta_diag_set(d, TA_E_MALFORMED, "subgraph %u: %s %u refers to tensor %d of %u",
                               sg, what, i, t, s->n_tensors);
        }
    }
    return TA_OK;
}

/* ---- structural validation ------------------------------------------------ */

static const char *op_name(const ta_op *op) {
    return (op->kind == TA_OP_CUSTOM || op->kind == TA_OP_OTHER) && op->custom_name ? op->custom_name
                                                                                    : ta_op_kind_str(op->kind);
}

static bool is_control_flow(ta_op_kind k) {
    return k == TA_OP_IF || k == TA_OP_WHILE || k == TA_OP_CALL_ONCE || k == TA_OP_CALL;
}

/* Ops that legitimately have no output: CALL_ONCE (runs the init subgraph
 * of resource variables) and ASSIGN_VARIABLE (stores into one); both are
 * TFLite builtins that exist only for their effect on resource variables. */
static bool may_have_no_output(const ta_op *op) {
    return op->kind == TA_OP_CALL_ONCE || op->kind == TA_OP_ASSIGN_VARIABLE ||
           (op->kind == TA_OP_OTHER && op->custom_name && strcmp(op->custom_name, "ASSIGN_VARIABLE") == 0);
}

/* Index ranges of every list of subgraph sg, and the references of its
 * control-flow ops: each names another existing subgraph explicitly (an IF
 * or WHILE needs both, CALL and CALL_ONCE one; TFLM would take a missing
 * index as 0, i.e. often the op's own subgraph). */
static ta_status check_ranges(const ta_graph *g, uint32_t sg, ta_diag *d) {
    const ta_subgraph *s = &g->subgraphs[sg];
    ta_status st = check_list(s, sg, "input", -1, s->inputs, s->n_inputs, false, d);
    if (!st) st = check_list(s, sg, "output", -1, s->outputs, s->n_outputs, false, d);
    if (st) return st;
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        st = check_list(s, sg, "input", (int32_t)k, op->inputs, op->n_inputs, true, d);
        if (!st) st = check_list(s, sg, "output", (int32_t)k, op->outputs, op->n_outputs, false, d);
        if (!st)
            st = check_list(s, sg, "intermediate", (int32_t)k, op->intermediates, op->n_intermediates, true, d);
        if (st) return st;
        if (!is_control_flow(op->kind)) continue;
        const int32_t refs[2] = {op->opt.subgraph_a, op->opt.subgraph_b};
        const int needed = op->kind == TA_OP_IF || op->kind == TA_OP_WHILE ? 2 : 1;
        for (int r = 0; r < 2; r++) {
            if (refs[r] == -1 && r >= needed) continue;
            if (refs[r] == -1)
                return ta_diag_set(d, TA_E_MALFORMED,
                                   "subgraph %u op %u (%s): names no %s subgraph (absent options would "
                                   "default to subgraph 0)",
                                   sg, k, ta_op_kind_str(op->kind),
                                   op->kind == TA_OP_IF ? (r ? "else" : "then")
                                   : op->kind == TA_OP_WHILE ? (r ? "body" : "cond")
                                                             : "target");
            if (refs[r] < 0 || (uint32_t)refs[r] >= g->n_subgraphs || (uint32_t)refs[r] == sg)
                return ta_diag_set(d, TA_E_MALFORMED, "subgraph %u op %u (%s): refers to subgraph %d of %u", sg,
                                   k, ta_op_kind_str(op->kind), refs[r], g->n_subgraphs);
        }
    }
    return TA_OK;
}

/* Internal flag, set only inside check_dataflow and cleared before it
 * returns: the tensor has been written by an op already walked. */
#define WRITTEN_ 0x40000000u

/* A tensor an op may read without an earlier op writing it: a constant, a
 * variable (state the runtime keeps), or a subgraph input. */
static bool given(const ta_tensor *t) {
    return (t->flags & (TA_TENSOR_CONST | TA_TENSOR_VARIABLE | TA_TENSOR_INPUT)) || t->data;
}

/* The first op of [from, to) of subgraph s that lists tensor t as an output, or -1. */
static int32_t writer_in(const ta_graph *g, const ta_subgraph *s, int32_t t, uint32_t from, uint32_t to) {
    for (uint32_t k = from; k < to; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        for (uint32_t j = 0; j < op->n_outputs; j++)
            if (op->outputs[j] == t) return (int32_t)k;
    }
    return -1;
}

/* Dataflow of subgraph sg, one pass in execution order: an op's inputs must
 * be given (above) or written by an earlier op, then its outputs become
 * written.  With exactly one writer per tensor, "no read before the write"
 * in execution order is the same as "the ops form a DAG and the order is
 * topological": a cycle always has an op reading a tensor that a later op
 * (or itself) writes.  Constants and variables are never written by an op:
 * a constant's bytes are the model's (flash on a target), a variable is
 * state that only the ops owning it (LSTM, SVDF) update, and they take it
 * as an input.  The only memory is one flag bit per tensor, in the graph's
 * own tensor table (the earlier writer, for a message, is searched for on
 * the error path only). */
static ta_status dataflow(const ta_graph *g, uint32_t sg, ta_tensor *ts, ta_diag *d) {
    const ta_subgraph *s = &g->subgraphs[sg];
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        if (op->n_outputs == 0 && !may_have_no_output(op))
            return ta_diag_set(d, TA_E_MALFORMED, "subgraph %u op %u (%s): has no output", sg, k, op_name(op));
        for (uint32_t j = 0; j < op->n_inputs; j++) {
            const int32_t t = op->inputs[j];
            if (t < 0 || given(&ts[t]) || (ts[t].flags & WRITTEN_)) continue;
            const ta_tensor *tt = &ts[t];
            if (writer_in(g, s, t, k, k + 1) >= 0)
                return ta_diag_set(d, TA_E_MALFORMED, "subgraph %u op %u (%s): input %u is its own output tensor %d '%s'",
                                   sg, k, op_name(op), j, t, tt->name);
            const int32_t later = writer_in(g, s, t, k + 1, s->n_ops);
            if (later >= 0)
                return ta_diag_set(d, TA_E_MALFORMED,
                                   "subgraph %u op %u (%s): input %u is tensor %d '%s', written only later by op %d "
                                   "(a cycle, or ops out of order)",
                                   sg, k, op_name(op), j, t, tt->name, later);
            /* A custom op's unwritten input is its own work memory: Vela's
             * ethos-u op takes its NPU scratch as inputs that nothing
             * writes, and TFLM plans them like any tensor. */
            if (op->kind == TA_OP_CUSTOM) continue;
            return ta_diag_set(d, TA_E_MALFORMED,
                               "subgraph %u op %u (%s): input %u is tensor %d '%s', which no op writes and which is "
                               "neither a constant, a variable nor a subgraph input",
                               sg, k, op_name(op), j, t, tt->name);
        }
        for (uint32_t j = 0; j < op->n_outputs; j++) {
            const int32_t t = op->outputs[j];
            ta_tensor *tt = &ts[t];
            if (tt->flags & TA_TENSOR_CONST || tt->data)
                return ta_diag_set(d, TA_E_MALFORMED,
                                   "subgraph %u op %u (%s): output %u is constant tensor %d '%s' (it would write "
                                   "into the model)",
                                   sg, k, op_name(op), j, t, tt->name);
            if (tt->flags & TA_TENSOR_VARIABLE)
                return ta_diag_set(d, TA_E_MALFORMED,
                                   "subgraph %u op %u (%s): output %u is variable tensor %d '%s' (state is an input "
                                   "of the op that updates it)",
                                   sg, k, op_name(op), j, t, tt->name);
            if (tt->flags & TA_TENSOR_INPUT)
                return ta_diag_set(d, TA_E_MALFORMED, "subgraph %u op %u (%s): output %u is tensor %d '%s', an input of the subgraph",
                                   sg, k, op_name(op), j, t, tt->name);
            if (tt->flags & WRITTEN_)
                return ta_diag_set(d, TA_E_MALFORMED,
                                   "subgraph %u op %u (%s): output %u is tensor %d '%s', already written by op %d",
                                   sg, k, op_name(op), j, t, tt->name, writer_in(g, s, t, 0, k + 1));
            tt->flags |= WRITTEN_;
        }
    }
    for (uint32_t i = 0; i < s->n_outputs; i++) {
        const int32_t t = s->outputs[i];
        if (!given(&ts[t]) && !(ts[t].flags & WRITTEN_))
            return ta_diag_set(d, TA_E_MALFORMED, "subgraph %u: output %u is tensor %d '%s', which no op writes", sg, i,
                               t, ts[t].name);
    }
    return TA_OK;
}

static ta_status check_dataflow(const ta_graph *g, uint32_t sg, ta_diag *d) {
    const ta_subgraph *s = &g->subgraphs[sg];
    /* the graph is const to the caller; the flag bit is validation's own
     * scratch and is gone again when this returns */
    ta_tensor *ts = g->tensors + s->tensor_base;
    for (uint32_t t = 0; t < s->n_tensors; t++) ts[t].flags &= ~WRITTEN_;
    const ta_status st = dataflow(g, sg, ts, d);
    for (uint32_t t = 0; t < s->n_tensors; t++) ts[t].flags &= ~WRITTEN_;
    return st;
}

/* Control flow without recursion: the subgraph call graph (an edge for
 * every subgraph a control-flow op names) has no cycle.  An iterative
 * depth-first walk, O(subgraphs + ops): walk_[2 sg] is the state (0 new,
 * 1 on the path, 2 done) and the caller (+ 3 << 2), walk_[2 sg + 1] the next
 * reference to follow (2 per op). */
static ta_status check_calls(const ta_graph *g, ta_diag *d) {
    uint32_t *w = g->walk_;
    if (g->n_subgraphs < 2) return TA_OK; /* references to itself were refused already */
    if (!w) return ta_diag_set(d, TA_E_STATE, "graph has no validation table (not made by ta_graph_init)");
    for (uint32_t sg = 0; sg < g->n_subgraphs; sg++) w[2 * sg] = w[2 * sg + 1] = 0;
    for (uint32_t root = 0; root < g->n_subgraphs; root++) {
        if (w[2 * root] & 3u) continue;
        w[2 * root] = 1u | (root << 2);
        uint32_t cur = root;
        for (;;) {
            const ta_subgraph *s = &g->subgraphs[cur];
            uint32_t next = UINT32_MAX;
            while (w[2 * cur + 1] < 2u * s->n_ops && next == UINT32_MAX) {
                const uint32_t r = w[2 * cur + 1]++;
                const ta_op *op = &g->ops[s->op_base + r / 2];
                if (!is_control_flow(op->kind)) continue;
                const int32_t ref = r % 2 ? op->opt.subgraph_b : op->opt.subgraph_a;
                if (ref < 0) continue;
                const uint32_t st = w[2 * (uint32_t)ref] & 3u;
                if (st == 1u)
                    return ta_diag_set(d, TA_E_MALFORMED,
                                       "subgraph %u op %u (%s): calls subgraph %d, which is already running "
                                       "(recursion)",
                                       cur, r / 2, ta_op_kind_str(op->kind), ref);
                if (st == 0u) next = (uint32_t)ref;
            }
            if (next != UINT32_MAX) {
                w[2 * next] = 1u | (cur << 2);
                cur = next;
                continue;
            }
            const uint32_t parent = w[2 * cur] >> 2;
            w[2 * cur] = 2u | (parent << 2);
            if (cur == root) break;
            cur = parent;
        }
    }
    return TA_OK;
}

ta_status ta_graph_validate(const ta_graph *g, ta_diag *d) {
    if (!g) return TA_E_INVALID_ARG;
    if (g->n_subgraphs > (UINT32_MAX >> 2)) return ta_diag_set(d, TA_E_OVERFLOW, "too many subgraphs");
    ta_status st;
    for (uint32_t sg = 0; sg < g->n_subgraphs; sg++)
        if ((st = check_ranges(g, sg, d))) return st;
    for (uint32_t sg = 0; sg < g->n_subgraphs; sg++)
        if ((st = check_dataflow(g, sg, d))) return st;
    return check_calls(g, d);
}
