/*
 * ARG_MAX, ARG_MIN, REDUCE_MAX, REDUCE_MIN and SUM over constant axes.
 *
 * Types are TFLM's: ARG_MAX/ARG_MIN float32, int8 and int32 in, int32 out;
 * REDUCE_MAX/REDUCE_MIN float32 and int8 (one quantisation for input and
 * output, TFLM's check; int16 is refused, as TFLM refuses it at invoke);
 * SUM float32, int8 and int16, requantised with s_in / s_out (int32 sums
 * in kernel scratch).  REDUCE_PROD is not here: TFLM has no kernel for it.
 */
#include "runtime/ops/op.h"

typedef struct ta__reduce_params {
    ta_mean_params m;
    int32_t kind; /* ta_reduce_kind */
    ta_dtype type;
} ta__reduce_params;

/* clang-format off */
#define TA__PARAMS_T ta_arg_params
static const ta__field k_fields_arg[] = {
    F(outer, TA__F_I64), F(inner, TA__F_I64), F(axis_size, TA__F_I32), F(type, TA__F_DTYPE), F(out_size, TA__F_I32),
    F(is_min, TA__F_BOOL)};
#undef TA__PARAMS_T
#define TA__PARAMS_T ta__reduce_params
static const ta__field k_fields_red[] = {
    {(uint16_t)offsetof(ta__reduce_params, m), TA__F_EDGE, 0},
    F(m.rank, TA__F_I32), FA(m.in_shape, TA__F_I32, TA_KERNEL_MAX_REDUCE_RANK),
    FA(m.reduce, TA__F_BOOL, TA_KERNEL_MAX_REDUCE_RANK), F(m.same_quant, TA__F_BOOL), F(m.input_zp, TA__F_I32),
    F(m.output_zp, TA__F_I32), F(m.mult, TA__F_I32), F(m.shift, TA__F_I32),
    {(uint16_t)(offsetof(ta__reduce_params, m) + sizeof(ta_mean_params)), TA__F_EDGE, 0},
    F(kind, TA__F_I32), F(type, TA__F_DTYPE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_arg, ta_arg_params)
TA__CLEAR_PADDING_FN(clear_red, ta__reduce_params)

static ta_status prep_arg(ta__op_ctx *c, bool is_min) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (in->dtype != TA_DTYPE_FLOAT32 && in->dtype != TA_DTYPE_INT8 && in->dtype != TA_DTYPE_INT32)
        return ta__op_fail_type(c, "input", in->dtype);
    if (out->dtype != TA_DTYPE_INT32) return ta__op_fail_type(c, "output", out->dtype);
    const int32_t *ax;
    int64_t n;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &ax, &n))) return st;
    if (n != 1) return ta__op_fail(c, TA_E_MALFORMED, "axis operand must hold one value");
    int32_t axis = ax[0] < 0 ? ax[0] + in->rank : ax[0];
    if (axis < 0 || axis >= in->rank) return ta__op_fail(c, TA_E_MALFORMED, "axis out of range");
    if (in->shape[axis] < 1) return ta__op_fail(c, TA_E_MALFORMED, "the reduced axis is empty");
    if (out->rank != in->rank - 1) return ta__op_fail(c, TA_E_MALFORMED, "output rank is not the input's minus one");
    ta_arg_params *p = (ta_arg_params *)c->params;
    p->outer = p->inner = 1;
    for (int32_t d = 0; d < in->rank; d++) {
        if (d == axis) continue;
        if (out->shape[d < axis ? d : d - 1] != in->shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "output dims differ from the input's off the axis");
        if (d < axis)
            p->outer *= in->shape[d];
        else
            p->inner *= in->shape[d];
    }
    p->axis_size = in->shape[axis];
    p->type = in->dtype;
    p->out_size = 4;
    p->is_min = is_min;
    c->path = TA__P_NONE;
    return TA_OK;
}
static ta_status prep_arg_max(ta__op_ctx *c) { return prep_arg(c, false); }
static ta_status prep_arg_min(ta__op_ctx *c) { return prep_arg(c, true); }

static ta_status run_arg(const ta__op_run *r) {
    return ta_kernel_arg_min_max(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

static ta_status prep_reduce(ta__op_ctx *c, ta_reduce_kind kind) {
    ta__reduce_params *p = (ta__reduce_params *)c->params;
    ta_status st = ta__op_reduce_axes(c, &p->m);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    p->kind = (int32_t)kind;
    p->type = in->dtype;
    if (in->dtype == TA_DTYPE_FLOAT32) {
        c->path = TA__P_F32;
        return TA_OK;
    }
    if (kind != TA_REDUCE_SUM) {
        if (in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
        if (ta__op_scale(in) != ta__op_scale(out) || ta__op_zp(in) != ta__op_zp(out))
            return ta__op_fail(c, TA_E_UNSUPPORTED, "int8 input and output must share scale and zero point");
        c->path = TA__P_S8;
        return TA_OK;
    }
    if (in->dtype != TA_DTYPE_INT8 && in->dtype != TA_DTYPE_INT16) return ta__op_fail_type(c, "input", in->dtype);
    if (!(ta__op_scale(out) > 0.0f)) return ta__op_fail(c, TA_E_MALFORMED, "output scale is not positive");
    p->m.input_zp = ta__op_zp(in);
    p->m.output_zp = ta__op_zp(out);
    ta_quant_multiplier((double)ta__op_scale(in) / (double)ta__op_scale(out), &p->m.mult, &p->m.shift);
    if (p->m.shift > 30) return ta__op_fail(c, TA_E_UNSUPPORTED, "requantisation ratio out of range");
    c->path = in->dtype == TA_DTYPE_INT8 ? TA__P_S8 : TA__P_S16;
    c->scratch = ta_kernel_mean_s8_scratch_bytes(&p->m);
    return TA_OK;
}
static ta_status prep_reduce_max(ta__op_ctx *c) { return prep_reduce(c, TA_REDUCE_MAX); }
static ta_status prep_reduce_min(ta__op_ctx *c) { return prep_reduce(c, TA_REDUCE_MIN); }
static ta_status prep_sum(ta__op_ctx *c) { return prep_reduce(c, TA_REDUCE_SUM); }

static ta_status run_reduce(const ta__op_run *r) {
    const ta__reduce_params *p = r->params;
    return ta_kernel_reduce(&p->m, (ta_reduce_kind)p->kind, p->type, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0),
                            r->scratch, r->scratch_bytes);
}

TA__OP_DEF(ta_op_ARG_MAX, ARG_MAX, ta_arg_params, k_fields_arg, TA__CLEAR_PADDING(clear_arg), prep_arg_max, run_arg, 0,
           TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32));
TA__OP_DEF(ta_op_ARG_MIN, ARG_MIN, ta_arg_params, k_fields_arg, TA__CLEAR_PADDING(clear_arg), prep_arg_min, run_arg, 0,
           TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32));
TA__OP_DEF(ta_op_REDUCE_MAX, REDUCE_MAX, ta__reduce_params, k_fields_red, TA__CLEAR_PADDING(clear_red), prep_reduce_max,
           run_reduce, 0, TA__T(FLOAT32) | TA__T(INT8));
TA__OP_DEF(ta_op_REDUCE_MIN, REDUCE_MIN, ta__reduce_params, k_fields_red, TA__CLEAR_PADDING(clear_red), prep_reduce_min,
           run_reduce, 0, TA__T(FLOAT32) | TA__T(INT8));
TA__OP_DEF(ta_op_SUM, SUM, ta__reduce_params, k_fields_red, TA__CLEAR_PADDING(clear_red), prep_sum, run_reduce, 0,
           TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16));
