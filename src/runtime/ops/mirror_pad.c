/*
 * MIRROR_PAD with constant int32 paddings, rank up to 5, REFLECT or
 * SYMMETRIC; float32, int8, int32 and int64 (TFLM's types).  Each padding
 * is at most the dim (minus one for REFLECT), so every mirrored index is
 * inside the input.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_mirror_pad_params
static const ta__field k_fields_mp[] = {
    F(rank, TA__F_I32), FA(in_shape, TA__F_I32, TA_KERNEL_MAX_PAD_RANK), FA(before, TA__F_I32, TA_KERNEL_MAX_PAD_RANK),
    FA(after, TA__F_I32, TA_KERNEL_MAX_PAD_RANK), F(offset, TA__F_I32), F(elem_size, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_mp, ta_mirror_pad_params)

static ta_status prep_mirror_pad(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    const ta_dtype t = in->dtype;
    if (t != TA_DTYPE_FLOAT32 && t != TA_DTYPE_INT8 && t != TA_DTYPE_INT32 && t != TA_DTYPE_INT64)
        return ta__op_fail_type(c, "input", t);
    if (out->dtype != t) return ta__op_fail_type(c, "output", out->dtype);
    const int32_t *pd;
    int64_t n;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &pd, &n))) return st;
    if (in->rank < 1 || in->rank > TA_KERNEL_MAX_PAD_RANK || out->rank != in->rank)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "rank must be 1..5 (input and output)");
    if (n != 2 * (int64_t)in->rank) return ta__op_fail(c, TA_E_MALFORMED, "paddings must be rank x 2");
    if (c->op->opt.mirror_mode != 0 && c->op->opt.mirror_mode != 1)
        return ta__op_fail(c, TA_E_MALFORMED, "mode is neither REFLECT nor SYMMETRIC");
    ta_mirror_pad_params *p = (ta_mirror_pad_params *)c->params;
    p->rank = in->rank;
    p->offset = c->op->opt.mirror_mode == 0 ? 1 : 0;
    p->elem_size = (int32_t)ta_dtype_size(t);
    for (int32_t d = 0; d < in->rank; d++) {
        const int32_t b = pd[2 * d], a = pd[2 * d + 1];
        if (in->shape[d] < 1 || b < 0 || a < 0 || b > in->shape[d] - p->offset || a > in->shape[d] - p->offset)
            return ta__op_fail(c, TA_E_MALFORMED, "a padding is negative or wider than the input allows");
        if ((int64_t)in->shape[d] + a + b != out->shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "output shape does not match the paddings");
        p->in_shape[d] = in->shape[d];
        p->before[d] = b;
        p->after[d] = a;
    }
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_mirror_pad(const ta__op_run *r) {
    return ta_kernel_mirror_pad(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_MIRROR_PAD, MIRROR_PAD, ta_mirror_pad_params, k_fields_mp, TA__CLEAR_PADDING(clear_mp),
           prep_mirror_pad, run_mirror_pad, 0, TA__T(FLOAT32) | TA__T(INT8) | TA__T(INT32) | TA__T(INT64));
