/*
 * CONCATENATION of up to 64 inputs along one axis: a table of each input's
 * bytes per outer step (int64) in the record.  One input may lie inside the
 * output (the OVERLAP rewrite, walk.h ta_walk_concat).
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_concat_params
static const ta__field k_fields_cat[] = {
    F(n_inputs, TA__F_I32), F(outer, TA__F_I64), F(copy_bytes, TA__F_PTR)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_cat, ta_concat_params)

static ta_status prep_concat(ta__op_ctx *c) {
    if (c->op->n_inputs < 1 || c->op->n_outputs != 1 || !ta__op_out(c, 0))
        return ta__op_fail(c, TA_E_MALFORMED, "expects inputs and one output");
    if (c->op->n_inputs > 64) return ta__op_fail(c, TA_E_UNSUPPORTED, "more than 64 inputs");
    const ta_tensor *out = ta__op_out(c, 0);
    int32_t axis = c->op->opt.axis < 0 ? c->op->opt.axis + out->rank : c->op->opt.axis;
    if (axis < 0 || axis >= out->rank) return ta__op_fail(c, TA_E_MALFORMED, "axis out of range");
    size_t es = ta_dtype_size(out->dtype);
    if (!es || out->dtype == TA_DTYPE_INT4) return ta__op_fail_type(c, "output", out->dtype);
    int64_t outer = 1, inner = 1;
    for (int32_t d = 0; d < axis; d++) outer *= out->shape[d];
    for (int32_t d = axis + 1; d < out->rank; d++) inner *= out->shape[d];
    int64_t *cb = ta__op_take(c, sizeof(int64_t) * c->op->n_inputs);
    int64_t total = 0;
    for (uint32_t k = 0; k < c->op->n_inputs; k++) {
        const ta_tensor *t = ta__op_in(c, k);
        if (!t) return ta__op_fail(c, TA_E_MALFORMED, "an input is missing");
        if (t->dtype != out->dtype) return ta__op_fail_type(c, "mixed input", t->dtype);
        if (t->rank != out->rank) return ta__op_fail(c, TA_E_MALFORMED, "input rank differs from output");
        /* the kernel copies rows of `inner` elements from every input: each
         * input must have the output's dims except along the axis */
        for (int32_t d = 0; d < out->rank; d++)
            if (d != axis && t->shape[d] != out->shape[d])
                return ta__op_fail(c, TA_E_MALFORMED, "an input's dims differ from the output's off the axis");
        if (t->dtype == TA_DTYPE_INT8 && (ta__op_scale(t) != ta__op_scale(out) || ta__op_zp(t) != ta__op_zp(out)))
            return ta__op_fail(c, TA_E_UNSUPPORTED, "int8 inputs must share the output's scale and zero point");
        int64_t ax = t->shape[axis];
        total += ax;
        if (cb) cb[k] = ax * inner * (int64_t)es;
    }
    if (total != out->shape[axis]) return ta__op_fail(c, TA_E_MALFORMED, "input extents do not sum to the output's");
    ((ta_concat_params *)c->params)->n_inputs = (int32_t)c->op->n_inputs;
    ((ta_concat_params *)c->params)->outer = outer;
    ((ta_concat_params *)c->params)->copy_bytes = cb;
    c->path = TA__P_COPY;
    return TA_OK;
}

/* Poison mode: every input over the output is one the forward walk
 * tolerates (walk.h ta_walk_concat: at least (step - block) * (outer - 1) +
 * the bytes before its block above the output's start), at most one of
 * them, or one already in its slot (the CONCAT rewrite: one step). */
static bool walk_ok(const ta_concat_params *p, const void *const *ins, const uint8_t *out) {
    int64_t step = 0;
    for (int32_t k = 0; k < p->n_inputs; k++) step += p->copy_bytes[k];
    const size_t ys = (size_t)(step * p->outer);
    int32_t over = 0;
    int64_t before = 0;
    for (int32_t k = 0; k < p->n_inputs; before += p->copy_bytes[k], k++) {
        const uint8_t *in = ins[k];
        const size_t xs = (size_t)(p->copy_bytes[k] * p->outer);
        if (!in || !xs || !ta__op_bytes_overlap(in, xs, out, ys)) continue;
        if (p->outer == 1 && in == out + before) continue;
        const uint64_t low = (uint64_t)(step - p->copy_bytes[k]) * (uint64_t)(p->outer - 1) + (uint64_t)before;
        if ((uintptr_t)in < (uintptr_t)out || (uint64_t)((uintptr_t)in - (uintptr_t)out) < low || ++over > 1)
            return false;
    }
    return true;
}

static ta_status run_concat(const ta__op_run *r) {
    const void *ins[64];
    if (r->n_in > 64) return TA_E_UNSUPPORTED;
    for (uint32_t k = 0; k < r->n_in; k++) ins[k] = ta__op_in_ptr(r, k);
    const ta_concat_params *p = r->params;
    uint8_t *out = ta__op_out_ptr(r, 0);
    if (r->check_walk && out && p->copy_bytes && p->n_inputs == (int32_t)r->n_in && p->outer >= 1 &&
        !walk_ok(p, ins, out))
        return TA_E_OVERLAP;
    return ta_kernel_concatenation(p, ins, out);
}

TA__OP_DEF_OV(ta_op_CONCATENATION, CONCATENATION, ta_concat_params, k_fields_cat, TA__CLEAR_PADDING(clear_cat),
              prep_concat, run_concat, 0, TA__T_ANY, TA__OVERLAP_CONCAT);
