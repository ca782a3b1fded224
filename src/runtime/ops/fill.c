/*
 * SHAPE, FILL, ZEROS_LIKE and BROADCAST_TO: outputs made from a shape.
 *
 * SHAPE: the input's dims, known at prepare, kept in the record (int32
 * output, TFLM's only type).  FILL: the scalar value input repeated
 * (float32, int8, int16, int32, int64, TFLM's types).  ZEROS_LIKE: zero
 * bytes (float32, int8, int32, int64): for int8 raw 0, not the zero point,
 * as TFLM writes it.  BROADCAST_TO: the input repeated along its dims of 1
 * to a constant shape, rank up to 6, any element type.  ZEROS_LIKE may run
 * in place (TA__OP_INPLACE): it never reads its input.
 */
#include "runtime/ops/op.h"

typedef struct ta__shape_params {
    int32_t rank;
    int32_t dims[TA_MAX_RANK];
} ta__shape_params;

typedef struct ta__fill_params {
    int64_t count;
    int32_t elem_size;
    bool zero; /* ZEROS_LIKE */
} ta__fill_params;

/* clang-format off */
#define TA__PARAMS_T ta__shape_params
static const ta__field k_fields_shape[] = {F(rank, TA__F_I32), FA(dims, TA__F_I32, TA_MAX_RANK)};
#undef TA__PARAMS_T
#define TA__PARAMS_T ta__fill_params
static const ta__field k_fields_fill[] = {F(count, TA__F_I64), F(elem_size, TA__F_I32), F(zero, TA__F_BOOL)};
#undef TA__PARAMS_T
#define TA__PARAMS_T ta_broadcast_to_params
static const ta__field k_fields_bt[] = {
    F(rank, TA__F_I32), FA(in_shape, TA__F_I32, TA_KERNEL_MAX_BROADCAST_RANK),
    FA(out_shape, TA__F_I32, TA_KERNEL_MAX_BROADCAST_RANK), F(elem_size, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_shape, ta__shape_params)
TA__CLEAR_PADDING_FN(clear_fill, ta__fill_params)
TA__CLEAR_PADDING_FN(clear_bt, ta_broadcast_to_params)

static ta_status prep_shape(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (out->dtype != TA_DTYPE_INT32) return ta__op_fail_type(c, "output", out->dtype);
    if (ta__op_elems(out) != in->rank)
        return ta__op_fail(c, TA_E_MALFORMED, "output length differs from the input rank");
    ta__shape_params *p = (ta__shape_params *)c->params;
    p->rank = in->rank;
    for (int32_t d = 0; d < in->rank; d++) p->dims[d] = in->shape[d];
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_shape(const ta__op_run *r) {
    const ta__shape_params *p = r->params;
    if (p->rank < 0 || p->rank > TA_MAX_RANK) return TA_E_INVALID_ARG;
    uint8_t *o = ta__op_out_ptr(r, 0);
    if (!o) return TA_E_INVALID_ARG;
    memcpy(o, p->dims, (size_t)p->rank * sizeof(int32_t));
    return TA_OK;
}

static ta_status prep_fill(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *dims = ta__op_in(c, 0), *val = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    const ta_dtype t = out->dtype;
    if (t != TA_DTYPE_FLOAT32 && t != TA_DTYPE_INT8 && t != TA_DTYPE_INT16 && t != TA_DTYPE_INT32 &&
        t != TA_DTYPE_INT64)
        return ta__op_fail_type(c, "output", t);
    if (val->dtype != t || ta__op_elems(val) != 1)
        return ta__op_fail(c, TA_E_MALFORMED, "value must be one element of the output's type");
    if (dims->data) { /* a constant shape must be the output's */
        const int32_t *v;
        int64_t n;
        if ((st = ta__op_const_i32(c, dims, &v, &n))) return st;
        if (n != out->rank) return ta__op_fail(c, TA_E_MALFORMED, "dims differ from the output shape");
        for (int32_t d = 0; d < out->rank; d++)
            if (v[d] != out->shape[d]) return ta__op_fail(c, TA_E_MALFORMED, "dims differ from the output shape");
    }
    ta__fill_params *p = (ta__fill_params *)c->params;
    p->count = ta__op_elems(out);
    p->elem_size = (int32_t)ta_dtype_size(t);
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status prep_zeros_like(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    const ta_dtype t = in->dtype;
    if (t != TA_DTYPE_FLOAT32 && t != TA_DTYPE_INT8 && t != TA_DTYPE_INT32 && t != TA_DTYPE_INT64)
        return ta__op_fail_type(c, "input", t);
    if (out->dtype != t || ta__op_elems(out) != ta__op_elems(in))
        return ta__op_fail(c, TA_E_MALFORMED, "output differs from the input in type or size");
    ta__fill_params *p = (ta__fill_params *)c->params;
    p->count = ta__op_elems(out);
    p->elem_size = (int32_t)ta_dtype_size(t);
    p->zero = true;
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_fill(const ta__op_run *r) {
    const ta__fill_params *p = r->params;
    static const uint8_t zeros[8] = {0};
    const void *v = p->zero ? (const void *)zeros : ta__op_in_ptr(r, 1);
    if (p->count < 0 || p->elem_size < 1 || p->elem_size > 8) return TA_E_INVALID_ARG;
    return ta_kernel_fill((size_t)p->count, (size_t)p->elem_size, v, ta__op_out_ptr(r, 0));
}

static ta_status prep_broadcast_to(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    const int32_t *v;
    int64_t n;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &v, &n))) return st;
    const size_t es = in->dtype == TA_DTYPE_INT4 ? 0 : ta_dtype_size(in->dtype);
    if (!es || out->dtype != in->dtype) return ta__op_fail_type(c, "output", out->dtype);
    if (n != out->rank || n < 1 || n > TA_KERNEL_MAX_BROADCAST_RANK || in->rank > n)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "shape must be the output's, rank 1..6, at least the input's");
    ta_broadcast_to_params *p = (ta_broadcast_to_params *)c->params;
    p->rank = (int32_t)n;
    p->elem_size = (int32_t)es;
    const int32_t lead = (int32_t)n - in->rank;
    for (int32_t d = 0; d < p->rank; d++) {
        if (v[d] != out->shape[d]) return ta__op_fail(c, TA_E_MALFORMED, "shape differs from the output's");
        p->out_shape[d] = out->shape[d];
        p->in_shape[d] = d < lead ? 1 : in->shape[d - lead];
        if (p->in_shape[d] != 1 && p->in_shape[d] != p->out_shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "input does not broadcast to the shape");
    }
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_broadcast_to(const ta__op_run *r) {
    return ta_kernel_broadcast_to(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_SHAPE, SHAPE, ta__shape_params, k_fields_shape, TA__CLEAR_PADDING(clear_shape), prep_shape, run_shape,
           0, TA__T_ANY);
TA__OP_DEF(ta_op_FILL, FILL, ta__fill_params, k_fields_fill, TA__CLEAR_PADDING(clear_fill), prep_fill, run_fill, 0,
           TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16) | TA__T(INT32) | TA__T(INT64));
TA__OP_DEF(ta_op_ZEROS_LIKE, ZEROS_LIKE, ta__fill_params, k_fields_fill, TA__CLEAR_PADDING(clear_fill), prep_zeros_like,
           run_fill, TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32) | TA__T(INT64));
TA__OP_DEF(ta_op_BROADCAST_TO, BROADCAST_TO, ta_broadcast_to_params, k_fields_bt, TA__CLEAR_PADDING(clear_bt),
           prep_broadcast_to, run_broadcast_to, 0, TA__T_ANY);
