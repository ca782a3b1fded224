/*
 * RESIZE_NEAREST_NEIGHBOR to a constant size, any element size.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_resize_params
static const ta__field k_fields_rs[] = {
    D4(input), F(out_h, TA__F_I32), F(out_w, TA__F_I32), F(align_corners, TA__F_BOOL),
    F(half_pixel_centers, TA__F_BOOL), F(elem_size, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_rs, ta_resize_params)

static ta_status prep_resize(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    const int32_t *size;
    int64_t ns;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &size, &ns))) return st;
    ta_resize_params *p = (ta_resize_params *)c->params;
    ta_dims4 od;
    if ((st = ta__op_dims4(c, in, &p->input)) || (st = ta__op_dims4(c, out, &od))) return st;
    if (ns != 2 || size[0] != od.h || size[1] != od.w || od.c != p->input.c || od.n != p->input.n)
        return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match the size operand");
    if (in->dtype != out->dtype) return ta__op_fail_type(c, "output", out->dtype);
    p->out_h = od.h;
    p->out_w = od.w;
    p->align_corners = c->op->opt.align_corners;
    p->half_pixel_centers = c->op->opt.half_pixel_centers;
    p->elem_size = ta_dtype_size(in->dtype);
    if (!p->elem_size || in->dtype == TA_DTYPE_INT4) return ta__op_fail_type(c, "input", in->dtype);
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_resize(const ta__op_run *r) {
    return ta_kernel_resize_nearest(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_RESIZE_NEAREST_NEIGHBOR, RESIZE_NEAREST_NEIGHBOR, ta_resize_params, k_fields_rs,
           TA__CLEAR_PADDING(clear_rs), prep_resize, run_resize, 0, TA__T_ANY);
