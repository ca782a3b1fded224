/*
 * SVDF: int8 input and feature weights, int16 or int8 time weights and
 * state (a variable tensor), int32 bias; two int32 buffers in kernel
 * scratch (TFLM's sizes).  Or float32 throughout (TFLM's float reference,
 * with the fused activation; one float row per filter in scratch).
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_svdf_params
static const ta__field k_fields_svdf[] = {
    F(batch, TA__F_I32), F(input_size, TA__F_I32), F(n_filter, TA__F_I32), F(n_memory, TA__F_I32),
    F(rank, TA__F_I32), F(input_zp, TA__F_I32), F(state_zp, TA__F_I32), F(output_zp, TA__F_I32),
    F(mult1, TA__F_I32), F(shift1, TA__F_I32), F(mult2, TA__F_I32), F(shift2, TA__F_I32), F(activation, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_svdf, ta_svdf_params)

/* SVDF: input, weights_feature, weights_time, bias (optional), state. */
static ta_status prep_svdf(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 5, 5, 1);
    if (!st && (!ta__op_in(c, 0) || !ta__op_in(c, 1) || !ta__op_in(c, 2) || !ta__op_in(c, 4)))
        st = ta__op_fail(c, TA_E_MALFORMED, "a required input is missing");
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *wf = ta__op_in(c, 1), *wt = ta__op_in(c, 2), *b = ta__op_in(c, 3),
                    *state = ta__op_in(c, 4);
    const ta_tensor *out = ta__op_out(c, 0);
    ta_svdf_params *p = (ta_svdf_params *)c->params;
    if (in->rank != 2 || wf->rank != 2 || wt->rank != 2 || out->rank != 2)
        return ta__op_fail(c, TA_E_MALFORMED, "expects 2-D operands");
    p->batch = in->shape[0];
    p->input_size = in->shape[1];
    p->n_filter = wf->shape[0];
    p->n_memory = wt->shape[1];
    p->rank = c->op->opt.rank;
    if (p->rank <= 0 || p->n_filter <= 0 || p->n_filter % p->rank || p->n_memory <= 0 || p->batch <= 0 ||
        p->input_size <= 0)
        return ta__op_fail(c, TA_E_MALFORMED, "rank does not divide the filters");
    const int32_t units = p->n_filter / p->rank;
    if (wf->shape[1] != p->input_size || wt->shape[0] != p->n_filter || out->shape[0] != p->batch ||
        out->shape[1] != units || (b && ta__op_elems(b) != units) ||
        ta__op_elems(state) != (int64_t)p->batch * p->n_filter * p->n_memory)
        return ta__op_fail(c, TA_E_MALFORMED, "operand shapes do not match");
    if (in->dtype == TA_DTYPE_FLOAT32) {
        if (wf->dtype != TA_DTYPE_FLOAT32 || wt->dtype != TA_DTYPE_FLOAT32 || !wf->data || !wt->data)
            return ta__op_fail(c, TA_E_UNSUPPORTED, "float SVDF weights must be constant float32");
        if ((st = ta__op_need_state(c, state, TA_DTYPE_FLOAT32, "the state is missing"))) return st;
        if (b && (b->dtype != TA_DTYPE_FLOAT32)) return ta__op_fail_type(c, "bias", b->dtype);
        if (out->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, "output", out->dtype);
        const ta_activation a = c->op->opt.activation;
        if (a != TA_ACT_NONE && a != TA_ACT_RELU && a != TA_ACT_RELU_N1_TO_1 && a != TA_ACT_RELU6 && a != TA_ACT_TANH &&
            a != TA_ACT_SIGMOID)
            return ta__op_fail(c, TA_E_UNSUPPORTED, "fused activation");
        p->activation = (int32_t)a;
        c->path = TA__P_F32;
        c->scratch = ta_kernel_svdf_f32_scratch_bytes(p);
        return TA_OK;
    }
    if (in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    if (wf->dtype != TA_DTYPE_INT8 || !wf->data)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "feature weights must be constant int8");
    if ((wt->dtype != TA_DTYPE_INT16 && wt->dtype != TA_DTYPE_INT8) || !wt->data)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "time weights must be constant int16 or int8");
    if ((st = ta__op_need_state(c, state, wt->dtype, "the state is missing"))) return st;
    if (b && b->dtype != TA_DTYPE_INT32) return ta__op_fail_type(c, "bias", b->dtype);
    if (out->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "output", out->dtype);
    c->path = wt->dtype == TA_DTYPE_INT16 ? TA__P_S8 : TA__P_S8_S8;
    st = ta_svdf_prepare(p, ta__op_scale(in), ta__op_zp(in), ta__op_scale(wf), ta__op_scale(wt), ta__op_scale(state),
                         ta__op_zp(state), ta__op_scale(out), ta__op_zp(out));
    if (st) return ta__op_fail(c, st, "scales out of range");
    c->scratch = ta_kernel_svdf_scratch_bytes(p);
    return TA_OK;
}

static ta_status run_svdf(const ta__op_run *r) {
    const ta_svdf_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *wf = ta__op_in_ptr(r, 1), *wt = ta__op_in_ptr(r, 2), *b = ta__op_in_ptr(r, 3);
    void *state = ta__op_in_ptr(r, 4), *out = ta__op_out_ptr(r, 0);
    if (r->path == TA__P_F32)
        return ta_kernel_svdf_f32(p, in, wf, wt, b, state, out, r->scratch, r->scratch_bytes);
    return r->path == TA__P_S8 ? ta_kernel_svdf_s8(p, in, wf, wt, b, state, out, r->scratch, r->scratch_bytes)
                               : ta_kernel_svdf_s8_s8(p, in, wf, wt, b, state, out, r->scratch, r->scratch_bytes);
}

/* The scratch holds int32 activations and uint32 partial sums (the kernel
 * refuses a scratch not 4-aligned); operands by their element types. */
static const ta__op_align k_align_svdf = {.scratch = 4};
TA__OP_DEF_ALIGNED(ta_op_SVDF, SVDF, ta_svdf_params, k_fields_svdf, TA__CLEAR_PADDING(clear_svdf), prep_svdf, run_svdf, 0,
                   TA__T(FLOAT32) | TA__T(INT8), &k_align_svdf);
