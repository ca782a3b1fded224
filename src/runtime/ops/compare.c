/*
 * EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL (one params
 * struct): two inputs of one type with broadcasting, a bool output.
 * Types as TFLM's comparisons: float32, int32, int64, int8 (rescaled to a
 * common scale first, TFLM's ComparisonWithScaling, both scales below 1),
 * and bool for EQUAL/NOT_EQUAL.  TFLM's GREATER also lists int16 but never
 * prepares its scaling for it (the parameters stay zero and every result is
 * false); that path is refused here rather than copied.
 */
#include "runtime/ops/op.h"

typedef struct compare_op {
    ta_compare_params p;
    ta_dtype type;
} compare_op;

/* clang-format off */
#define TA__PARAMS_T compare_op
static const ta__field k_fields_cmp[] = {
    BCAST(p.shape), F(p.fn, TA__F_I32), F(p.input1_offset, TA__F_I32), F(p.input2_offset, TA__F_I32),
    F(p.mult1, TA__F_I32), F(p.shift1, TA__F_I32), F(p.mult2, TA__F_I32), F(p.shift2, TA__F_I32),
    F(type, TA__F_DTYPE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_cmp, compare_op)

static int fn_of(ta_op_kind k) {
    switch (k) {
        case TA_OP_EQUAL: return TA_CMP_EQUAL;
        case TA_OP_NOT_EQUAL: return TA_CMP_NOT_EQUAL;
        case TA_OP_GREATER: return TA_CMP_GREATER;
        case TA_OP_GREATER_EQUAL: return TA_CMP_GREATER_EQUAL;
        case TA_OP_LESS: return TA_CMP_LESS;
        default: return TA_CMP_LESS_EQUAL;
    }
}

static ta_status prep_compare(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    compare_op *o = (compare_op *)c->params;
    const ta_tensor *a = ta__op_in(c, 0), *b = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    if (a->dtype != b->dtype) return ta__op_fail_type(c, "mixed input", b->dtype);
    if (out->dtype != TA_DTYPE_BOOL) return ta__op_fail_type(c, "output", out->dtype);
    if (ta_broadcast_init(&o->p.shape, a->shape, a->rank, b->shape, b->rank))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "input shapes do not broadcast (or rank > 6)");
    int64_t n = 1;
    for (int32_t i = 0; i < o->p.shape.rank; i++) n *= o->p.shape.out[i];
    if (n != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size does not match the broadcast shape");
    o->p.fn = fn_of(c->op->kind);
    o->type = a->dtype;
    c->path = TA__P_COPY;
    switch (a->dtype) {
        case TA_DTYPE_FLOAT32:
        case TA_DTYPE_INT32:
        case TA_DTYPE_INT64: return TA_OK;
        case TA_DTYPE_BOOL:
            if (o->p.fn == TA_CMP_EQUAL || o->p.fn == TA_CMP_NOT_EQUAL) return TA_OK;
            return ta__op_fail_type(c, "input", a->dtype);
        case TA_DTYPE_INT8:
            st = ta_compare_prepare_s8(&o->p, ta__op_scale(a), ta__op_zp(a), ta__op_scale(b), ta__op_zp(b));
            return st ? ta__op_fail(c, st, "int8 scales must be in (0, 1)") : TA_OK;
        default: return ta__op_fail_type(c, "input", a->dtype);
    }
}

static ta_status run_compare(const ta__op_run *r) {
    const compare_op *o = r->params;
    return ta_kernel_compare(&o->p, o->type, ta__op_in_ptr(r, 0), ta__op_in_ptr(r, 1), ta__op_out_ptr(r, 0));
}

/* in place only where the rewrite allows it: an output of the inputs' type
 * and shape, i.e. bool EQUAL/NOT_EQUAL and int8 (one byte each) */
#define CMP_DEF(K, TY)                                                                                                 \
    TA__OP_DEF(ta_op_##K, K, compare_op, k_fields_cmp, TA__CLEAR_PADDING(clear_cmp), prep_compare, run_compare,        \
               TA__OP_INPLACE, TY)
CMP_DEF(EQUAL, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32) | TA__T(INT64) | TA__T(BOOL));
CMP_DEF(NOT_EQUAL, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32) | TA__T(INT64) | TA__T(BOOL));
CMP_DEF(GREATER, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32) | TA__T(INT64));
CMP_DEF(GREATER_EQUAL, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32) | TA__T(INT64));
CMP_DEF(LESS, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32) | TA__T(INT64));
CMP_DEF(LESS_EQUAL, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32) | TA__T(INT64));
