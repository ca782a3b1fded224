/*
 * The TFLite walker's first steps (import.c has the walk): type and
 * operator-code mappings, buffers, operator codes and tensors.
 */
#include "tflite/import.h"

/* ---- small mappings ---------------------------------------------------- */

bool ta__tfl_map_type(int v, ta_dtype *out) {
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

ta_op_kind ta__tfl_map_kind(int32_t code) {
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
    case TFL_OP_ELU: return TA_OP_ELU;
    case TFL_OP_SQUARED_DIFFERENCE: return TA_OP_SQUARED_DIFFERENCE;
    case TFL_OP_FLOOR: return TA_OP_FLOOR;
    case TFL_OP_CEIL: return TA_OP_CEIL;
    case TFL_OP_ROUND: return TA_OP_ROUND;
    case TFL_OP_SIN: return TA_OP_SIN;
    case TFL_OP_COS: return TA_OP_COS;
    case TFL_OP_LOG_SOFTMAX: return TA_OP_LOG_SOFTMAX;
    case TFL_OP_L2_NORMALIZATION: return TA_OP_L2_NORMALIZATION;
    case TFL_OP_FLOOR_DIV: return TA_OP_FLOOR_DIV;
    case TFL_OP_FLOOR_MOD: return TA_OP_FLOOR_MOD;
    case TFL_OP_EQUAL: return TA_OP_EQUAL;
    case TFL_OP_NOT_EQUAL: return TA_OP_NOT_EQUAL;
    case TFL_OP_GREATER: return TA_OP_GREATER;
    case TFL_OP_GREATER_EQUAL: return TA_OP_GREATER_EQUAL;
    case TFL_OP_LESS: return TA_OP_LESS;
    case TFL_OP_LESS_EQUAL: return TA_OP_LESS_EQUAL;
    case TFL_OP_LOGICAL_AND: return TA_OP_LOGICAL_AND;
    case TFL_OP_LOGICAL_OR: return TA_OP_LOGICAL_OR;
    case TFL_OP_LOGICAL_NOT: return TA_OP_LOGICAL_NOT;
    case TFL_OP_SELECT_V2: return TA_OP_SELECT_V2;
    case TFL_OP_GATHER_ND: return TA_OP_GATHER_ND;
    case TFL_OP_SPACE_TO_DEPTH: return TA_OP_SPACE_TO_DEPTH;
    case TFL_OP_DEPTH_TO_SPACE: return TA_OP_DEPTH_TO_SPACE;
    case TFL_OP_SPACE_TO_BATCH_ND: return TA_OP_SPACE_TO_BATCH_ND;
    case TFL_OP_BATCH_TO_SPACE_ND: return TA_OP_BATCH_TO_SPACE_ND;
    case TFL_OP_FILL: return TA_OP_FILL;
    case TFL_OP_ZEROS_LIKE: return TA_OP_ZEROS_LIKE;
    case TFL_OP_BROADCAST_TO: return TA_OP_BROADCAST_TO;
    case TFL_OP_REDUCE_MIN: return TA_OP_REDUCE_MIN;
    case TFL_OP_REDUCE_PROD: return TA_OP_REDUCE_PROD;
    case TFL_OP_ADD_N: return TA_OP_ADD_N;
    case TFL_OP_CUMSUM: return TA_OP_CUMSUM;
    case TFL_OP_EMBEDDING_LOOKUP: return TA_OP_EMBEDDING_LOOKUP;
    case TFL_OP_VAR_HANDLE: return TA_OP_VAR_HANDLE;
    case TFL_OP_READ_VARIABLE: return TA_OP_READ_VARIABLE;
    case TFL_OP_ASSIGN_VARIABLE: return TA_OP_ASSIGN_VARIABLE;
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


/* ---- buffers ------------------------------------------------------------ */

/* Data of buffer `idx` (verified against n_buffers by the caller): the
 * inline `data` vector, or for large models the external range
 * [offset, offset + size) of the file when offset > 1 (the schema's rule:
 * offsets 0 and 1 are sentinels for "not used").  ta__tfl_walk_buffers() checks
 * every buffer first, in its own context, so later calls from a tensor or a
 * metadata entry cannot fail. */
ta_status ta__tfl_buffer_data(rd *r, uint32_t idx, const uint8_t **data, size_t *bytes) {
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

ta_status ta__tfl_walk_buffers(rd *r) {
    for (uint32_t i = 0; i < r->buffers.n; i++) {
        const uint8_t *data;
        size_t bytes;
        set_ctx(r, CTX_BUFFER, i, 0);
        TRY(ta__tfl_buffer_data(r, i, &data, &bytes));
    }
    return TA_OK;
}

/* ---- operator codes --------------------------------------------------- */


/* Reads operator code `i`.  The effective code is the larger of the int8
 * deprecated_builtin_code and the int32 builtin_code: old writers fill only
 * the first, new ones write 127 (PLACEHOLDER_FOR_GREATER_OP_CODES) there for
 * codes above 126 and the real code in the second. */
ta_status ta__tfl_read_opcode(rd *r, uint32_t i, ta__tfl_opcode *oc) {
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

ta_status ta__tfl_walk_opcodes(rd *r) {
    for (uint32_t i = 0; i < r->opcodes.n; i++) {
        ta__tfl_opcode oc;
        set_ctx(r, CTX_OPCODE, i, 0);
        TRY(ta__tfl_read_opcode(r, i, &oc));
    }
    return TA_OK;
}

/* ---- tensors ------------------------------------------------------------ */

/* Reads an int32 index vector and checks every entry is in [lo, n). */
ta_status ta__tfl_index_list(rd *r, const ta_fb_table *t, unsigned slot, const char *what,
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

ta_status ta__tfl_walk_tensor(rd *r, uint32_t sg, const ta_fb_vec *tensors, uint32_t i) {
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
    if (!ta__tfl_map_type(type, &td.dtype))
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
    TRY(ta__tfl_buffer_data(r, buf, &data, &data_bytes));
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
