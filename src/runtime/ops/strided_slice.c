/*
 * STRIDED_SLICE with constant begin, end and strides (no ellipsis or
 * new-axis masks), rank up to 5.  With positive strides its walk is a
 * forward gather: the OVERLAP rewrite may put its output over its input.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_slice_params
static const ta__field k_fields_sl[] = {
    F(rank, TA__F_I32), FA(in_shape, TA__F_I32, TA_KERNEL_MAX_SLICE_RANK),
    FA(start, TA__F_I32, TA_KERNEL_MAX_SLICE_RANK), FA(stop, TA__F_I32, TA_KERNEL_MAX_SLICE_RANK),
    FA(stride, TA__F_I32, TA_KERNEL_MAX_SLICE_RANK), F(elem_size, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_sl, ta_slice_params)

static ta_status prep_slice(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 4, 4, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    const int32_t *b, *e, *s;
    int64_t nb, ne, ns;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &b, &nb)) || (st = ta__op_const_i32(c, ta__op_in(c, 2), &e, &ne)) ||
        (st = ta__op_const_i32(c, ta__op_in(c, 3), &s, &ns)))
        return st;
    const ta_op_options *o = &c->op->opt;
    if (o->ellipsis_mask || o->new_axis_mask) return ta__op_fail(c, TA_E_UNSUPPORTED, "ellipsis/new-axis masks");
    if (nb != in->rank || ne != in->rank || ns != in->rank)
        return ta__op_fail(c, TA_E_MALFORMED, "begin/end/strides must match the input rank");
    if (in->dtype != out->dtype) return ta__op_fail_type(c, "output", out->dtype);
    /* The kernel walks each axis with int32 indices i += stride from a start
     * in [-1, n]: |stride| <= INT32_MAX - n keeps every step in range. */
    for (int32_t d = 0; d < in->rank; d++) {
        const int64_t mag = s[d] < 0 ? -(int64_t)s[d] : (int64_t)s[d];
        if (in->shape[d] < 0) return ta__op_fail(c, TA_E_MALFORMED, "input has an unknown (-1) dim");
        if (mag > (int64_t)INT32_MAX - in->shape[d])
            return ta__op_fail(c, TA_E_MALFORMED, "a stride is out of range for the input extent");
    }
    ta_slice_params *p = (ta_slice_params *)c->params;
    if (ta_strided_slice_resolve(p, in->shape, in->rank, b, e, s, o->begin_mask, o->end_mask, o->shrink_axis_mask,
                                 o->offset, ta_dtype_size(in->dtype)))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "rank above 5 or zero stride");
    int64_t n = 1;
    for (int32_t d = 0; d < p->rank; d++) {
        /* in int64: start, stop and stride are int32 and their differences are not */
        const int64_t start = p->start[d], stop = p->stop[d], stride = p->stride[d];
        const int64_t len = stride > 0 ? (stop - start + stride - 1) / stride : (start - stop - stride - 1) / -stride;
        n *= len > 0 ? len : 0;
    }
    if (n != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size does not match the slice");
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_slice(const ta__op_run *r) {
    const uint8_t *in = ta__op_in_ptr(r, 0);
    uint8_t *out = ta__op_out_ptr(r, 0);
    /* a view (the SLICE rewrite): the output is already the input's range */
    size_t off;
    if (in && out && ta_strided_slice_view(r->params, &off) && out == in + off) return TA_OK;
    /* poison mode: an output over the input must start no higher than the
     * forward gather tolerates (the OVERLAP rewrite's relation) */
    const ta_slice_params *p = r->params;
    size_t n_out = p->elem_size;
    for (int32_t a = 0; a < p->rank; a++) {
        const int64_t st = p->start[a], sp = p->stop[a], sd = p->stride[a];
        const int64_t len = sd > 0 ? (sp - st + sd - 1) / sd : (st - sp - sd - 1) / -sd;
        n_out *= len > 0 ? (size_t)len : 0;
    }
    size_t n_in = p->elem_size;
    for (int32_t a = 0; a < p->rank; a++) n_in *= p->in_shape[a] > 0 ? (size_t)p->in_shape[a] : 0;
    if (r->check_walk && in && out && ta__op_bytes_overlap(in, n_in, out, n_out) &&
        (!ta_strided_slice_forward(p, &off) || (uintptr_t)out > (uintptr_t)in + off))
        return TA_E_OVERLAP;
    return ta_kernel_strided_slice(r->params, in, out);
}

TA__OP_DEF_OV(ta_op_STRIDED_SLICE, STRIDED_SLICE, ta_slice_params, k_fields_sl, TA__CLEAR_PADDING(clear_sl), prep_slice,
              run_slice, 0, TA__T_ANY, TA__OVERLAP_GATHER);
