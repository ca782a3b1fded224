/*
 * SPACE_TO_DEPTH, DEPTH_TO_SPACE, SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND,
 * NHWC, float32 and int8 (TFLM's types; copies, so any quantisation).
 *
 * SPACE_TO_DEPTH and DEPTH_TO_SPACE are transposes of a 6-D view, run by
 * the TRANSPOSE kernel: [N, H/b, b, W/b, b, C] -> [N, H/b, W/b, b, b, C]
 * (the output depth index is (dy * b + dx) * C + c, TFLM's order), and
 * [N, H, W, b, b, C/b^2] -> [N, H, b, W, b, C/b^2].
 *
 * SPACE_TO_BATCH_ND pads with raw zero bytes, also for int8 with a
 * non-zero zero point (TFLM's quirk, kept: the manifest's int8 case has
 * zero point -3 and TFLM writes 0 at the padded positions).  3-D inputs
 * [N, H, C] run as [N, H, 1, C], as TFLM extends them.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_transpose_params
static const ta__field k_fields_s2d[] = {
    F(rank, TA__F_I32), FA(in_shape, TA__F_I32, TA_KERNEL_MAX_TRANSPOSE_RANK),
    FA(perm, TA__F_I32, TA_KERNEL_MAX_TRANSPOSE_RANK), F(elem_size, TA__F_SIZE)};
#undef TA__PARAMS_T
#define TA__PARAMS_T ta_space_batch_params
static const ta__field k_fields_sb[] = {
    D4(in), D4(out), F(block_h, TA__F_I32), F(block_w, TA__F_I32), F(pad_top, TA__F_I32), F(pad_left, TA__F_I32),
    F(elem_size, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_s2d, ta_transpose_params)
TA__CLEAR_PADDING_FN(clear_sb, ta_space_batch_params)

static ta_status io_types(ta__op_ctx *c, const ta_tensor *in, const ta_tensor *out) {
    if (in->dtype != TA_DTYPE_FLOAT32 && in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    if (out->dtype != in->dtype) return ta__op_fail_type(c, "output", out->dtype);
    return TA_OK;
}

static ta_status prep_depth(ta__op_ctx *c, bool to_depth) {
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    ta_dims4 i, o;
    if ((st = io_types(c, in, out)) || (st = ta__op_dims4(c, in, &i)) || (st = ta__op_dims4(c, out, &o))) return st;
    const int32_t b = c->op->opt.block_size;
    if (b < 1 || b > 65536) return ta__op_fail(c, TA_E_MALFORMED, "block_size must be 1..65536");
    const int64_t bb = (int64_t)b * b;
    ta_transpose_params *p = (ta_transpose_params *)c->params;
    p->rank = 6;
    p->elem_size = ta_dtype_size(in->dtype);
    if (to_depth) {
        if (i.h % b || i.w % b || o.n != i.n || o.h != i.h / b || o.w != i.w / b || o.c != bb * i.c)
            return ta__op_fail(c, TA_E_MALFORMED, "shapes do not match the block size");
        const int32_t shp[6] = {i.n, i.h / b, b, i.w / b, b, i.c}, perm[6] = {0, 1, 3, 2, 4, 5};
        memcpy(p->in_shape, shp, sizeof shp);
        memcpy(p->perm, perm, sizeof perm);
    } else {
        if (i.c % bb || o.n != i.n || o.h != (int64_t)i.h * b || o.w != (int64_t)i.w * b || o.c != i.c / bb)
            return ta__op_fail(c, TA_E_MALFORMED, "shapes do not match the block size");
        const int32_t shp[6] = {i.n, i.h, i.w, b, b, (int32_t)(i.c / bb)}, perm[6] = {0, 1, 3, 2, 4, 5};
        memcpy(p->in_shape, shp, sizeof shp);
        memcpy(p->perm, perm, sizeof perm);
    }
    c->path = TA__P_COPY;
    return TA_OK;
}
static ta_status prep_s2d(ta__op_ctx *c) { return prep_depth(c, true); }
static ta_status prep_d2s(ta__op_ctx *c) { return prep_depth(c, false); }

static ta_status run_s2d(const ta__op_run *r) {
    return ta_kernel_transpose(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

/* A 3-D or 4-D tensor as NHWC (3-D: W = 1). */
static ta_status nhwc(ta__op_ctx *c, const ta_tensor *t, ta_dims4 *d) {
    if (t->rank == 4) return ta__op_dims4(c, t, d);
    if (t->rank != 3) return ta__op_fail(c, TA_E_UNSUPPORTED, "expects 3-D or 4-D tensors");
    d->n = t->shape[0];
    d->h = t->shape[1];
    d->w = 1;
    d->c = t->shape[2];
    if (d->n <= 0 || d->h <= 0 || d->c <= 0) return ta__op_fail(c, TA_E_MALFORMED, "a tensor has a non-positive dim");
    return TA_OK;
}

/* inputs: input, block_shape, paddings (crops) */
static ta_status prep_space_batch(ta__op_ctx *c, bool to_batch) {
    ta_status st = ta__op_need_io(c, 3, 3, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    ta_dims4 i, o;
    if ((st = io_types(c, in, out)) || (st = nhwc(c, in, &i)) || (st = nhwc(c, out, &o))) return st;
    if (in->rank != out->rank) return ta__op_fail(c, TA_E_MALFORMED, "input and output ranks differ");
    const int32_t *bs, *pd;
    int64_t nbs, npd;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &bs, &nbs)) ||
        (st = ta__op_const_i32(c, ta__op_in(c, 2), &pd, &npd)))
        return st;
    const int64_t sp = in->rank - 2; /* spatial dims: 1 or 2 */
    if (nbs != sp || npd != 2 * sp) return ta__op_fail(c, TA_E_MALFORMED, "block_shape / paddings of the wrong length");
    ta_space_batch_params *p = (ta_space_batch_params *)c->params;
    p->block_h = bs[0];
    p->block_w = sp == 2 ? bs[1] : 1;
    const int32_t top = pd[0], bottom = pd[1], left = sp == 2 ? pd[2] : 0, right = sp == 2 ? pd[3] : 0;
    if (p->block_h < 1 || p->block_w < 1 || top < 0 || bottom < 0 || left < 0 || right < 0)
        return ta__op_fail(c, TA_E_MALFORMED, "block sizes must be positive and paddings non-negative");
    const int64_t blocks = (int64_t)p->block_h * p->block_w;
    /* the spatial extents, with pads or crops, against the other side's */
    const ta_dims4 *sm = to_batch ? &o : &i, *lg = to_batch ? &i : &o;
    if (sm->c != lg->c || (int64_t)sm->n != (int64_t)lg->n * blocks ||
        (int64_t)sm->h * p->block_h != (int64_t)lg->h + top + bottom ||
        (int64_t)sm->w * p->block_w != (int64_t)lg->w + left + right)
        return ta__op_fail(c, TA_E_MALFORMED, "shapes do not match the block shape and paddings");
    p->in = i;
    p->out = o;
    p->pad_top = top;
    p->pad_left = left;
    p->elem_size = (int32_t)ta_dtype_size(in->dtype);
    c->path = TA__P_COPY;
    return TA_OK;
}
static ta_status prep_s2b(ta__op_ctx *c) { return prep_space_batch(c, true); }
static ta_status prep_b2s(ta__op_ctx *c) { return prep_space_batch(c, false); }

static ta_status run_s2b(const ta__op_run *r) {
    return ta_kernel_space_to_batch(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}
static ta_status run_b2s(const ta__op_run *r) {
    return ta_kernel_batch_to_space(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_SPACE_TO_DEPTH, SPACE_TO_DEPTH, ta_transpose_params, k_fields_s2d, TA__CLEAR_PADDING(clear_s2d),
           prep_s2d, run_s2d, 0, TA__T(FLOAT32) | TA__T(INT8));
TA__OP_DEF(ta_op_DEPTH_TO_SPACE, DEPTH_TO_SPACE, ta_transpose_params, k_fields_s2d, TA__CLEAR_PADDING(clear_s2d),
           prep_d2s, run_s2d, 0, TA__T(FLOAT32) | TA__T(INT8));
TA__OP_DEF(ta_op_SPACE_TO_BATCH_ND, SPACE_TO_BATCH_ND, ta_space_batch_params, k_fields_sb, TA__CLEAR_PADDING(clear_sb),
           prep_s2b, run_s2b, 0, TA__T(FLOAT32) | TA__T(INT8));
TA__OP_DEF(ta_op_BATCH_TO_SPACE_ND, BATCH_TO_SPACE_ND, ta_space_batch_params, k_fields_sb, TA__CLEAR_PADDING(clear_sb),
           prep_b2s, run_b2s, 0, TA__T(FLOAT32) | TA__T(INT8));
