/*
 * ADD_N (2 to 64 inputs of one shape) and CUMSUM (constant axis,
 * exclusive/reverse), float32 and int8: TFLM's types.
 *
 * int8 reproduces TFLM's arithmetic including its quirk (the manifest's
 * NOTE): the int32 sum starts at the scaled input offset instead of 0, so
 * with input zero point z every result is about -z/2 input steps high
 * (kernels.h, ta_sum_q_params).  ADD_N's int8 inputs share one scale and
 * zero point (TFLM's check).
 *
 * Both may run in place (TA__OP_INPLACE): ADD_N reads element i of every
 * input before it writes element i, CUMSUM reads each element before it
 * writes that position and never reads it again.
 */
#include "runtime/ops/op.h"

typedef struct ta__add_n_params {
    int64_t count;
    ta_sum_q_params q;
} ta__add_n_params;

/* clang-format off */
#define SUMQ(m)                                                                                            \
    F(m.input_offset, TA__F_I32), F(m.output_offset, TA__F_I32), F(m.in_mult, TA__F_I32),                  \
        F(m.in_shift, TA__F_I32), F(m.out_mult, TA__F_I32), F(m.out_shift, TA__F_I32),                      \
        F(m.act_min, TA__F_I32), F(m.act_max, TA__F_I32)
#define TA__PARAMS_T ta__add_n_params
static const ta__field k_fields_an[] = {F(count, TA__F_I64), SUMQ(q)};
#undef TA__PARAMS_T
#define TA__PARAMS_T ta_cumsum_params
static const ta__field k_fields_cs[] = {
    F(outer, TA__F_I64), F(inner, TA__F_I64), F(depth, TA__F_I32), F(exclusive, TA__F_BOOL), F(reverse, TA__F_BOOL),
    SUMQ(q)};
#undef TA__PARAMS_T
#undef SUMQ
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_an, ta__add_n_params)
TA__CLEAR_PADDING_FN(clear_cs, ta_cumsum_params)

enum { MAX_TERMS = 64 };

static ta_status sum_q(ta__op_ctx *c, const ta_tensor *in, const ta_tensor *out, ta_sum_q_params *q) {
    if (ta_sum_q_prepare(q, ta__op_scale(in), ta__op_zp(in), ta__op_scale(out), ta__op_zp(out)))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "scales out of range for the int8 sum");
    return TA_OK;
}

static ta_status prep_add_n(ta__op_ctx *c) {
    const uint32_t n = c->op->n_inputs;
    if (n < 2 || n > MAX_TERMS || c->op->n_outputs != 1 || !ta__op_out(c, 0))
        return ta__op_fail(c, TA_E_MALFORMED, "expects 2 to 64 inputs and one output");
    const ta_tensor *a = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (!a) return ta__op_fail(c, TA_E_MALFORMED, "an input is missing");
    if (a->dtype != TA_DTYPE_FLOAT32 && a->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", a->dtype);
    if (out->dtype != a->dtype) return ta__op_fail_type(c, "output", out->dtype);
    if (ta__op_elems(out) != ta__op_elems(a))
        return ta__op_fail(c, TA_E_MALFORMED, "output size differs from the inputs'");
    for (uint32_t k = 1; k < n; k++) {
        const ta_tensor *t = ta__op_in(c, k);
        if (!t) return ta__op_fail(c, TA_E_MALFORMED, "an input is missing");
        if (t->dtype != a->dtype) return ta__op_fail_type(c, "mixed input", t->dtype);
        if (t->rank != a->rank) return ta__op_fail(c, TA_E_MALFORMED, "inputs differ in shape");
        for (int32_t d = 0; d < a->rank; d++)
            if (t->shape[d] != a->shape[d]) return ta__op_fail(c, TA_E_MALFORMED, "inputs differ in shape");
        if (a->dtype == TA_DTYPE_INT8 && (ta__op_scale(t) != ta__op_scale(a) || ta__op_zp(t) != ta__op_zp(a)))
            return ta__op_fail(c, TA_E_UNSUPPORTED, "int8 inputs must share scale and zero point");
    }
    ta__add_n_params *p = (ta__add_n_params *)c->params;
    p->count = ta__op_elems(out);
    if (a->dtype == TA_DTYPE_FLOAT32) {
        c->path = TA__P_F32;
        return TA_OK;
    }
    c->path = TA__P_S8;
    return sum_q(c, a, out, &p->q);
}

static ta_status run_add_n(const ta__op_run *r) {
    const ta__add_n_params *p = r->params;
    const void *ins[MAX_TERMS];
    if (r->n_in > MAX_TERMS || p->count < 0) return TA_E_UNSUPPORTED;
    for (uint32_t k = 0; k < r->n_in; k++) ins[k] = ta__op_in_ptr(r, k);
    if (r->path == TA__P_F32)
        return ta_kernel_add_n_f32((size_t)p->count, r->n_in, (const float *const *)ins, ta__op_out_ptr(r, 0));
    return ta_kernel_add_n_s8(&p->q, (size_t)p->count, r->n_in, (const int8_t *const *)ins, ta__op_out_ptr(r, 0));
}

static ta_status prep_cumsum(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (in->dtype != TA_DTYPE_FLOAT32 && in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    if (out->dtype != in->dtype) return ta__op_fail_type(c, "output", out->dtype);
    if (in->rank < 1 || out->rank != in->rank) return ta__op_fail(c, TA_E_MALFORMED, "input and output shapes differ");
    for (int32_t d = 0; d < in->rank; d++)
        if (out->shape[d] != in->shape[d]) return ta__op_fail(c, TA_E_MALFORMED, "input and output shapes differ");
    const int32_t *ax;
    int64_t n;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &ax, &n))) return st;
    if (n != 1) return ta__op_fail(c, TA_E_MALFORMED, "axis operand must hold one value");
    const int32_t axis = ax[0] < 0 ? ax[0] + in->rank : ax[0];
    if (axis < 0 || axis >= in->rank) return ta__op_fail(c, TA_E_MALFORMED, "axis out of range");
    ta_cumsum_params *p = (ta_cumsum_params *)c->params;
    p->outer = p->inner = 1;
    for (int32_t d = 0; d < axis; d++) p->outer *= in->shape[d];
    for (int32_t d = axis + 1; d < in->rank; d++) p->inner *= in->shape[d];
    p->depth = in->shape[axis];
    p->exclusive = c->op->opt.exclusive;
    p->reverse = c->op->opt.reverse;
    if (in->dtype == TA_DTYPE_FLOAT32) {
        c->path = TA__P_F32;
        return TA_OK;
    }
    c->path = TA__P_S8;
    return sum_q(c, in, out, &p->q);
}

static ta_status run_cumsum(const ta__op_run *r) {
    return r->path == TA__P_F32 ? ta_kernel_cumsum_f32(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0))
                                : ta_kernel_cumsum_s8(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_ADD_N, ADD_N, ta__add_n_params, k_fields_an, TA__CLEAR_PADDING(clear_an), prep_add_n, run_add_n,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8));
TA__OP_DEF(ta_op_CUMSUM, CUMSUM, ta_cumsum_params, k_fields_cs, TA__CLEAR_PADDING(clear_cs), prep_cumsum, run_cumsum,
           TA__OP_INPLACE, TA__T(FLOAT32) | TA__T(INT8));
