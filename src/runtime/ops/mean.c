/*
 * MEAN over constant axes: int8 (requantised, int32 sums in kernel
 * scratch) and float32.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_mean_params
static const ta__field k_fields_mean[] = {
    F(rank, TA__F_I32), FA(in_shape, TA__F_I32, TA_KERNEL_MAX_REDUCE_RANK),
    FA(reduce, TA__F_BOOL, TA_KERNEL_MAX_REDUCE_RANK), F(same_quant, TA__F_BOOL), F(input_zp, TA__F_I32),
    F(output_zp, TA__F_I32), F(mult, TA__F_I32), F(shift, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_mean, ta_mean_params)

static ta_status prep_mean(ta__op_ctx *c) {
    ta_mean_params *p = (ta_mean_params *)c->params;
    ta_status st = ta__op_reduce_axes(c, p);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (in->dtype == TA_DTYPE_FLOAT32) {
        c->path = TA__P_F32;
        return TA_OK;
    }
    if (in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    c->path = TA__P_S8;
    p->input_zp = ta__op_zp(in);
    p->output_zp = ta__op_zp(out);
    p->same_quant = false; /* TFLM (reference commit) always requantises; see kernels.h */
    if (!(ta__op_scale(out) > 0.0f)) return ta__op_fail(c, TA_E_MALFORMED, "output scale is not positive");
    ta_quant_multiplier((double)ta__op_scale(in) / (double)ta__op_scale(out), &p->mult, &p->shift);
    if (p->shift > 30) return ta__op_fail(c, TA_E_UNSUPPORTED, "requantisation ratio out of range");
    c->scratch = ta_kernel_mean_s8_scratch_bytes(p);
    return TA_OK;
}

static ta_status run_mean(const ta__op_run *r) {
    const ta_mean_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *out = ta__op_out_ptr(r, 0);
    return r->path == TA__P_S8 ? ta_kernel_mean_s8(p, in, out, r->scratch, r->scratch_bytes)
                               : ta_kernel_mean_f32(p, in, out);
}

/* int8 MEAN sums in int32 scratch (the kernel refuses it unaligned). */
static const ta__op_align k_align_mean = {.scratch = 4};
TA__OP_DEF_ALIGNED(ta_op_MEAN, MEAN, ta_mean_params, k_fields_mean, TA__CLEAR_PADDING(clear_mean), prep_mean, run_mean, 0,
                   TA__T(FLOAT32) | TA__T(INT8), &k_align_mean);
