/*
 * GATHER, GATHER_ND and EMBEDDING_LOOKUP: rows picked by an index tensor.
 * Types as TFLM's: float32, int8 and int32 params (GATHER, GATHER_ND),
 * float32 and int8 values (EMBEDDING_LOOKUP, int8 -> float32 dequantised
 * as TFLM's hybrid path); int32 indices.  The indices may be computed at
 * run time: the kernels check each one before reading the row it names
 * (an invoke error, "GATHER kernel failed: invalid argument").
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_gather_params
static const ta__field k_fields_g[] = {
    F(batch, TA__F_I64), F(outer, TA__F_I64), F(n_idx, TA__F_I64), F(inner_bytes, TA__F_I64),
    F(axis_size, TA__F_I32), F(idx_size, TA__F_I32)};
#undef TA__PARAMS_T
#define TA__PARAMS_T ta_gather_nd_params
static const ta__field k_fields_gnd[] = {
    F(n_slices, TA__F_I64), F(slice_elems, TA__F_I64), F(total_elems, TA__F_I64),
    FA(strides, TA__F_I64, TA_KERNEL_MAX_GATHER_ND), F(nd, TA__F_I32), F(elem_size, TA__F_I32),
    F(idx_size, TA__F_I32)};
#undef TA__PARAMS_T
#define TA__PARAMS_T ta_embedding_params
static const ta__field k_fields_emb[] = {
    F(n_ids, TA__F_I32), F(rows, TA__F_I32), F(row_elems, TA__F_I64), F(elem_size, TA__F_I32),
    F(dequant, TA__F_BOOL), F(scale, TA__F_F32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_g, ta_gather_params)
TA__CLEAR_PADDING_FN(clear_gnd, ta_gather_nd_params)
TA__CLEAR_PADDING_FN(clear_emb, ta_embedding_params)

/* Constant int32 index k (any alignment). */
static int32_t const_idx(const ta_tensor *t, int64_t k) {
    int32_t v;
    memcpy(&v, (const uint8_t *)t->data + (size_t)k * 4u, 4);
    return v;
}

static bool gather_type(ta_dtype t) { return t == TA_DTYPE_FLOAT32 || t == TA_DTYPE_INT8 || t == TA_DTYPE_INT32; }

static ta_status prep_gather(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *idx = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    if (!gather_type(in->dtype)) return ta__op_fail_type(c, "input", in->dtype);
    if (out->dtype != in->dtype) return ta__op_fail_type(c, "output", out->dtype);
    if (idx->dtype != TA_DTYPE_INT32) return ta__op_fail_type(c, "indices", idx->dtype);
    int32_t axis = c->op->opt.axis, bd = c->op->opt.batch_dims;
    if (axis < 0) axis += in->rank;
    if (bd < 0) bd += idx->rank;
    if (in->rank < 1 || axis < 0 || axis >= in->rank) return ta__op_fail(c, TA_E_MALFORMED, "axis out of range");
    if (bd < 0 || bd > idx->rank || bd >= in->rank || bd > axis)
        return ta__op_fail(c, TA_E_MALFORMED, "batch_dims out of range");
    if (in->rank - 1 + idx->rank - bd != out->rank)
        return ta__op_fail(c, TA_E_MALFORMED, "output rank does not match the gather");
    ta_gather_params *p = (ta_gather_params *)c->params;
    p->batch = p->outer = p->n_idx = 1;
    int64_t inner = 1;
    for (int32_t d = 0; d < bd; d++) {
        if (in->shape[d] != idx->shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "batch dims of input and indices differ");
        p->batch *= in->shape[d];
    }
    for (int32_t d = bd; d < axis; d++) p->outer *= in->shape[d];
    for (int32_t d = bd; d < idx->rank; d++) p->n_idx *= idx->shape[d];
    for (int32_t d = axis + 1; d < in->rank; d++) inner *= in->shape[d];
    /* the output is input[:axis] + indices[batch_dims:] + input[axis+1:] */
    int32_t o = 0;
    for (int32_t d = 0; d < axis; d++, o++)
        if (out->shape[o] != in->shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match the gather");
    for (int32_t d = bd; d < idx->rank; d++, o++)
        if (out->shape[o] != idx->shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match the gather");
    for (int32_t d = axis + 1; d < in->rank; d++, o++)
        if (out->shape[o] != in->shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match the gather");
    p->axis_size = in->shape[axis];
    p->inner_bytes = inner * (int64_t)ta_dtype_size(in->dtype);
    p->idx_size = 4;
    /* constant indices (the usual case) are refused here rather than at
     * every invoke */
    if (idx->data)
        for (int64_t k = 0, n = ta__op_elems(idx); k < n; k++) {
            const int32_t v = const_idx(idx, k);
            if (v < 0 || v >= p->axis_size) return ta__op_fail(c, TA_E_MALFORMED, "a constant index is out of range");
        }
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_gather(const ta__op_run *r) {
    return ta_kernel_gather(r->params, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_out_ptr(r, 0));
}

static ta_status prep_gather_nd(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *idx = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    if (in->dtype != TA_DTYPE_FLOAT32 && in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "params", in->dtype);
    if (out->dtype != in->dtype) return ta__op_fail_type(c, "output", out->dtype);
    if (idx->dtype != TA_DTYPE_INT32) return ta__op_fail_type(c, "indices", idx->dtype);
    if (idx->rank < 1 || in->rank < 1) return ta__op_fail(c, TA_E_MALFORMED, "params and indices need a rank");
    const int32_t nd = idx->shape[idx->rank - 1];
    if (nd < 1 || nd > in->rank || nd > TA_KERNEL_MAX_GATHER_ND)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "index depth must be 1..rank of params (at most 8)");
    if (out->rank != idx->rank - 1 + in->rank - nd)
        return ta__op_fail(c, TA_E_MALFORMED, "output rank does not match the gather");
    ta_gather_nd_params *p = (ta_gather_nd_params *)c->params;
    p->n_slices = 1;
    p->slice_elems = 1;
    int32_t o = 0;
    for (int32_t d = 0; d < idx->rank - 1; d++, o++) {
        if (out->shape[o] != idx->shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match the gather");
        p->n_slices *= idx->shape[d];
    }
    for (int32_t d = nd; d < in->rank; d++, o++) {
        if (out->shape[o] != in->shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match the gather");
        p->slice_elems *= in->shape[d];
    }
    p->total_elems = ta__op_elems(in);
    int64_t remain = p->total_elems;
    for (int32_t j = 0; j < nd; j++) {
        remain = in->shape[j] ? remain / in->shape[j] : 0;
        p->strides[j] = remain;
    }
    p->nd = nd;
    p->elem_size = (int32_t)ta_dtype_size(in->dtype);
    p->idx_size = 4;
    if (idx->data) /* constant indices: the kernel's flat-position check, once */
        for (int64_t i = 0; i < p->n_slices; i++) {
            int64_t pos = 0;
            for (int32_t j = 0; j < nd; j++) pos += (int64_t)const_idx(idx, i * nd + j) * p->strides[j];
            if (pos < 0 || pos > p->total_elems - p->slice_elems)
                return ta__op_fail(c, TA_E_MALFORMED, "a constant index is out of range");
        }
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_gather_nd(const ta__op_run *r) {
    return ta_kernel_gather_nd(r->params, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_out_ptr(r, 0));
}

static ta_status prep_embedding(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *ids = ta__op_in(c, 0), *val = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    if (ids->dtype != TA_DTYPE_INT32 || ids->rank != 1)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "ids must be 1-D int32");
    if (val->rank < 2) return ta__op_fail(c, TA_E_MALFORMED, "value must have at least 2 dims");
    ta_embedding_params *p = (ta_embedding_params *)c->params;
    if (val->dtype == TA_DTYPE_INT8 && out->dtype == TA_DTYPE_FLOAT32) {
        if (val->quant.count > 1) return ta__op_fail(c, TA_E_UNSUPPORTED, "per-channel value quantisation");
        p->dequant = true;
        p->scale = ta__op_scale(val);
    } else if ((val->dtype == TA_DTYPE_FLOAT32 || val->dtype == TA_DTYPE_INT8) && out->dtype == val->dtype) {
        p->dequant = false;
    } else {
        return ta__op_fail_type(c, "value/output", out->dtype);
    }
    if (out->rank != val->rank || out->shape[0] != ids->shape[0])
        return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match the lookup");
    p->row_elems = 1;
    for (int32_t d = 1; d < val->rank; d++) {
        if (out->shape[d] != val->shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match the lookup");
        p->row_elems *= val->shape[d];
    }
    p->n_ids = ids->shape[0];
    p->rows = val->shape[0];
    if (ids->data)
        for (int32_t i = 0; i < p->n_ids; i++)
            if (const_idx(ids, i) < 0 || const_idx(ids, i) >= p->rows)
                return ta__op_fail(c, TA_E_MALFORMED, "a constant id is out of range");
    p->elem_size = (int32_t)ta_dtype_size(val->dtype);
    c->path = p->dequant ? TA__P_F32 : TA__P_COPY;
    return TA_OK;
}

static ta_status run_embedding(const ta__op_run *r) {
    return ta_kernel_embedding_lookup(r->params, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_GATHER, GATHER, ta_gather_params, k_fields_g, TA__CLEAR_PADDING(clear_g), prep_gather, run_gather, 0,
           TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32));
TA__OP_DEF(ta_op_GATHER_ND, GATHER_ND, ta_gather_nd_params, k_fields_gnd, TA__CLEAR_PADDING(clear_gnd), prep_gather_nd,
           run_gather_nd, 0, TA__T(FLOAT32) | TA__T(INT8));
TA__OP_DEF(ta_op_EMBEDDING_LOOKUP, EMBEDDING_LOOKUP, ta_embedding_params, k_fields_emb, TA__CLEAR_PADDING(clear_emb),
           prep_embedding, run_embedding, 0, TA__T(FLOAT32) | TA__T(INT8));
