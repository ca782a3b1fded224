/*
 * TRANSPOSE_CONV: inputs output_shape (ignored, as TFLM), filter, input and
 * optional bias; int8, int16 x int8 (int64 bias) and float32.  The int
 * paths accumulate in kernel scratch (TFLM's sizes), unless the GATHER
 * rewrite marked the op: then they run output-stationary with no scratch.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_tconv_params
static const ta__field k_fields_tconv[] = {
    D4(input), D4(filter), D4(output), F(stride_h, TA__F_I32), F(stride_w, TA__F_I32), F(pad_h, TA__F_I32),
    F(pad_w, TA__F_I32), REQUANT(q)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_tconv, ta_tconv_params)

/* TRANSPOSE_CONV: inputs output_shape (ignored, as TFLM), filter, input,
 * bias (optional). */
static ta_status prep_tconv(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 3, 4, 1);
    if (st) return st;
    const ta_tensor *w = ta__op_in(c, 1), *in = ta__op_in(c, 2), *b = ta__op_in(c, 3), *out = ta__op_out(c, 0);
    ta_tconv_params *p = (ta_tconv_params *)c->params;
    if ((st = ta__op_dims4(c, in, &p->input)) || (st = ta__op_dims4(c, w, &p->filter)) ||
        (st = ta__op_dims4(c, out, &p->output)))
        return st;
    const ta_op_options *o = &c->op->opt;
    p->stride_h = o->stride_h;
    p->stride_w = o->stride_w;
    if (p->stride_h <= 0 || p->stride_w <= 0) return ta__op_fail(c, TA_E_MALFORMED, "stride must be positive");
    /* TFLM: padding over the output extent, dilation 1 */
    const int32_t oh = ta_kernel_out_size(o->padding, p->output.h, p->filter.h, p->stride_h, 1);
    const int32_t ow = ta_kernel_out_size(o->padding, p->output.w, p->filter.w, p->stride_w, 1);
    p->pad_h = ta_kernel_padding(p->stride_h, 1, p->output.h, p->filter.h, oh, NULL);
    p->pad_w = ta_kernel_padding(p->stride_w, 1, p->output.w, p->filter.w, ow, NULL);
    if (p->filter.c != p->input.c || p->filter.n != p->output.c || p->input.n != p->output.n)
        return ta__op_fail(c, TA_E_MALFORMED, "filter does not match input and output channels");
    if ((st = ta__op_bias_len(c, b, p->output.c))) return st;
    if (!w->data) return ta__op_fail(c, TA_E_UNSUPPORTED, "filter is not constant");
    if (in->dtype != out->dtype) return ta__op_fail_type(c, "output", out->dtype);
    if (in->dtype == TA_DTYPE_FLOAT32) {
        if (w->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, "filter", w->dtype);
        if (b && b->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, "bias", b->dtype);
        if (o->activation != TA_ACT_NONE)
            return ta__op_fail(c, TA_E_UNSUPPORTED, "fused activation on float transpose conv");
        c->path = TA__P_F32;
        return TA_OK;
    }
    /* GATHER (rewrite.h) marked the op: the record says so (path, no
     * scratch), so firmware running from the const blob does the same.
     * Unmarked, the scratch is TFLM's: --rewrite none and --tflm-offline
     * keep TFLM's figures exactly. */
    const bool gather = o->gather;
    if (in->dtype == TA_DTYPE_INT8) {
        c->scratch = gather ? 0 : ta_kernel_transpose_conv_scratch_bytes(p, TA_DTYPE_INT8);
        if ((st = ta__op_prep_s8_weights(c, in, w, b, out, "filter", p->output.c, false, &p->q))) return st;
        if (gather) c->path = TA__P_S8_GATHER;
        return TA_OK;
    }
    if (in->dtype == TA_DTYPE_INT16) {
        /* an output element gathers at most filter.h x filter.w x input.c
         * products: the int64 sum cannot overflow, in any order */
        if ((st = ta__op_acc64_ok(c, b, (int64_t)p->filter.h * p->filter.w * p->input.c, 23))) return st;
        c->scratch = gather ? 0 : ta_kernel_transpose_conv_scratch_bytes(p, TA_DTYPE_INT16);
        if ((st = ta__op_prep_s16x8(c, in, w, b, out, &p->q, p->output.c, false))) return st;
        if (gather) c->path = TA__P_S16_GATHER;
        return TA_OK;
    }
    return ta__op_fail_type(c, "input", in->dtype);
}

static ta_status run_tconv(const ta__op_run *r) {
    const ta_tconv_params *p = r->params;
    void *w = ta__op_in_ptr(r, 1), *in = ta__op_in_ptr(r, 2), *b = ta__op_in_ptr(r, 3), *out = ta__op_out_ptr(r, 0);
    switch (r->path) {
    case TA__P_S8: return ta_kernel_transpose_conv_s8(p, in, w, b, out, r->scratch, r->scratch_bytes);
    case TA__P_S16: return ta_kernel_transpose_conv_s16(p, in, w, b, out, r->scratch, r->scratch_bytes);
    case TA__P_S8_GATHER: return ta_kernel_transpose_conv_gather_s8(p, in, w, b, out);
    case TA__P_S16_GATHER: return ta_kernel_transpose_conv_gather_s16(p, in, w, b, out);
    default: return ta_kernel_transpose_conv_f32(p, in, w, b, out);
    }
}

/* The scratch holds int32 (int8) or int64 (16x8) accumulators: 8 covers
 * both, and the kernel refuses less. */
static const ta__op_align k_align_tconv = {.scratch = 8};
TA__OP_DEF_ALIGNED(ta_op_TRANSPOSE_CONV, TRANSPOSE_CONV, ta_tconv_params, k_fields_tconv, TA__CLEAR_PADDING(clear_tconv),
                   prep_tconv, run_tconv, 0, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16), &k_align_tconv);
