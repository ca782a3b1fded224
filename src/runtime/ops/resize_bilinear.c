/*
 * RESIZE_BILINEAR with a constant size, NHWC, float32 and int8 (TFLM's
 * types; int8 interpolates raw values, so input and output share their
 * quantisation in practice, and TFLM does not check it either).
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_resize_bilinear_params
static const ta__field k_fields_rb[] = {
    D4(in), F(out_h, TA__F_I32), F(out_w, TA__F_I32), F(align_corners, TA__F_BOOL),
    F(half_pixel_centers, TA__F_BOOL)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_rb, ta_resize_bilinear_params)

static ta_status prep_rb(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    ta_dims4 i, o;
    if ((st = ta__op_dims4(c, in, &i)) || (st = ta__op_dims4(c, out, &o))) return st;
    if (in->dtype != TA_DTYPE_FLOAT32 && in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    if (out->dtype != in->dtype) return ta__op_fail_type(c, "output", out->dtype);
    const int32_t *sz;
    int64_t n;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &sz, &n))) return st;
    if (n != 2 || sz[0] != o.h || sz[1] != o.w || o.n != i.n || o.c != i.c)
        return ta__op_fail(c, TA_E_MALFORMED, "size differs from the output's height and width");
    ta_resize_bilinear_params *p = (ta_resize_bilinear_params *)c->params;
    p->align_corners = c->op->opt.align_corners;
    p->half_pixel_centers = c->op->opt.half_pixel_centers;
    if (p->align_corners && p->half_pixel_centers)
        return ta__op_fail(c, TA_E_MALFORMED, "align_corners and half_pixel_centers both set");
    /* the int8 kernel's 10-bit coordinates: 1024 * size and out * scale in int32 */
    if (i.h > (1 << 20) || i.w > (1 << 20) || o.h > (1 << 20) || o.w > (1 << 20))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "height or width above 2^20");
    int64_t hs = ((INT64_C(1) << 10) * i.h + o.h / 2) / o.h, ws = ((INT64_C(1) << 10) * i.w + o.w / 2) / o.w;
    if (p->align_corners && o.h > 1) hs = ((INT64_C(1) << 10) * (i.h - 1) + (o.h - 1) / 2) / (o.h - 1);
    if (p->align_corners && o.w > 1) ws = ((INT64_C(1) << 10) * (i.w - 1) + (o.w - 1) / 2) / (o.w - 1);
    if ((int64_t)o.h * hs + hs >= INT32_MAX || (int64_t)o.w * ws + ws >= INT32_MAX)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "scaled coordinates beyond int32");
    p->in = i;
    p->out_h = o.h;
    p->out_w = o.w;
    c->path = in->dtype == TA_DTYPE_FLOAT32 ? TA__P_F32 : TA__P_S8;
    return TA_OK;
}

static ta_status run_rb(const ta__op_run *r) {
    return r->path == TA__P_F32 ? ta_kernel_resize_bilinear_f32(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0))
                                : ta_kernel_resize_bilinear_s8(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_RESIZE_BILINEAR, RESIZE_BILINEAR, ta_resize_bilinear_params, k_fields_rb, TA__CLEAR_PADDING(clear_rb),
           prep_rb, run_rb, 0, TA__T(FLOAT32) | TA__T(INT8));
