/*
 * CONV_2D and DEPTHWISE_CONV_2D: 4-D input, filter and output, optional
 * bias; int8 (per-channel requantisation), int16 x int8 (CONV_2D: int64 or
 * int32 bias) and float32.  SAME/VALID padding as TFLM's prepare computes
 * it, and EXPLICIT padding for a PAD folded into the conv (rewrite.h).
 */
#include "runtime/kernels/kernel_variants.h"
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_conv_params
static const ta__field k_fields_conv[] = {
    D4(input), D4(filter), D4(output), F(stride_h, TA__F_I32), F(stride_w, TA__F_I32), F(dilation_h, TA__F_I32),
    F(dilation_w, TA__F_I32), F(pad_h, TA__F_I32), F(pad_w, TA__F_I32), REQUANT(q), F(act_min, TA__F_F32),
    F(act_max, TA__F_F32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_conv, ta_conv_params)

/* clang-format off */
#define TA__PARAMS_T ta_dwconv_params
static const ta__field k_fields_dw[] = {
    D4(input), D4(filter), D4(output), F(depth_multiplier, TA__F_I32), F(stride_h, TA__F_I32),
    F(stride_w, TA__F_I32), F(dilation_h, TA__F_I32), F(dilation_w, TA__F_I32), F(pad_h, TA__F_I32),
    F(pad_w, TA__F_I32), REQUANT(q), F(act_min, TA__F_F32), F(act_max, TA__F_F32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_dw, ta_dwconv_params)

/* CONV_2D and DEPTHWISE_CONV_2D: input, filter, optional bias and output;
 * the three 4-D shapes. */
static ta_status conv_io(ta__op_ctx *c, ta_dims4 *in, ta_dims4 *filter, ta_dims4 *out) {
    ta_status st = ta__op_need_io(c, 2, 3, 1);
    if (st) return st;
    if ((st = ta__op_dims4(c, ta__op_in(c, 0), in)) || (st = ta__op_dims4(c, ta__op_in(c, 1), filter)) ||
        (st = ta__op_dims4(c, ta__op_out(c, 0), out)))
        return st;
    return TA_OK;
}

/* One spatial axis (w_axis: width, else height) of a conv or depthwise
 * conv: the stride and dilation (absent: 1) from the options, the output
 * extent (returned) and the leading padding.  SAME/VALID as TFLM's prepare
 * computes them; EXPLICIT (a PAD op folded into the conv by a rewrite,
 * rewrite.h) pads `lead` before and `trail` after, and the output is VALID's
 * over the padded extent.  The kernels take only the leading amount: taps
 * past the input's far edge are skipped, which is the trailing padding. */
static int32_t conv_axis(const ta__op_ctx *c, bool w_axis, int32_t in, int32_t filter, int32_t *stride_out,
                         int32_t *dilation_out, int32_t *lead_out) {
    const ta_op_options *o = &c->op->opt;
    const int32_t stride = w_axis ? o->stride_w : o->stride_h, dil = w_axis ? o->dilation_w : o->dilation_h;
    const int32_t dilation = dil > 0 ? dil : 1;
    const int32_t lead = w_axis ? o->pad_left : o->pad_top, trail = w_axis ? o->pad_right : o->pad_bottom;
    *stride_out = stride;
    *dilation_out = dilation;
    if (o->padding == TA_PAD_EXPLICIT) {
        const int64_t padded = (int64_t)in + lead + trail;
        *lead_out = lead;
        if (lead < 0 || trail < 0 || padded > INT32_MAX) return 0; /* refused as a shape mismatch */
        return ta_kernel_out_size(TA_PAD_VALID, (int32_t)padded, filter, stride, dilation);
    }
    const int32_t out = ta_kernel_out_size(o->padding, in, filter, stride, dilation);
    *lead_out = ta_kernel_padding(stride, dilation, in, filter, out, NULL);
    return out;
}

static ta_status prep_conv_s16(ta__op_ctx *c, ta_requant *q, int32_t channels) {
    return ta__op_prep_s16x8(c, ta__op_in(c, 0), ta__op_in(c, 1), ta__op_in(c, 2), ta__op_out(c, 0), q, channels, true);
}

static ta_status prep_conv(ta__op_ctx *c) {
    ta_conv_params *p = (ta_conv_params *)c->params;
    ta_status st = conv_io(c, &p->input, &p->filter, &p->output);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *w = ta__op_in(c, 1), *b = ta__op_in(c, 2), *out = ta__op_out(c, 0);
    const int32_t oh = conv_axis(c, false, p->input.h, p->filter.h, &p->stride_h, &p->dilation_h, &p->pad_h);
    const int32_t ow = conv_axis(c, true, p->input.w, p->filter.w, &p->stride_w, &p->dilation_w, &p->pad_w);
    if (oh != p->output.h || ow != p->output.w || p->output.c != p->filter.n || p->input.c % p->filter.c)
        return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match input, filter and options");
    if (p->output.n != p->input.n) return ta__op_fail(c, TA_E_MALFORMED, "output batch differs from input");
    /* grouped conv: the kernel maps output channel oc to group oc / (filter.n / groups) */
    if (p->filter.n % (p->input.c / p->filter.c))
        return ta__op_fail(c, TA_E_MALFORMED,
                           "filter count is not a multiple of the groups (input channels / filter channels)");
    if ((st = ta__op_bias_len(c, b, p->output.c))) return st;
    if (!w->data) return ta__op_fail(c, TA_E_UNSUPPORTED, "filter is not constant");
    if (in->dtype == TA_DTYPE_INT16) {
        if ((st = ta__op_acc64_ok(c, b, (int64_t)p->filter.h * p->filter.w * p->filter.c, 23))) return st;
        return prep_conv_s16(c, &p->q, p->output.c);
    }
    if (in->dtype == TA_DTYPE_INT8)
        return ta__op_prep_s8_weights(c, in, w, b, out, "filter", p->output.c, false, &p->q);
    if (in->dtype == TA_DTYPE_FLOAT32) return ta__op_prep_f32_weights(c, w, b, out, "filter", &p->act_min, &p->act_max);
    return ta__op_fail_type(c, "input", in->dtype);
}

static ta_status prep_dwconv(ta__op_ctx *c) {
    ta_dwconv_params *p = (ta_dwconv_params *)c->params;
    ta_status st = conv_io(c, &p->input, &p->filter, &p->output);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *w = ta__op_in(c, 1), *b = ta__op_in(c, 2), *out = ta__op_out(c, 0);
    const int32_t oh = conv_axis(c, false, p->input.h, p->filter.h, &p->stride_h, &p->dilation_h, &p->pad_h);
    const int32_t ow = conv_axis(c, true, p->input.w, p->filter.w, &p->stride_w, &p->dilation_w, &p->pad_w);
    if (p->output.c % p->input.c)
        return ta__op_fail(c, TA_E_MALFORMED, "output channels are not a multiple of input channels");
    p->depth_multiplier = p->output.c / p->input.c;
    if (oh != p->output.h || ow != p->output.w || p->filter.n != 1 || p->filter.c != p->output.c ||
        p->output.n != p->input.n)
        return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match input, filter and options");
    if ((st = ta__op_bias_len(c, b, p->output.c))) return st;
    if (!w->data) return ta__op_fail(c, TA_E_UNSUPPORTED, "filter is not constant");
    if (in->dtype == TA_DTYPE_INT8) {
        if ((st = ta__op_prep_s8_weights(c, in, w, b, out, "filter", p->output.c, false, &p->q))) return st;
    } else if (in->dtype == TA_DTYPE_FLOAT32) {
        if (w->dtype != TA_DTYPE_FLOAT32 || out->dtype != TA_DTYPE_FLOAT32)
            return ta__op_fail_type(c, "filter/output", w->dtype);
        if (b && b->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, "bias", b->dtype);
        c->path = TA__P_F32;
        if ((st = ta__op_float_act(c, &p->act_min, &p->act_max))) return st;
    } else {
        return ta__op_fail_type(c, "input", in->dtype);
    }
    /* DWINPLACE (rewrite.h) marked this op: it will run over its input's
     * buffer through a one-channel scratch.  The record says so (path and
     * scratch bytes), so firmware running from the const blob does the same.
     * A geometry the in-place kernel cannot take keeps the normal path (the
     * rewrite's pass 2 then keeps the buffers apart: it checks the same). */
    if (c->op->opt.in_place && in->dtype == out->dtype) {
        const size_t sb = ta_kernel_depthwise_conv2d_inplace_scratch(p, ta_dtype_size(in->dtype));
        if (sb) {
            c->path = c->path == TA__P_F32 ? TA__P_F32_INPLACE : TA__P_S8_INPLACE;
            c->scratch = sb;
        }
    }
    return TA_OK;
}

/* The int8 kernel picks its own variants; the other types are one variant
 * each, reached through the table (tinyarena/kernel_link.h) so that a
 * firmware whose model has no such op does not link them. */
static ta_status conv_call(const ta__op_run *r, const ta_conv_params *p, const void *in, void *out) {
    void *w = ta__op_in_ptr(r, 1), *b = ta__op_in_ptr(r, 2);
    if (r->path == TA__P_S8) return ta_kernel_conv2d_s8(p, in, w, b, out);
    const unsigned v = r->path == TA__P_S16       ? TA_KV_CONV_S16
                       : r->path == TA__P_S16_B32 ? TA_KV_CONV_S16_B32
                                                  : TA_KV_CONV_F32;
    ta_kernel_args a = {.p = p, .input = in, .weights = w, .bias = b, .output = out};
    TA__KV_NOTE(TA_KV_BIT(v));
    return ta__kv_run(v, &a);
}

/* Disjoint input and output (every plan without the OVERLAP rewrite): one
 * call.  Overlapping: walk.h's ROWS walk -- output rows in order, each band
 * of consecutive rows one call on the input rows from the band's first
 * window row on -- whatever loop order the kernel (reference, fast, x86 or
 * Cortex-M) has inside a call.  A band is as many rows as the addresses
 * allow (ta__op_rows_band: none of its bytes on an input byte it or a later
 * band reads), so a row the walk's d permits never waits, and the fast
 * kernels' per-call setup is paid a few times, not once per row.  Each
 * call's arithmetic per output element is the whole call's, so the bytes
 * are the same. */
static ta_status conv_band(const ta__op_run *r, const void *ctx, const ta__op_band *band) {
    const ta_conv_params *p = ctx;
    if (!band) return conv_call(r, p, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
    ta_conv_params q = *p;
    q.input.n = q.output.n = 1;
    q.output.h = band->out_h;
    q.input.h = band->in_h;
    q.pad_h = band->pad;
    return conv_call(r, &q, band->in, band->out);
}

static void conv_geom(const ta__op_run *r, ta__op_rows_geom *g) {
    const ta_conv_params *p = r->params;
    const size_t e = r->path == TA__P_S8 ? 1 : r->path == TA__P_F32 ? 4 : 2;
    *g = (ta__op_rows_geom){.in_n = p->input.n,
                            .in_h = p->input.h,
                            .out_n = p->output.n,
                            .out_h = p->output.h,
                            .stride = p->stride_h,
                            .pad = p->pad_h,
                            .dilation = p->dilation_h,
                            .taps = p->filter.h,
                            .in_row = (size_t)p->input.w * (size_t)p->input.c * e,
                            .out_row = (size_t)p->output.w * (size_t)p->output.c * e};
}

static ta_status run_conv(const ta__op_run *r) {
    ta__op_rows_geom g;
    conv_geom(r, &g);
    return ta__op_rows_walk(r, &g, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0), conv_band, r->params);
}

/* A patch stage's band (patch.h): the reference or fast kernel on the
 * band's rows, whatever the record's in-place path -- a stage keeps its
 * depthwise convs out of place (their DWINPLACE mark is cleared). */
static void dw_geom(const ta__op_run *r, ta__op_rows_geom *g) {
    const ta_dwconv_params *p = r->params;
    const size_t e = r->path == TA__P_S8 || r->path == TA__P_S8_INPLACE ? 1 : 4;
    *g = (ta__op_rows_geom){.in_n = p->input.n,
                            .in_h = p->input.h,
                            .out_n = p->output.n,
                            .out_h = p->output.h,
                            .stride = p->stride_h,
                            .pad = p->pad_h,
                            .dilation = p->dilation_h,
                            .taps = p->filter.h,
                            .in_row = (size_t)p->input.w * (size_t)p->input.c * e,
                            .out_row = (size_t)p->output.w * (size_t)p->output.c * e};
}

static ta_status dw_band(const ta__op_run *r, const void *ctx, const ta__op_band *band) {
    ta_dwconv_params q = *(const ta_dwconv_params *)ctx;
    const void *w = ta__op_in_ptr(r, 1), *b = ta__op_in_ptr(r, 2);
    q.input.n = q.output.n = 1;
    q.output.h = band->out_h;
    q.input.h = band->in_h;
    q.pad_h = band->pad;
    const void *in = band->in;
    void *out = band->out;
    return r->path == TA__P_S8 || r->path == TA__P_S8_INPLACE ? ta_kernel_depthwise_conv2d_s8(&q, in, w, b, out)
                                                                : ta_kernel_depthwise_conv2d_f32(&q, in, w, b, out);
}

static const ta__op_banded k_conv_banded = {conv_geom, conv_band, NULL};
static const ta__op_banded k_dw_banded = {dw_geom, dw_band, NULL};

static ta_status run_dwconv(const ta__op_run *r) {
    const ta_dwconv_params *p = r->params;
    void *in = ta__op_in_ptr(r, 0), *w = ta__op_in_ptr(r, 1), *b = ta__op_in_ptr(r, 2), *out = ta__op_out_ptr(r, 0);
    /* an in-place record whose output did not get its input's bytes (the
     * plan kept them apart) runs the normal kernel; one that did runs over
     * them: the output starts or ends where the input does, or the buffers
     * are disjoint */
    ta_kernel_args a = {.p = p, .weights = w, .bias = b, .output = out, .scratch = r->scratch,
                        .scratch_bytes = r->scratch_bytes};
    const unsigned vip = r->path == TA__P_S8_INPLACE ? TA_KV_DW_S8_INPLACE : TA_KV_DW_F32_INPLACE;
    if ((r->path == TA__P_S8_INPLACE || r->path == TA__P_F32_INPLACE) && in == out) {
        TA__KV_NOTE(TA_KV_BIT(vip));
        return ta__kv_run(vip, &a);
    }
    /* or over its input's tail, ending where the input ends (pass 2 puts it
     * there when that leaves the front to the next op's overlap) */
    if (r->path == TA__P_S8_INPLACE || r->path == TA__P_F32_INPLACE) {
        const size_t e = r->path == TA__P_S8_INPLACE ? 1 : 4;
        const size_t xs = (size_t)p->input.n * (size_t)p->input.h * (size_t)p->input.w * (size_t)p->input.c * e;
        const size_t ys = (size_t)p->output.n * (size_t)p->output.h * (size_t)p->output.w * (size_t)p->output.c * e;
        if (ys <= xs && (uint8_t *)out == (uint8_t *)in + (xs - ys)) {
            a.output = in;
            a.from = 1; /* the _end kernels */
            TA__KV_NOTE(TA_KV_BIT(vip));
            return ta__kv_run(vip, &a);
        }
    }
    if (r->path == TA__P_S8 || r->path == TA__P_S8_INPLACE) return ta_kernel_depthwise_conv2d_s8(p, in, w, b, out);
    a.input = in;
    TA__KV_NOTE(TA_KV_BIT(TA_KV_DW_F32));
    return ta__kv_run(TA_KV_DW_F32, &a);
}

TA__OP_DEF_BANDED(ta_op_CONV_2D, CONV_2D, ta_conv_params, k_fields_conv, TA__CLEAR_PADDING(clear_conv), prep_conv,
                  run_conv, 0, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT16), &k_conv_banded);
const ta_op_def ta_op_DEPTHWISE_CONV_2D = {(uint16_t)TA_OP_DEPTHWISE_CONV_2D, 0, (uint8_t)TA__OVERLAP_NONE,
                                           "DEPTHWISE_CONV_2D", k_fields_dw, (uint16_t)TA__COUNT(k_fields_dw),
                                           (uint16_t)sizeof(ta_dwconv_params), TA__CLEAR_PADDING(clear_dw),
                                           TA__OP_PREP(prep_dwconv), run_dwconv, NULL,
                                           .types = TA__T(FLOAT32) | TA__T(INT8), .align = NULL,
                                           .banded = TA__OP_BANDED(&k_dw_banded)};
