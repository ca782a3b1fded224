/*
 * TFLite model -> graph IR.
 *
 * One walker does both phases.  ta_tflite_open() runs it with no graph: it
 * verifies every table, vector and string the import will touch, applies the
 * schema's rules (indices in range, known types and enums, sizes that do
 * not overflow) and counts what the graph will need.  ta_tflite_import()
 * runs the very same walker with a graph, adding tensors and ops as it goes.
 * Because both runs make the same reads and the same decisions, a model that
 * opened cannot fail the import on bounds or format, and there is only one
 * copy of every check.
 *
 * Walk order (each step needs the counts of the ones before it):
 *   1. header, root table, schema version;
 *   2. the top-level vectors (operator codes, subgraphs, buffers, metadata)
 *      and the description;
 *   3. every buffer (inline data vector, or external offset/size);
 *   4. every operator code (effective code = max of the two code fields);
 *   5. every subgraph: its tensors, its io lists, its operators;
 *   6. every metadata entry, and the OfflineMemoryAllocation table.
 *
 * Work: the FlatBuffers layer charges one unit per table it opens, and the
 * walker charges one per element of each scalar vector it iterates, against
 * a budget of 2 units per file byte (+4096).  The 30 real models spend at
 * most 0.07 units per byte (every table and element of an honest file
 * occupies at least 4 bytes of its own); only aliased offsets can spend
 * more, and those are cut off in time linear in the file size.
 */
#include <string.h>

#include "common/util.h"
#include "tflite/fb.h"
#include "tflite/schema_ids.h"
#include "tinyarena/tflite.h"

#define OFFLINE_METADATA_NAME "OfflineMemoryAllocation"

typedef enum {
    CTX_MODEL,
    CTX_OPCODE,
    CTX_BUFFER,
    CTX_SUBGRAPH,
    CTX_TENSOR,
    CTX_OP,
    CTX_METADATA
} ctx_kind;

/* Walker state. */
typedef struct rd {
    ta_fb fb;
    ta_graph *g; /* NULL while verifying and counting */
    ta_diag *d;
    ta_diag ctx_buf; /* holds the "tensor 3 of subgraph 0" prefix */
    ctx_kind ck;
    uint32_t ci, cs;
    uint32_t version;
    ta_fb_vec opcodes, subgraphs, buffers, metadata;
    const char *description;
    uint64_t n_tensors, n_ops, n_indices, n_dims, n_words, const_bytes;
    const int32_t *offline;
    uint32_t offline_count;
} rd;

/* ---- diagnostics ------------------------------------------------------ */

static const char *ctx(rd *r) {
    switch (r->ck) {
    case CTX_MODEL: return "model";
    case CTX_OPCODE: ta_diag_set(&r->ctx_buf, TA_OK, "operator code %u", r->ci); break;
    case CTX_BUFFER: ta_diag_set(&r->ctx_buf, TA_OK, "buffer %u", r->ci); break;
    case CTX_SUBGRAPH: ta_diag_set(&r->ctx_buf, TA_OK, "subgraph %u", r->ci); break;
    case CTX_TENSOR: ta_diag_set(&r->ctx_buf, TA_OK, "tensor %u of subgraph %u", r->ci, r->cs); break;
    case CTX_OP: ta_diag_set(&r->ctx_buf, TA_OK, "op %u of subgraph %u", r->ci, r->cs); break;
    case CTX_METADATA: ta_diag_set(&r->ctx_buf, TA_OK, "metadata %u", r->ci); break;
    }
    return r->ctx_buf.msg;
}

static void set_ctx(rd *r, ctx_kind k, uint32_t i, uint32_t s) {
    r->ck = k;
    r->ci = i;
    r->cs = s;
}

/* A FlatBuffers-level failure of the field `what` in the current object. */
static ta_status bad(rd *r, const char *what) {
    if (strcmp(r->fb.why, TA_FB_WORK_EXCEEDED) == 0)
        return ta_diag_set(r->d, TA_E_MALFORMED,
                           "%s: %s: work limit of %llu units exceeded (file %zu bytes; aliased "
                           "offsets?)",
                           ctx(r), what, (unsigned long long)r->fb.work_limit, r->fb.len);
    return ta_diag_set(r->d, TA_E_MALFORMED, "%s: %s: %s (offset %llu, file %zu bytes)", ctx(r),
                       what, r->fb.why, (unsigned long long)r->fb.at, r->fb.len);
}

#define FB(call, what)                          \
    do {                                        \
        if (!(call)) return bad(r, (what));     \
    } while (0)

#define TRY(call)                               \
    do {                                        \
        ta_status st_ = (call);                 \
        if (st_ != TA_OK) return st_;           \
    } while (0)

/* A failure of a graph call while importing (only capacity can fail). */
static ta_status graph_fail(rd *r, ta_status st, const char *what) {
    if (st == TA_E_NO_MEMORY)
        return ta_diag_set(r->d, st, "%s: graph capacity too small for the %s (size it with "
                                     "ta_tflite_graph_limits)", ctx(r), what);
    return ta_diag_set(r->d, st, "%s: adding the %s to the graph failed: %s", ctx(r), what,
                       ta_status_str(st));
}

/* ---- small mappings ---------------------------------------------------- */

static bool map_type(int v, ta_dtype *out) {
    static const ta_dtype k[TFL_TYPE_COUNT] = {
        [TFL_TYPE_FLOAT32] = TA_DTYPE_FLOAT32,   [TFL_TYPE_FLOAT16] = TA_DTYPE_FLOAT16,
        [TFL_TYPE_INT32] = TA_DTYPE_INT32,       [TFL_TYPE_UINT8] = TA_DTYPE_UINT8,
        [TFL_TYPE_INT64] = TA_DTYPE_INT64,       [TFL_TYPE_STRING] = TA_DTYPE_STRING,
        [TFL_TYPE_BOOL] = TA_DTYPE_BOOL,         [TFL_TYPE_INT16] = TA_DTYPE_INT16,
        [TFL_TYPE_COMPLEX64] = TA_DTYPE_COMPLEX64, [TFL_TYPE_INT8] = TA_DTYPE_INT8,
        [TFL_TYPE_FLOAT64] = TA_DTYPE_FLOAT64,   [TFL_TYPE_COMPLEX128] = TA_DTYPE_COMPLEX128,
        [TFL_TYPE_UINT64] = TA_DTYPE_UINT64,     [TFL_TYPE_RESOURCE] = TA_DTYPE_RESOURCE,
        [TFL_TYPE_VARIANT] = TA_DTYPE_VARIANT,   [TFL_TYPE_UINT32] = TA_DTYPE_UINT32,
        [TFL_TYPE_UINT16] = TA_DTYPE_UINT16,     [TFL_TYPE_INT4] = TA_DTYPE_INT4,
    };
    if (v < 0 || v >= TFL_TYPE_COUNT) return false;
    *out = k[v];
    return true;
}

static ta_op_kind map_kind(int32_t code) {
    switch (code) {
    case TFL_OP_ADD: return TA_OP_ADD;
    case TFL_OP_SUB: return TA_OP_SUB;
    case TFL_OP_MUL: return TA_OP_MUL;
    case TFL_OP_DIV: return TA_OP_DIV;
    case TFL_OP_AVERAGE_POOL_2D: return TA_OP_AVERAGE_POOL_2D;
    case TFL_OP_MAX_POOL_2D: return TA_OP_MAX_POOL_2D;
    case TFL_OP_CONCATENATION: return TA_OP_CONCATENATION;
    case TFL_OP_CONV_2D: return TA_OP_CONV_2D;
    case TFL_OP_DEPTHWISE_CONV_2D: return TA_OP_DEPTHWISE_CONV_2D;
    case TFL_OP_TRANSPOSE_CONV: return TA_OP_TRANSPOSE_CONV;
    case TFL_OP_FULLY_CONNECTED: return TA_OP_FULLY_CONNECTED;
    case TFL_OP_BATCH_MATMUL: return TA_OP_BATCH_MATMUL;
    case TFL_OP_DEQUANTIZE: return TA_OP_DEQUANTIZE;
    case TFL_OP_QUANTIZE: return TA_OP_QUANTIZE;
    case TFL_OP_RESHAPE: return TA_OP_RESHAPE;
    case TFL_OP_SQUEEZE: return TA_OP_SQUEEZE;
    case TFL_OP_EXPAND_DIMS: return TA_OP_EXPAND_DIMS;
    case TFL_OP_SOFTMAX: return TA_OP_SOFTMAX;
    case TFL_OP_LOGISTIC: return TA_OP_LOGISTIC;
    case TFL_OP_TANH: return TA_OP_TANH;
    case TFL_OP_RELU: return TA_OP_RELU;
    case TFL_OP_RELU6: return TA_OP_RELU6;
    case TFL_OP_RELU_N1_TO_1: return TA_OP_RELU_N1_TO_1;
    case TFL_OP_LEAKY_RELU: return TA_OP_LEAKY_RELU;
    case TFL_OP_HARD_SWISH: return TA_OP_HARD_SWISH;
    case TFL_OP_PRELU: return TA_OP_PRELU;
    case TFL_OP_PAD: return TA_OP_PAD;
    case TFL_OP_PADV2: return TA_OP_PADV2;
    case TFL_OP_MIRROR_PAD: return TA_OP_MIRROR_PAD;
    case TFL_OP_TRANSPOSE: return TA_OP_TRANSPOSE;
    case TFL_OP_MEAN: return TA_OP_MEAN;
    case TFL_OP_SUM: return TA_OP_SUM;
    case TFL_OP_REDUCE_MAX: return TA_OP_REDUCE_MAX;
    case TFL_OP_STRIDED_SLICE: return TA_OP_STRIDED_SLICE;
    case TFL_OP_SLICE: return TA_OP_SLICE;
    case TFL_OP_SPLIT: return TA_OP_SPLIT;
    case TFL_OP_SPLIT_V: return TA_OP_SPLIT_V;
    case TFL_OP_PACK: return TA_OP_PACK;
    case TFL_OP_UNPACK: return TA_OP_UNPACK;
    case TFL_OP_GATHER: return TA_OP_GATHER;
    case TFL_OP_RESIZE_BILINEAR: return TA_OP_RESIZE_BILINEAR;
    case TFL_OP_RESIZE_NEAREST_NEIGHBOR: return TA_OP_RESIZE_NEAREST_NEIGHBOR;
    case TFL_OP_ARG_MAX: return TA_OP_ARG_MAX;
    case TFL_OP_ARG_MIN: return TA_OP_ARG_MIN;
    case TFL_OP_CAST: return TA_OP_CAST;
    case TFL_OP_SHAPE: return TA_OP_SHAPE;
    case TFL_OP_LOG: return TA_OP_LOG;
    case TFL_OP_EXP: return TA_OP_EXP;
    case TFL_OP_SQRT: return TA_OP_SQRT;
    case TFL_OP_RSQRT: return TA_OP_RSQRT;
    case TFL_OP_SQUARE: return TA_OP_SQUARE;
    case TFL_OP_ABS: return TA_OP_ABS;
    case TFL_OP_NEG: return TA_OP_NEG;
    case TFL_OP_MINIMUM: return TA_OP_MINIMUM;
    case TFL_OP_MAXIMUM: return TA_OP_MAXIMUM;
    case TFL_OP_SVDF: return TA_OP_SVDF;
    case TFL_OP_UNIDIRECTIONAL_SEQUENCE_LSTM: return TA_OP_LSTM;
    case TFL_OP_IF: return TA_OP_IF;
    case TFL_OP_WHILE: return TA_OP_WHILE;
    case TFL_OP_CALL_ONCE: return TA_OP_CALL_ONCE;
    case TFL_OP_CALL: return TA_OP_CALL;
    default: return TA_OP_OTHER;
    }
}

/* Alignment promised for constant data of type t: its element size, capped
 * at 4.  Inline buffers are always 4-aligned (the data follows a u32 count);
 * 8-byte types can sit at 4 mod 8 in real files (TFLM's own seanet
 * transpose_conv0 has an int64 buffer at offset 84), so readers of int64 /
 * float64 data must not assume more than 4. */
static size_t data_align(ta_dtype t) {
    size_t s = ta_dtype_size(t);
    return s == 0 ? 1 : (s > 4 ? 4 : s);
}

static bool aligned(const void *p, size_t a) { return ((uintptr_t)p % a) == 0; }

/* ---- buffers ------------------------------------------------------------ */

/* Data of buffer `idx` (verified against n_buffers by the caller): the
 * inline `data` vector, or for large models the external range
 * [offset, offset + size) of the file when offset > 1 (the schema's rule:
 * offsets 0 and 1 are sentinels for "not used").  walk_buffers() checks
 * every buffer first, in its own context, so later calls from a tensor or a
 * metadata entry cannot fail. */
static ta_status buffer_data(rd *r, uint32_t idx, const uint8_t **data, size_t *bytes) {
    ta_fb_table b;
    ta_fb_vec v;
    uint64_t off, size;
    *data = NULL;
    *bytes = 0;
    FB(ta_fb_vec_table(&r->fb, &r->buffers, idx, &b), "buffer table");
    FB(ta_fb_vector(&r->fb, &b, TFL_BUFFER_DATA, 1, &v), "buffer data");
    FB(ta_fb_u64(&r->fb, &b, TFL_BUFFER_OFFSET, 0, &off), "buffer offset");
    FB(ta_fb_u64(&r->fb, &b, TFL_BUFFER_SIZE, 0, &size), "buffer size");
    if (off > 1) {
        if (v.n)
            return ta_diag_set(r->d, TA_E_MALFORMED,
                               "%s: both inline data and an external offset", ctx(r));
        if (size > r->fb.len || off > r->fb.len - size)
            return ta_diag_set(r->d, TA_E_MALFORMED,
                               "%s: external data out of bounds (offset %llu, size %llu, file "
                               "%zu bytes)",
                               ctx(r), (unsigned long long)off, (unsigned long long)size,
                               r->fb.len);
        if (size) {
            *data = r->fb.p + off;
            *bytes = (size_t)size;
        }
        return TA_OK;
    }
    if (v.n) {
        *data = r->fb.p + v.pos;
        *bytes = v.n;
    }
    return TA_OK;
}

static ta_status walk_buffers(rd *r) {
    for (uint32_t i = 0; i < r->buffers.n; i++) {
        const uint8_t *data;
        size_t bytes;
        set_ctx(r, CTX_BUFFER, i, 0);
        TRY(buffer_data(r, i, &data, &bytes));
    }
    return TA_OK;
}

/* ---- operator codes --------------------------------------------------- */

typedef struct opcode {
    int32_t code;            /* effective builtin code */
    int32_t version;
    const char *custom_code; /* NULL when absent */
} opcode;

/* Reads operator code `i`.  The effective code is the larger of the int8
 * deprecated_builtin_code and the int32 builtin_code: old writers fill only
 * the first, new ones write 127 (PLACEHOLDER_FOR_GREATER_OP_CODES) there for
 * codes above 126 and the real code in the second. */
static ta_status read_opcode(rd *r, uint32_t i, opcode *oc) {
    ta_fb_table t;
    int8_t dep;
    int32_t code;
    FB(ta_fb_vec_table(&r->fb, &r->opcodes, i, &t), "operator code table");
    FB(ta_fb_i8(&r->fb, &t, TFL_OPCODE_DEPRECATED_BUILTIN_CODE, 0, &dep), "deprecated_builtin_code");
    FB(ta_fb_i32(&r->fb, &t, TFL_OPCODE_BUILTIN_CODE, 0, &code), "builtin_code");
    FB(ta_fb_i32(&r->fb, &t, TFL_OPCODE_VERSION, 1, &oc->version), "version");
    FB(ta_fb_string(&r->fb, &t, TFL_OPCODE_CUSTOM_CODE, &oc->custom_code, NULL), "custom_code");
    oc->code = TA_MAX((int32_t)dep, code);
    if (oc->code < 0)
        return ta_diag_set(r->d, TA_E_MALFORMED, "operator code %u: negative builtin code %d", i,
                           oc->code);
    if (oc->code == TFL_OP_CUSTOM && !oc->custom_code)
        return ta_diag_set(r->d, TA_E_MALFORMED, "operator code %u: CUSTOM without custom_code", i);
    return TA_OK;
}

static ta_status walk_opcodes(rd *r) {
    for (uint32_t i = 0; i < r->opcodes.n; i++) {
        opcode oc;
        set_ctx(r, CTX_OPCODE, i, 0);
        TRY(read_opcode(r, i, &oc));
    }
    return TA_OK;
}

/* ---- tensors ------------------------------------------------------------ */

/* Reads an int32 index vector and checks every entry is in [lo, n). */
static ta_status index_list(rd *r, const ta_fb_table *t, unsigned slot, const char *what,
                            int32_t lo, uint32_t n, ta_fb_vec *v) {
    FB(ta_fb_vector(&r->fb, t, slot, 4, v), what);
    FB(ta_fb_charge(&r->fb, v->n), what);
    for (uint32_t i = 0; i < v->n; i++) {
        int32_t x = ta_fb_vec_i32(&r->fb, v, i);
        if (x < lo || (x >= 0 && (uint32_t)x >= n))
            return ta_diag_set(r->d, TA_E_MALFORMED, "%s: %s %u refers to tensor %d of %u", ctx(r),
                               what, i, x, n);
    }
    return TA_OK;
}

static ta_status read_quant(rd *r, const ta_fb_table *t, int32_t rank, const int32_t *shape,
                            ta_quant *q) {
    ta_fb_table qt;
    bool present;
    ta_fb_vec scale, zp;
    int32_t axis;
    memset(q, 0, sizeof *q);
    FB(ta_fb_table_field(&r->fb, t, TFL_TENSOR_QUANTIZATION, &qt, &present), "quantization");
    if (!present) return TA_OK;
    FB(ta_fb_vector(&r->fb, &qt, TFL_QUANT_SCALE, 4, &scale), "quantization scale");
    FB(ta_fb_vector(&r->fb, &qt, TFL_QUANT_ZERO_POINT, 8, &zp), "quantization zero_point");
    FB(ta_fb_i32(&r->fb, &qt, TFL_QUANT_QUANTIZED_DIMENSION, 0, &axis), "quantized_dimension");
    if (scale.n == 0) return TA_OK; /* min/max only, or custom details: not affine */
    if (zp.n != 0 && zp.n != scale.n)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: %u zero points for %u scales", ctx(r), zp.n,
                           scale.n);
    if (scale.n > 1) {
        /* Old TOCO files give 1-D per-channel bias tensors the filter's
         * quantized_dimension (3).  A rank-1 tensor has one possible axis,
         * so take 0 when the count matches; any other axis outside the
         * rank is an error. */
        if ((axis < 0 || axis >= rank) && rank == 1 && shape[0] >= 0 &&
            (uint32_t)shape[0] == scale.n)
            axis = 0;
        if (axis < 0 || axis >= rank)
            return ta_diag_set(r->d, TA_E_MALFORMED,
                               "%s: quantized_dimension %d outside rank %d", ctx(r), axis, rank);
        if (shape[axis] >= 0 && (uint32_t)shape[axis] != scale.n)
            return ta_diag_set(r->d, TA_E_MALFORMED,
                               "%s: %u scales for dimension %d of size %d", ctx(r), scale.n, axis,
                               shape[axis]);
    }
    /* Per-tensor: the axis means nothing; keep the IR's promise that it is
     * a dimension index (or 0). */
    if (scale.n == 1 && (axis < 0 || axis >= TA_MAX(rank, 1))) axis = 0;
    q->count = scale.n;
    q->scale = (const float *)ta_fb_vec_data(&r->fb, &scale);
    q->zero_point = NULL;
    if (zp.n && zp.aligned) {
        q->zero_point = (const int64_t *)ta_fb_vec_data(&r->fb, &zp);
    } else if (zp.n) {
        /* Converters may leave the int64 vector at 4 mod 8 and TFLM reads
         * it; the IR promises an aligned int64_t pointer, so copy the bytes
         * into the graph (counted while opening, see n_words). */
        r->n_words += zp.n;
        if (r->g) {
            const void *copy;
            ta_status st = ta_graph_copy_words(r->g, ta_fb_vec_data(&r->fb, &zp), (size_t)zp.n * 8u, &copy);
            if (st) return graph_fail(r, st, "zero points");
            q->zero_point = (const int64_t *)copy;
        }
    }
    q->axis = axis;
    /* The FlatBuffers layer aligned these relative to the file start and
     * open() checked the base; check the addresses anyway, the graph will
     * dereference them as float and int64_t. */
    if (!aligned(q->scale, 4) || (q->zero_point && !aligned(q->zero_point, 8)))
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: misaligned quantization arrays", ctx(r));
    return TA_OK;
}

static ta_status walk_tensor(rd *r, uint32_t sg, const ta_fb_vec *tensors, uint32_t i) {
    ta_fb_table t;
    ta_fb_vec shape, sig;
    ta_tensor_desc td;
    int32_t dims[TA_MAX_RANK];
    int8_t type;
    uint32_t buf;
    bool is_var, sparse;
    ta_fb_table sp;
    memset(&td, 0, sizeof td);
    set_ctx(r, CTX_TENSOR, i, sg);

    FB(ta_fb_vec_table(&r->fb, tensors, i, &t), "tensor table");
    FB(ta_fb_vector(&r->fb, &t, TFL_TENSOR_SHAPE, 4, &shape), "shape vector");
    if (shape.n > TA_MAX_RANK)
        return ta_diag_set(r->d, TA_E_UNSUPPORTED, "%s: rank %u exceeds %d", ctx(r), shape.n,
                           TA_MAX_RANK);
    FB(ta_fb_charge(&r->fb, shape.n), "shape vector");
    for (uint32_t k = 0; k < shape.n; k++) {
        dims[k] = ta_fb_vec_i32(&r->fb, &shape, k);
        if (dims[k] < -1)
            return ta_diag_set(r->d, TA_E_MALFORMED, "%s: dimension %u is %d", ctx(r), k, dims[k]);
    }
    td.rank = (int32_t)shape.n;
    td.shape = dims;

    FB(ta_fb_i8(&r->fb, &t, TFL_TENSOR_TYPE, 0, &type), "type");
    if (!map_type(type, &td.dtype))
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: unknown type %d", ctx(r), (int)type);

    FB(ta_fb_string(&r->fb, &t, TFL_TENSOR_NAME, &td.name, NULL), "name");
    if (!td.name) td.name = "";

    FB(ta_fb_bool(&r->fb, &t, TFL_TENSOR_IS_VARIABLE, false, &is_var), "is_variable");
    if (is_var) td.flags |= TA_TENSOR_VARIABLE;

    FB(ta_fb_table_field(&r->fb, &t, TFL_TENSOR_SPARSITY, &sp, &sparse), "sparsity");
    if (sparse)
        return ta_diag_set(r->d, TA_E_UNSUPPORTED, "%s: sparse tensors are not supported", ctx(r));

    /* shape_signature: same rank, -1 marks a dimension only known at run time. */
    FB(ta_fb_vector(&r->fb, &t, TFL_TENSOR_SHAPE_SIGNATURE, 4, &sig), "shape_signature");
    if (sig.present && sig.n != 0) {
        if (sig.n != shape.n)
            return ta_diag_set(r->d, TA_E_MALFORMED, "%s: shape_signature has %u dims, shape %u",
                               ctx(r), sig.n, shape.n);
        FB(ta_fb_charge(&r->fb, sig.n), "shape_signature");
        for (uint32_t k = 0; k < sig.n; k++) {
            int32_t s = ta_fb_vec_i32(&r->fb, &sig, k);
            if (s < -1)
                return ta_diag_set(r->d, TA_E_MALFORMED, "%s: shape_signature dimension %u is %d",
                                   ctx(r), k, s);
            if (s == -1) td.flags |= TA_TENSOR_DYNAMIC;
        }
    }

    TRY(read_quant(r, &t, td.rank, dims, &td.quant));

    /* Byte size exactly as ta_graph_add_tensor computes it, so an absurd
     * shape fails here (open) and never later (import). */
    uint64_t elems = 1;
    for (int32_t k = 0; k < td.rank; k++) {
        uint64_t dk = dims[k] < 0 ? 1u : (uint64_t)dims[k];
        if (dk && elems > UINT64_MAX / dk)
            return ta_diag_set(r->d, TA_E_MALFORMED, "%s: element count overflows", ctx(r));
        elems *= dk;
    }
    size_t bytes = 0;
    if (elems == UINT64_MAX || ta_dtype_bytes_for(td.dtype, elems, &bytes) == TA_E_OVERFLOW)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: byte size overflows", ctx(r));

    FB(ta_fb_u32(&r->fb, &t, TFL_TENSOR_BUFFER, 0, &buf), "buffer index");
    if (buf >= r->buffers.n)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: buffer index %u out of range (%u buffers)",
                           ctx(r), buf, r->buffers.n);
    const uint8_t *data;
    size_t data_bytes;
    TRY(buffer_data(r, buf, &data, &data_bytes));
    if (data_bytes) {
        if (!aligned(data, data_align(td.dtype)))
            return ta_diag_set(r->d, TA_E_MALFORMED,
                               "%s: constant data of buffer %u misaligned for %s (offset %zu)",
                               ctx(r), buf, ta_dtype_str(td.dtype), (size_t)(data - r->fb.p));
        /* Like TFLite's interpreter, insist the data is exactly what the
         * shape needs, so kernels reading it in place stay inside it.
         * INT4 data may be packed (two per byte) or one per byte. */
        if (ta_dtype_size(td.dtype) && data_bytes != bytes &&
            !(td.dtype == TA_DTYPE_INT4 && data_bytes == elems))
            return ta_diag_set(r->d, TA_E_MALFORMED,
                               "%s: buffer %u holds %zu bytes, the shape needs %zu", ctx(r), buf,
                               data_bytes, bytes);
        td.data = data;
        td.data_bytes = data_bytes;
        td.flags |= TA_TENSOR_CONST;
        r->const_bytes += data_bytes;
    }

    r->n_tensors++;
    r->n_dims += shape.n;
    if (r->g) {
        ta_status st = ta_graph_add_tensor(r->g, &td, NULL);
        if (st) return graph_fail(r, st, "tensor");
    }
    return TA_OK;
}

/* ---- operators ---------------------------------------------------------- */

static ta_status act(rd *r, uint8_t v, ta_activation *out) {
    static const ta_activation k[] = {
        [TFL_ACT_NONE] = TA_ACT_NONE,   [TFL_ACT_RELU] = TA_ACT_RELU,
        [TFL_ACT_RELU_N1_TO_1] = TA_ACT_RELU_N1_TO_1, [TFL_ACT_RELU6] = TA_ACT_RELU6,
        [TFL_ACT_TANH] = TA_ACT_TANH,   [TFL_ACT_SIGN_BIT] = TA_ACT_SIGN_BIT,
    };
    if (v >= sizeof k / sizeof k[0])
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: unknown activation %u", ctx(r), (unsigned)v);
    *out = k[v];
    return TA_OK;
}

static ta_status padding(rd *r, uint8_t v, ta_padding *out) {
    if (v == TFL_PADDING_SAME) *out = TA_PAD_SAME;
    else if (v == TFL_PADDING_VALID) *out = TA_PAD_VALID;
    else return ta_diag_set(r->d, TA_E_MALFORMED, "%s: unknown padding %u", ctx(r), (unsigned)v);
    return TA_OK;
}

static ta_status out_type(rd *r, int8_t v, ta_dtype *out) {
    if (!map_type(v, out))
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: unknown output type %d", ctx(r), (int)v);
    return TA_OK;
}

/* A subgraph index option: must name another subgraph of the model. */
static ta_status sg_ref(rd *r, int64_t v, uint32_t sg, int32_t *out) {
    if (v < 0 || v >= (int64_t)r->subgraphs.n || (uint64_t)v == sg)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: refers to subgraph %lld of %u", ctx(r),
                           (long long)v, r->subgraphs.n);
    *out = (int32_t)v;
    return TA_OK;
}

/* Shorthands for option fields (slot, default). */
#define O_U8(slot, def, dst) FB(ta_fb_u8(fb, o, (slot), (def), (dst)), "builtin options")
#define O_I8(slot, def, dst) FB(ta_fb_i8(fb, o, (slot), (def), (dst)), "builtin options")
#define O_I32(slot, def, dst) FB(ta_fb_i32(fb, o, (slot), (def), (dst)), "builtin options")
#define O_BOOL(slot, def, dst) FB(ta_fb_bool(fb, o, (slot), (def), (dst)), "builtin options")
#define O_F32(slot, def, dst) FB(ta_fb_f32(fb, o, (slot), (def), (dst)), "builtin options")
#define O_ACT(slot) do { uint8_t a_; O_U8((slot), 0, &a_); TRY(act(r, a_, &opt->activation)); } while (0)
#define O_PAD(slot) do { uint8_t p_; O_U8((slot), 0, &p_); TRY(padding(r, p_, &opt->padding)); } while (0)
#define O_TYPE(slot) do { int8_t t_; O_I8((slot), 0, &t_); TRY(out_type(r, t_, &opt->out_dtype)); } while (0)

/* Parses the option table `o` of union type `type` into opt.  The table
 * layout follows the union type (that is what the bytes are), whatever the
 * operator code says; fields absent from the table take the schema's
 * defaults.  Types the IR has no fields for are left alone. */
static ta_status parse_options(rd *r, uint8_t type, const ta_fb_table *o, uint32_t sg,
                               ta_op_options *opt) {
    ta_fb *fb = &r->fb;
    int32_t a, b;
    uint32_t u;
    switch (type) {
    case TFL_OPT_CONV2D:
        O_PAD(0);
        O_I32(1, 0, &opt->stride_w);
        O_I32(2, 0, &opt->stride_h);
        O_ACT(3);
        O_I32(4, 1, &opt->dilation_w);
        O_I32(5, 1, &opt->dilation_h);
        break;
    case TFL_OPT_DEPTHWISE_CONV2D:
        O_PAD(0);
        O_I32(1, 0, &opt->stride_w);
        O_I32(2, 0, &opt->stride_h);
        O_I32(3, 0, &opt->depth_multiplier);
        O_ACT(4);
        O_I32(5, 1, &opt->dilation_w);
        O_I32(6, 1, &opt->dilation_h);
        break;
    case TFL_OPT_POOL2D:
        O_PAD(0);
        O_I32(1, 0, &opt->stride_w);
        O_I32(2, 0, &opt->stride_h);
        O_I32(3, 0, &opt->filter_w);
        O_I32(4, 0, &opt->filter_h);
        O_ACT(5);
        break;
    case TFL_OPT_TRANSPOSE_CONV:
        O_PAD(0);
        O_I32(1, 0, &opt->stride_w);
        O_I32(2, 0, &opt->stride_h);
        O_ACT(3);
        break;
    case TFL_OPT_SVDF:
        O_I32(0, 0, &opt->rank);
        O_ACT(1);
        O_BOOL(2, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_RNN:
        O_ACT(0);
        O_BOOL(1, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_SEQUENCE_RNN:
        O_BOOL(0, false, &opt->time_major);
        O_ACT(1);
        O_BOOL(2, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_FULLY_CONNECTED: {
        uint8_t wf;
        O_ACT(0);
        O_U8(1, 0, &wf);
        opt->fc_weights_format = wf;
        O_BOOL(2, false, &opt->keep_dims);
        O_BOOL(3, false, &opt->asymmetric_quantize_inputs);
        break;
    }
    case TFL_OPT_SOFTMAX: O_F32(0, 0.0f, &opt->beta); break;
    case TFL_OPT_CONCATENATION:
        O_I32(0, 0, &opt->axis);
        O_ACT(1);
        break;
    case TFL_OPT_ADD:
    case TFL_OPT_SUB:
    case TFL_OPT_MUL:
    case TFL_OPT_DIV:
    case TFL_OPT_L2NORM: O_ACT(0); break;
    case TFL_OPT_LSTM:
        O_ACT(0);
        O_F32(1, 0.0f, &opt->cell_clip);
        O_F32(2, 0.0f, &opt->proj_clip);
        O_BOOL(4, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_UNIDIRECTIONAL_SEQUENCE_LSTM:
        O_ACT(0);
        O_F32(1, 0.0f, &opt->cell_clip);
        O_F32(2, 0.0f, &opt->proj_clip);
        O_BOOL(3, false, &opt->time_major);
        O_BOOL(4, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_BIDIRECTIONAL_SEQUENCE_LSTM:
        O_ACT(0);
        O_F32(1, 0.0f, &opt->cell_clip);
        O_F32(2, 0.0f, &opt->proj_clip);
        O_BOOL(4, true, &opt->time_major);
        O_BOOL(5, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_RESIZE_BILINEAR:
        O_BOOL(2, false, &opt->align_corners);
        O_BOOL(3, false, &opt->half_pixel_centers);
        break;
    case TFL_OPT_RESIZE_NEAREST_NEIGHBOR:
        O_BOOL(0, false, &opt->align_corners);
        O_BOOL(1, false, &opt->half_pixel_centers);
        break;
    case TFL_OPT_CALL:
        FB(ta_fb_u32(fb, o, 0, 0, &u), "builtin options");
        TRY(sg_ref(r, u, sg, &opt->subgraph_a));
        break;
    case TFL_OPT_RESHAPE: {
        ta_fb_vec ns;
        FB(ta_fb_vector(fb, o, 0, 4, &ns), "reshape new_shape");
        if (!ns.present) break;
        if (ns.n > TA_MAX_RANK)
            return ta_diag_set(r->d, TA_E_UNSUPPORTED, "%s: reshape new_shape of rank %u exceeds %d",
                               ctx(r), ns.n, TA_MAX_RANK);
        FB(ta_fb_charge(fb, ns.n), "reshape new_shape");
        for (uint32_t k = 0; k < ns.n; k++) opt->new_shape[k] = ta_fb_vec_i32(fb, &ns, k);
        opt->new_shape_rank = (int32_t)ns.n;
        break;
    }
    case TFL_OPT_GATHER:
    case TFL_OPT_ONE_HOT: O_I32(0, 0, &opt->axis); break;
    case TFL_OPT_REDUCER: O_BOOL(0, false, &opt->keep_dims); break;
    case TFL_OPT_STRIDED_SLICE:
        O_I32(0, 0, &opt->begin_mask);
        O_I32(1, 0, &opt->end_mask);
        O_I32(2, 0, &opt->ellipsis_mask);
        O_I32(3, 0, &opt->new_axis_mask);
        O_I32(4, 0, &opt->shrink_axis_mask);
        O_BOOL(5, false, &opt->offset);
        break;
    case TFL_OPT_SPLIT:
    case TFL_OPT_SPLIT_V: O_I32(0, 0, &opt->num); break;
    case TFL_OPT_CAST: O_TYPE(1); break;
    case TFL_OPT_ARG_MAX:
    case TFL_OPT_ARG_MIN:
    case TFL_OPT_SHAPE: O_TYPE(0); break;
    case TFL_OPT_PACK:
    case TFL_OPT_UNPACK:
        O_I32(0, 0, &opt->num);
        O_I32(1, 0, &opt->axis);
        break;
    case TFL_OPT_LEAKY_RELU: O_F32(0, 0.0f, &opt->alpha); break;
    case TFL_OPT_BATCH_MATMUL:
        O_BOOL(0, false, &opt->adj_x);
        O_BOOL(1, false, &opt->adj_y);
        O_BOOL(2, false, &opt->asymmetric_quantize_inputs);
        break;
    case TFL_OPT_IF:
    case TFL_OPT_WHILE:
        O_I32(0, 0, &a);
        O_I32(1, 0, &b);
        TRY(sg_ref(r, a, sg, &opt->subgraph_a));
        TRY(sg_ref(r, b, sg, &opt->subgraph_b));
        break;
    case TFL_OPT_CALL_ONCE:
        O_I32(0, 0, &a);
        TRY(sg_ref(r, a, sg, &opt->subgraph_a));
        break;
    default: break;
    }
    return TA_OK;
}

static ta_status walk_op(rd *r, uint32_t sg, const ta_fb_vec *ops, uint32_t k, uint32_t n_tensors) {
    ta_fb *fb = &r->fb;
    ta_fb_table t, o;
    ta_fb_vec in, out, inter, copt;
    uint32_t opcode_index;
    uint8_t opt_type;
    bool has_opt;
    uint64_t big_off, big_size;
    opcode oc;
    ta_op_desc od;
    ta_op_options opt = ta_op_options_default();
    memset(&od, 0, sizeof od);
    set_ctx(r, CTX_OP, k, sg);

    FB(ta_fb_vec_table(fb, ops, k, &t), "operator table");
    FB(ta_fb_u32(fb, &t, TFL_OP_OPCODE_INDEX, 0, &opcode_index), "opcode_index");
    if (opcode_index >= r->opcodes.n)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: opcode_index %u out of range (%u codes)",
                           ctx(r), opcode_index, r->opcodes.n);
    TRY(index_list(r, &t, TFL_OP_INPUTS, "input", -1, n_tensors, &in));
    TRY(index_list(r, &t, TFL_OP_OUTPUTS, "output", 0, n_tensors, &out));
    TRY(index_list(r, &t, TFL_OP_INTERMEDIATES, "intermediate", -1, n_tensors, &inter));

    FB(ta_fb_u8(fb, &t, TFL_OP_BUILTIN_OPTIONS_TYPE, 0, &opt_type), "builtin_options_type");
    FB(ta_fb_table_field(fb, &t, TFL_OP_BUILTIN_OPTIONS, &o, &has_opt), "builtin_options");
    if (has_opt && opt_type != TFL_OPT_NONE) TRY(parse_options(r, opt_type, &o, sg, &opt));

    /* Custom options: inline bytes, or for models over 2 GB an external
     * range of the file (offset > 1, like Buffer.offset). */
    FB(ta_fb_vector(fb, &t, TFL_OP_CUSTOM_OPTIONS, 1, &copt), "custom_options");
    FB(ta_fb_u64(fb, &t, TFL_OP_LARGE_CUSTOM_OPTIONS_OFFSET, 0, &big_off), "large_custom_options_offset");
    FB(ta_fb_u64(fb, &t, TFL_OP_LARGE_CUSTOM_OPTIONS_SIZE, 0, &big_size), "large_custom_options_size");
    if (big_off > 1) {
        if (copt.n)
            return ta_diag_set(r->d, TA_E_MALFORMED,
                               "%s: both inline and external custom options", ctx(r));
        if (big_size > fb->len || big_off > fb->len - big_size)
            return ta_diag_set(r->d, TA_E_MALFORMED,
                               "%s: external custom options out of bounds (offset %llu, size "
                               "%llu, file %zu bytes)",
                               ctx(r), (unsigned long long)big_off, (unsigned long long)big_size,
                               fb->len);
        if (big_size) {
            od.custom_data = fb->p + big_off;
            od.custom_data_bytes = (size_t)big_size;
        }
    } else if (copt.n) {
        od.custom_data = ta_fb_vec_data(fb, &copt);
        od.custom_data_bytes = copt.n;
    }

    TRY(read_opcode(r, opcode_index, &oc)); /* verified by walk_opcodes already */
    od.builtin_code = oc.code;
    od.version = oc.version;
    if (oc.code == TFL_OP_CUSTOM) {
        od.kind = TA_OP_CUSTOM;
        od.custom_name = oc.custom_code;
    } else {
        od.kind = map_kind(oc.code);
        if (od.kind == TA_OP_OTHER) {
            const char *nm = ta__tfl_builtin_name(oc.code);
            od.custom_name = nm ? nm : "UNKNOWN_BUILTIN";
        }
    }
    /* A control-flow op without an options table keeps subgraph_a/b = -1
     * ("none"), which ta_graph_validate accepts; any index given was checked
     * by parse_options.  The index lists are passed straight from the file:
     * they are 4-aligned little-endian int32 (checked) and the graph copies
     * them. */
    od.inputs = in.n ? (const int32_t *)ta_fb_vec_data(fb, &in) : NULL;
    od.n_inputs = in.n;
    od.outputs = out.n ? (const int32_t *)ta_fb_vec_data(fb, &out) : NULL;
    od.n_outputs = out.n;
    od.intermediates = inter.n ? (const int32_t *)ta_fb_vec_data(fb, &inter) : NULL;
    od.n_intermediates = inter.n;
    od.opt = &opt;

    r->n_ops++;
    r->n_indices += (uint64_t)in.n + out.n + inter.n;
    if (r->g) {
        ta_status st = ta_graph_add_op(r->g, &od, NULL);
        if (st) return graph_fail(r, st, "op");
    }
    return TA_OK;
}

/* ---- subgraphs ------------------------------------------------------------ */

static ta_status walk_subgraph(rd *r, uint32_t sg) {
    ta_fb *fb = &r->fb;
    ta_fb_table t;
    ta_fb_vec tensors, ops, in, out;
    const char *name;
    set_ctx(r, CTX_SUBGRAPH, sg, 0);
    FB(ta_fb_vec_table(fb, &r->subgraphs, sg, &t), "subgraph table");
    FB(ta_fb_string(fb, &t, TFL_SUBGRAPH_NAME, &name, NULL), "name");
    FB(ta_fb_vector(fb, &t, TFL_SUBGRAPH_TENSORS, 4, &tensors), "tensors");
    FB(ta_fb_vector(fb, &t, TFL_SUBGRAPH_OPERATORS, 4, &ops), "operators");
    if (tensors.n > 0x7fffffffu || ops.n > 0x7fffffffu)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: absurd tensor or operator count", ctx(r));
    TRY(index_list(r, &t, TFL_SUBGRAPH_INPUTS, "input", 0, tensors.n, &in));
    TRY(index_list(r, &t, TFL_SUBGRAPH_OUTPUTS, "output", 0, tensors.n, &out));
    r->n_indices += (uint64_t)in.n + out.n;

    if (r->g) {
        ta_status st = ta_graph_add_subgraph(r->g, name ? name : "", NULL);
        if (st) return graph_fail(r, st, "subgraph");
    }
    for (uint32_t i = 0; i < tensors.n; i++) TRY(walk_tensor(r, sg, &tensors, i));
    for (uint32_t k = 0; k < ops.n; k++) TRY(walk_op(r, sg, &ops, k, tensors.n));
    if (r->g) {
        set_ctx(r, CTX_SUBGRAPH, sg, 0);
        ta_status st = ta_graph_set_io(r->g, in.n ? (const int32_t *)ta_fb_vec_data(fb, &in) : NULL,
                                       in.n, out.n ? (const int32_t *)ta_fb_vec_data(fb, &out) : NULL,
                                       out.n);
        if (st) return graph_fail(r, st, "inputs and outputs");
    }
    return TA_OK;
}

/* ---- metadata ---------------------------------------------------------------- */

static ta_status read_metadata(rd *r, uint32_t i, const char **name, const uint8_t **data,
                               size_t *bytes) {
    ta_fb_table t;
    uint32_t buf;
    FB(ta_fb_vec_table(&r->fb, &r->metadata, i, &t), "metadata table");
    FB(ta_fb_string(&r->fb, &t, TFL_METADATA_NAME, name, NULL), "name");
    if (!*name) *name = "";
    FB(ta_fb_u32(&r->fb, &t, TFL_METADATA_BUFFER, 0, &buf), "buffer index");
    if (buf >= r->buffers.n)
        return ta_diag_set(r->d, TA_E_MALFORMED, "%s: buffer index %u out of range (%u buffers)",
                           ctx(r), buf, r->buffers.n);
    return buffer_data(r, buf, data, bytes);
}

/* Checks an OfflineMemoryAllocation table: int32 words [format version 0,
 * a subgraph word, n, then n offsets].  TFLM documents the second word as
 * "the subgraph index the allocation applies to", Vela writes the number
 * of subgraphs (1) there, and TFLM ignores it; so do we.  What TFLM does
 * check is that n equals the model's total tensor count, which makes the
 * offsets one per tensor of every subgraph, in order. */
static ta_status read_offline(rd *r, const uint8_t *data, size_t bytes) {
    if (bytes < 12 || !aligned(data, 4))
        return ta_diag_set(r->d, TA_E_MALFORMED,
                           "%s: OfflineMemoryAllocation buffer too short or misaligned (%zu bytes)",
                           ctx(r), bytes);
    uint32_t version = ta_fb_ld32(data), n = ta_fb_ld32(data + 8);
    if (version != 0)
        return ta_diag_set(r->d, TA_E_UNSUPPORTED,
                           "%s: OfflineMemoryAllocation format version %u (expected 0)", ctx(r),
                           version);
    if ((uint64_t)n > (bytes - 12) / 4)
        return ta_diag_set(r->d, TA_E_MALFORMED,
                           "%s: OfflineMemoryAllocation claims %u offsets in %zu bytes", ctx(r), n,
                           bytes);
    if ((uint64_t)n != r->n_tensors)
        return ta_diag_set(r->d, TA_E_MALFORMED,
                           "%s: OfflineMemoryAllocation has %u offsets for %llu tensors", ctx(r), n,
                           (unsigned long long)r->n_tensors);
    FB(ta_fb_charge(&r->fb, n), "OfflineMemoryAllocation");
    for (uint32_t k = 0; k < n; k++) {
        int32_t v = (int32_t)ta_fb_ld32(data + 12 + 4 * (size_t)k);
        if (v < -1)
            return ta_diag_set(r->d, TA_E_MALFORMED, "%s: OfflineMemoryAllocation offset %u is %d",
                               ctx(r), k, v);
    }
    r->offline = (const int32_t *)(const void *)(data + 12);
    r->offline_count = n;
    return TA_OK;
}

static ta_status walk_metadata(rd *r) {
    for (uint32_t i = 0; i < r->metadata.n; i++) {
        const char *name;
        const uint8_t *data;
        size_t bytes;
        set_ctx(r, CTX_METADATA, i, 0);
        TRY(read_metadata(r, i, &name, &data, &bytes));
        if (strcmp(name, OFFLINE_METADATA_NAME) == 0) TRY(read_offline(r, data, bytes));
    }
    return TA_OK;
}

/* ---- the walk ---------------------------------------------------------------- */

static uint64_t work_limit_for(size_t len) { return 2u * (uint64_t)len + 4096u; }

static bool host_little_endian(void) {
    const uint16_t one = 1;
    uint8_t b;
    memcpy(&b, &one, 1);
    return b == 1;
}

/* Steps 1-2: header, version, top-level vectors. */
static ta_status walk_root(rd *r) {
    ta_fb *fb = &r->fb;
    ta_fb_table root;
    set_ctx(r, CTX_MODEL, 0, 0);
    FB(ta_fb_root(fb, TFL_FILE_IDENTIFIER, &root), "header");
    FB(ta_fb_u32(fb, &root, TFL_MODEL_VERSION, 0, &r->version), "version");
    if (r->version != TFL_SCHEMA_VERSION)
        return ta_diag_set(r->d, TA_E_UNSUPPORTED, "model: schema version %u (expected %u)",
                           r->version, TFL_SCHEMA_VERSION);
    FB(ta_fb_vector(fb, &root, TFL_MODEL_OPERATOR_CODES, 4, &r->opcodes), "operator_codes");
    FB(ta_fb_vector(fb, &root, TFL_MODEL_SUBGRAPHS, 4, &r->subgraphs), "subgraphs");
    FB(ta_fb_vector(fb, &root, TFL_MODEL_BUFFERS, 4, &r->buffers), "buffers");
    FB(ta_fb_vector(fb, &root, TFL_MODEL_METADATA, 4, &r->metadata), "metadata");
    FB(ta_fb_string(fb, &root, TFL_MODEL_DESCRIPTION, &r->description, NULL), "description");
    if (!r->description) r->description = "";
    if (r->subgraphs.n == 0)
        return ta_diag_set(r->d, TA_E_MALFORMED, "model: no subgraphs");
    return TA_OK;
}

static ta_status walk(rd *r) {
    TRY(walk_root(r));
    TRY(walk_buffers(r));
    TRY(walk_opcodes(r));
    for (uint32_t sg = 0; sg < r->subgraphs.n; sg++) TRY(walk_subgraph(r, sg));
    TRY(walk_metadata(r));
    return TA_OK;
}

static void rd_init(rd *r, const uint8_t *p, size_t len, uint64_t work_limit, ta_graph *g,
                    ta_diag *d) {
    memset(r, 0, sizeof *r);
    ta_fb_init(&r->fb, p, len, work_limit);
    r->g = g;
    r->d = d;
}

ta_status ta_tflite_open(ta_tflite_model *m, const void *bytes, size_t len, ta_diag *d) {
    if (d) d->msg[0] = '\0';
    if (!m) return ta_diag_set(d, TA_E_INVALID_ARG, "model struct is NULL");
    memset(m, 0, sizeof *m);
    if (!bytes) return ta_diag_set(d, TA_E_INVALID_ARG, "model bytes are NULL");
    if (!aligned(bytes, 8))
        return ta_diag_set(d, TA_E_INVALID_ARG, "model bytes must be 8-byte aligned (address %% 8 = %u)",
                           (unsigned)((uintptr_t)bytes % 8));
    if (!host_little_endian())
        return ta_diag_set(d, TA_E_UNSUPPORTED, "the reader needs a little-endian host");
    rd r;
    rd_init(&r, bytes, len, work_limit_for(len), NULL, d);
    TRY(walk(&r));
    m->bytes = bytes;
    m->len = len;
    m->version = r.version;
    m->n_subgraphs = r.subgraphs.n;
    m->n_operator_codes = r.opcodes.n;
    m->n_buffers = r.buffers.n;
    m->n_metadata = r.metadata.n;
    m->n_tensors = r.n_tensors;
    m->n_ops = r.n_ops;
    m->n_indices = r.n_indices;
    m->n_dims = r.n_dims;
    m->n_words = r.n_words;
    m->const_bytes = r.const_bytes;
    m->work_limit = r.fb.work_limit;
    m->work_used = r.fb.work;
    m->description = r.description;
    m->offline = r.offline;
    m->offline_count = r.offline_count;
    m->open = true;
    return TA_OK;
}

ta_status ta_tflite_graph_limits(const ta_tflite_model *m, ta_graph_limits *lim) {
    if (!m || !lim) return TA_E_INVALID_ARG;
    if (!m->open) return TA_E_STATE;
    const uint64_t cap = 0x7fffffffu;
    if (m->n_tensors > cap || m->n_ops > cap || m->n_indices > cap || m->n_dims > cap ||
        m->n_words > cap)
        return TA_E_OVERFLOW;
    lim->subgraphs = m->n_subgraphs;
    lim->tensors = (uint32_t)m->n_tensors;
    lim->ops = (uint32_t)m->n_ops;
    lim->indices = (uint32_t)m->n_indices;
    lim->dims = (uint32_t)m->n_dims;
    lim->words = (uint32_t)m->n_words;
    return TA_OK;
}

ta_status ta_tflite_import(const ta_tflite_model *m, ta_graph *g, ta_diag *d) {
    if (d) d->msg[0] = '\0';
    if (!m || !g) return ta_diag_set(d, TA_E_INVALID_ARG, "model or graph is NULL");
    if (!m->open) return ta_diag_set(d, TA_E_STATE, "model is not open");
    if (g->n_subgraphs || g->n_tensors || g->n_ops)
        return ta_diag_set(d, TA_E_STATE, "graph is not empty");
    rd r;
    rd_init(&r, m->bytes, m->len, m->work_limit, g, d);
    TRY(walk(&r));
    g->name = r.description;
    ta_status st = ta_graph_validate(g, d);
    if (st) return st; /* cannot happen for a model that opened; kept as a guard */
    return TA_OK;
}

/* ---- accessors ---------------------------------------------------------------- */

/* Re-reads the top level of an open model (cheap: a handful of verified reads). */
static ta_status reopen(const ta_tflite_model *m, rd *r) {
    if (!m) return TA_E_INVALID_ARG;
    if (!m->open) return TA_E_STATE;
    rd_init(r, m->bytes, m->len, m->work_limit, NULL, NULL);
    return walk_root(r);
}

ta_status ta_tflite_get_info(const ta_tflite_model *m, ta_tflite_info *info) {
    if (!m || !info) return TA_E_INVALID_ARG;
    if (!m->open) return TA_E_STATE;
    memset(info, 0, sizeof *info);
    info->version = m->version;
    info->subgraphs = m->n_subgraphs;
    info->tensors = (uint32_t)TA_MIN(m->n_tensors, (uint64_t)UINT32_MAX);
    info->ops = (uint32_t)TA_MIN(m->n_ops, (uint64_t)UINT32_MAX);
    info->operator_codes = m->n_operator_codes;
    info->buffers = m->n_buffers;
    info->metadata = m->n_metadata;
    info->const_bytes = m->const_bytes;
    info->has_offline_offsets = m->offline != NULL;
    info->description = m->description ? m->description : "";
    return TA_OK;
}

const char *ta_tflite_description(const ta_tflite_model *m) {
    return m && m->open && m->description ? m->description : "";
}

ta_status ta_tflite_subgraph_size(const ta_tflite_model *m, uint32_t sg, uint32_t *n_tensors,
                                  uint32_t *n_ops) {
    rd r;
    TRY(reopen(m, &r));
    if (sg >= r.subgraphs.n) return TA_E_NOT_FOUND;
    ta_fb_table t;
    ta_fb_vec tv, ov;
    if (!ta_fb_vec_table(&r.fb, &r.subgraphs, sg, &t) ||
        !ta_fb_vector(&r.fb, &t, TFL_SUBGRAPH_TENSORS, 4, &tv) ||
        !ta_fb_vector(&r.fb, &t, TFL_SUBGRAPH_OPERATORS, 4, &ov))
        return TA_E_MALFORMED; /* not reachable after a successful open */
    if (n_tensors) *n_tensors = tv.n;
    if (n_ops) *n_ops = ov.n;
    return TA_OK;
}

ta_status ta_tflite_metadata(const ta_tflite_model *m, uint32_t i, const char **name,
                             const void **data, size_t *bytes) {
    rd r;
    TRY(reopen(m, &r));
    if (i >= r.metadata.n) return TA_E_NOT_FOUND;
    const char *nm;
    const uint8_t *p;
    size_t n;
    TRY(read_metadata(&r, i, &nm, &p, &n));
    if (name) *name = nm;
    if (data) *data = p;
    if (bytes) *bytes = n;
    return TA_OK;
}

ta_status ta_tflite_metadata_find(const ta_tflite_model *m, const char *name, const void **data,
                                  size_t *bytes) {
    if (!name) return TA_E_INVALID_ARG;
    rd r;
    TRY(reopen(m, &r));
    bool found = false;
    for (uint32_t i = 0; i < r.metadata.n; i++) {
        const char *nm;
        const uint8_t *p;
        size_t n;
        TRY(read_metadata(&r, i, &nm, &p, &n));
        if (strcmp(nm, name) == 0) {
            found = true;
            if (data) *data = p;
            if (bytes) *bytes = n;
        }
    }
    return found ? TA_OK : TA_E_NOT_FOUND;
}

ta_status ta_tflite_offline_offsets(const ta_tflite_model *m, uint32_t subgraph,
                                    const int32_t **offsets, uint32_t *count) {
    if (!m) return TA_E_INVALID_ARG;
    if (!m->open) return TA_E_STATE;
    if (!m->offline || subgraph >= m->n_subgraphs) return TA_E_NOT_FOUND;
    rd r;
    TRY(reopen(m, &r));
    /* The subgraph's slice starts after the tensors of the ones before it
     * (O(subgraph) verified reads). */
    uint64_t base = 0;
    uint32_t n = 0;
    for (uint32_t s = 0; s <= subgraph; s++) {
        ta_fb_table t;
        ta_fb_vec tv;
        base += n;
        if (!ta_fb_vec_table(&r.fb, &r.subgraphs, s, &t) ||
            !ta_fb_vector(&r.fb, &t, TFL_SUBGRAPH_TENSORS, 4, &tv))
            return TA_E_MALFORMED; /* not reachable after a successful open */
        n = tv.n;
    }
    if (base + n > m->offline_count) return TA_E_MALFORMED; /* open() ruled this out */
    if (offsets) *offsets = m->offline + base;
    if (count) *count = n;
    return TA_OK;
}
