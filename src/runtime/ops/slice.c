/*
 * SLICE with constant begin and size (size -1: to the end), rank up to 5:
 * a STRIDED_SLICE of stride 1, run by its kernel.  Any element type.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_slice_params
static const ta__field k_fields_slice[] = {
    F(rank, TA__F_I32), FA(in_shape, TA__F_I32, TA_KERNEL_MAX_SLICE_RANK),
    FA(start, TA__F_I32, TA_KERNEL_MAX_SLICE_RANK), FA(stop, TA__F_I32, TA_KERNEL_MAX_SLICE_RANK),
    FA(stride, TA__F_I32, TA_KERNEL_MAX_SLICE_RANK), F(elem_size, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_slice, ta_slice_params)

static ta_status prep_slice(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 3, 3, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    const int32_t *b, *s;
    int64_t nb, ns;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &b, &nb)) || (st = ta__op_const_i32(c, ta__op_in(c, 2), &s, &ns)))
        return st;
    if (in->rank < 1 || in->rank > TA_KERNEL_MAX_SLICE_RANK) return ta__op_fail(c, TA_E_UNSUPPORTED, "rank above 5");
    if (nb != in->rank || ns != in->rank) return ta__op_fail(c, TA_E_MALFORMED, "begin/size must match the input rank");
    const size_t es = in->dtype == TA_DTYPE_INT4 ? 0 : ta_dtype_size(in->dtype);
    if (!es || in->dtype != out->dtype) return ta__op_fail_type(c, "output", out->dtype);
    ta_slice_params *p = (ta_slice_params *)c->params;
    p->rank = in->rank;
    p->elem_size = es;
    int64_t n = 1;
    for (int32_t d = 0; d < in->rank; d++) {
        const int64_t dim = in->shape[d], start = b[d];
        const int64_t stop = s[d] == -1 ? dim : start + s[d];
        if (start < 0 || start > dim || s[d] < -1 || stop > dim)
            return ta__op_fail(c, TA_E_MALFORMED, "begin/size outside the input");
        p->in_shape[d] = in->shape[d];
        p->start[d] = (int32_t)start;
        p->stop[d] = (int32_t)stop;
        p->stride[d] = 1;
        n *= stop - start;
    }
    if (n != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size does not match the slice");
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_slice(const ta__op_run *r) {
    return ta_kernel_strided_slice(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_SLICE, SLICE, ta_slice_params, k_fields_slice, TA__CLEAR_PADDING(clear_slice), prep_slice, run_slice,
           0, TA__T_ANY);
