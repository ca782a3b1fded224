/*
 * TRANSPOSE by a constant permutation, rank up to 6, any element size.
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_transpose_params
static const ta__field k_fields_tr[] = {
    F(rank, TA__F_I32), FA(in_shape, TA__F_I32, TA_KERNEL_MAX_TRANSPOSE_RANK),
    FA(perm, TA__F_I32, TA_KERNEL_MAX_TRANSPOSE_RANK), F(elem_size, TA__F_SIZE)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_tr, ta_transpose_params)

static ta_status prep_transpose(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    const int32_t *perm;
    int64_t np;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &perm, &np))) return st;
    ta_transpose_params *p = (ta_transpose_params *)c->params;
    if (in->rank < 1 || in->rank > TA_KERNEL_MAX_TRANSPOSE_RANK || np != in->rank)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "rank above 6 or bad perm");
    p->rank = in->rank;
    p->elem_size = ta_dtype_size(in->dtype);
    if (!p->elem_size || in->dtype != out->dtype) return ta__op_fail_type(c, "input", in->dtype);
    for (int32_t d = 0; d < p->rank; d++) {
        p->in_shape[d] = in->shape[d];
        p->perm[d] = perm[d];
        if (perm[d] < 0 || perm[d] >= p->rank) return ta__op_fail(c, TA_E_MALFORMED, "perm out of range");
    }
    if (ta__op_elems(in) != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size differs from input");
    c->path = TA__P_COPY;
    return TA_OK;
}

static ta_status run_transpose(const ta__op_run *r) {
    return ta_kernel_transpose(r->params, ta__op_in_ptr(r, 0), ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_TRANSPOSE, TRANSPOSE, ta_transpose_params, k_fields_tr, TA__CLEAR_PADDING(clear_tr), prep_transpose,
           run_transpose, 0, TA__T_ANY);
