/*
 * AVERAGE_POOL_2D and MAX_POOL_2D (one params struct): int8 and float32.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_pool_params
static const ta__field k_fields_pool[] = {
    D4(input), D4(output), F(filter_h, TA__F_I32), F(filter_w, TA__F_I32), F(stride_h, TA__F_I32),
    F(stride_w, TA__F_I32), F(pad_h, TA__F_I32), F(pad_w, TA__F_I32), F(act_min, TA__F_I32), F(act_max, TA__F_I32),
    F(f_act_min, TA__F_F32), F(f_act_max, TA__F_F32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_pool, ta_pool_params)

static ta_status prep_pool(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    ta_pool_params *p = (ta_pool_params *)c->params;
    if ((st = ta__op_dims4(c, in, &p->input)) || (st = ta__op_dims4(c, out, &p->output))) return st;
    const ta_op_options *o = &c->op->opt;
    p->filter_h = o->filter_h;
    p->filter_w = o->filter_w;
    p->stride_h = o->stride_h;
    p->stride_w = o->stride_w;
    if (p->filter_h <= 0 || p->filter_w <= 0 || p->stride_h <= 0 || p->stride_w <= 0)
        return ta__op_fail(c, TA_E_MALFORMED, "filter size and stride must be positive");
    int32_t oh = ta_kernel_out_size(o->padding, p->input.h, p->filter_h, p->stride_h, 1);
    int32_t ow = ta_kernel_out_size(o->padding, p->input.w, p->filter_w, p->stride_w, 1);
    p->pad_h = ta_kernel_padding(p->stride_h, 1, p->input.h, p->filter_h, oh, NULL);
    p->pad_w = ta_kernel_padding(p->stride_w, 1, p->input.w, p->filter_w, ow, NULL);
    if (oh != p->output.h || ow != p->output.w || p->output.c != p->input.c || p->output.n != p->input.n)
        return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match input and options");
    if (in->dtype != out->dtype) return ta__op_fail_type(c, "output", out->dtype);
    if (in->dtype == TA_DTYPE_INT8) {
        c->path = TA__P_S8;
        st = ta_quant_activation_range(o->activation, ta__op_scale(out), ta__op_zp(out), TA_DTYPE_INT8, &p->act_min,
                                       &p->act_max);
        return st ? ta__op_fail(c, st, "unsupported fused activation") : TA_OK;
    }
    if (in->dtype == TA_DTYPE_FLOAT32) {
        c->path = TA__P_F32;
        return ta__op_float_act(c, &p->f_act_min, &p->f_act_max);
    }
    return ta__op_fail_type(c, "input", in->dtype);
}

static ta_status pool_call(const ta__op_run *r, bool avg, const ta_pool_params *p, const void *in, void *out) {
    if (avg) return r->path == TA__P_S8 ? ta_kernel_avg_pool_s8(p, in, out) : ta_kernel_avg_pool_f32(p, in, out);
    return r->path == TA__P_S8 ? ta_kernel_max_pool_s8(p, in, out) : ta_kernel_max_pool_f32(p, in, out);
}

/* One call when input and output are disjoint; else walk.h's ROWS walk,
 * one call per band of output rows (conv.c's run_conv says why this is
 * exact). */
struct pool_ctx {
    const ta_pool_params *p;
    bool avg;
};

static ta_status pool_band(const ta__op_run *r, const void *ctx, const ta__op_band *band) {
    const struct pool_ctx *x = ctx;
    if (!band) return pool_call(r, x->avg, x->p, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
    ta_pool_params q = *x->p;
    q.input.n = q.output.n = 1;
    q.output.h = band->out_h;
    q.input.h = band->in_h;
    q.pad_h = band->pad;
    return pool_call(r, x->avg, &q, band->in, band->out);
}

static void pool_geom(const ta__op_run *r, ta__op_rows_geom *g) {
    const ta_pool_params *p = r->params;
    const size_t e = r->path == TA__P_S8 ? 1 : 4;
    *g = (ta__op_rows_geom){.in_n = p->input.n,
                            .in_h = p->input.h,
                            .out_n = p->output.n,
                            .out_h = p->output.h,
                            .stride = p->stride_h,
                            .pad = p->pad_h,
                            .dilation = 1,
                            .taps = p->filter_h,
                            .in_row = (size_t)p->input.w * (size_t)p->input.c * e,
                            .out_row = (size_t)p->output.w * (size_t)p->output.c * e};
}

static ta_status run_pool(const ta__op_run *r, bool avg) {
    ta__op_rows_geom g;
    pool_geom(r, &g);
    const struct pool_ctx x = {r->params, avg};
    return ta__op_rows_walk(r, &g, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0), pool_band, &x);
}

static ta_status run_avg_pool(const ta__op_run *r) { return run_pool(r, true); }
static ta_status run_max_pool(const ta__op_run *r) { return run_pool(r, false); }

/* A patch stage's band (patch.h). */
static ta_status avg_band(const ta__op_run *r, const void *ctx, const ta__op_band *band) {
    const struct pool_ctx x = {ctx, true};
    return pool_band(r, &x, band);
}
static ta_status max_band(const ta__op_run *r, const void *ctx, const ta__op_band *band) {
    const struct pool_ctx x = {ctx, false};
    return pool_band(r, &x, band);
}
static const ta__op_banded k_avg_banded = {pool_geom, avg_band, NULL};
static const ta__op_banded k_max_banded = {pool_geom, max_band, NULL};

TA__OP_DEF_BANDED(ta_op_AVERAGE_POOL_2D, AVERAGE_POOL_2D, ta_pool_params, k_fields_pool, TA__CLEAR_PADDING(clear_pool),
                  prep_pool, run_avg_pool, 0, TA__T(FLOAT32) | TA__T(INT8), &k_avg_banded);
TA__OP_DEF_BANDED(ta_op_MAX_POOL_2D, MAX_POOL_2D, ta_pool_params, k_fields_pool, TA__CLEAR_PADDING(clear_pool),
                  prep_pool, run_max_pool, 0, TA__T(FLOAT32) | TA__T(INT8), &k_max_banded);
