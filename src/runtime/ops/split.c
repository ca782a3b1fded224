/*
 * SPLIT, SPLIT_V, UNPACK and PACK: one tensor cut into consecutive runs
 * along an axis, or runs stacked into one.  They share CONCATENATION's
 * params (outer steps, bytes per tensor per step) and its kernel (PACK) or
 * its inverse (ta_kernel_split).  Pure copies: any element type, raw bytes
 * (int8 outputs keep the input's bytes whatever their quantisation, as
 * TFLM's).  Up to 64 outputs (inputs for PACK).
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_concat_params
static const ta__field k_fields_split[] = {
    F(n_inputs, TA__F_I32), F(outer, TA__F_I64), F(copy_bytes, TA__F_PTR)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_split, ta_concat_params)

enum { MAX_PARTS = 64 };

/* The copyable element size of t (no sub-byte or unsized types). */
static size_t elem_size(const ta_tensor *t) { return t->dtype == TA_DTYPE_INT4 ? 0 : ta_dtype_size(t->dtype); }

/* Resolves an axis against a rank: [-rank, rank) -> [0, rank). */
static ta_status resolve_axis(ta__op_ctx *c, int64_t axis, int32_t rank, int32_t *out) {
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) return ta__op_fail(c, TA_E_MALFORMED, "axis out of range");
    *out = (int32_t)axis;
    return TA_OK;
}

/* The axis operand of SPLIT / SPLIT_V: one constant int32. */
static ta_status const_axis(ta__op_ctx *c, const ta_tensor *t, int32_t rank, int32_t *axis) {
    const int32_t *v;
    int64_t n;
    ta_status st = ta__op_const_i32(c, t, &v, &n);
    if (st) return st;
    if (n != 1) return ta__op_fail(c, TA_E_MALFORMED, "axis operand must hold one value");
    return resolve_axis(c, v[0], rank, axis);
}

/* The record every op here shares with CONCATENATION: n parts, outer
 * steps, cb[k] bytes of part k per step (cb NULL in the size pass). */
static ta_status set_parts(ta__op_ctx *c, uint32_t n, int64_t outer, int64_t *cb) {
    ta_concat_params *p = (ta_concat_params *)c->params;
    p->n_inputs = (int32_t)n;
    p->outer = outer;
    p->copy_bytes = cb;
    c->path = TA__P_COPY;
    return TA_OK;
}

/* SPLIT / SPLIT_V: every output is the input off the axis; their axis
 * extents add up to the input's.  The extents are the outputs' own (SPLIT_V's
 * size_splits, -1 included, are what the converter sized them from). */
static ta_status prep_parts(ta__op_ctx *c, const ta_tensor *in, int32_t axis) {
    const uint32_t n_out = c->op->n_outputs;
    if (n_out < 1 || n_out > MAX_PARTS) return ta__op_fail(c, TA_E_UNSUPPORTED, "1 to 64 outputs");
    const size_t es = elem_size(in);
    if (!es) return ta__op_fail_type(c, "input", in->dtype);
    int64_t outer = 1, inner = 1, total = 0;
    for (int32_t d = 0; d < axis; d++) outer *= in->shape[d];
    for (int32_t d = axis + 1; d < in->rank; d++) inner *= in->shape[d];
    int64_t *cb = ta__op_take(c, sizeof(int64_t) * n_out);
    for (uint32_t k = 0; k < n_out; k++) {
        const ta_tensor *t = ta__op_out(c, k);
        if (!t) return ta__op_fail(c, TA_E_MALFORMED, "an output is missing");
        if (t->dtype != in->dtype) return ta__op_fail_type(c, "output", t->dtype);
        if (t->rank != in->rank) return ta__op_fail(c, TA_E_MALFORMED, "output rank differs from the input's");
        for (int32_t d = 0; d < in->rank; d++)
            if (d != axis && t->shape[d] != in->shape[d])
                return ta__op_fail(c, TA_E_MALFORMED, "an output's dims differ from the input's off the axis");
        total += t->shape[axis];
        if (cb) cb[k] = (int64_t)t->shape[axis] * inner * (int64_t)es;
    }
    if (total != in->shape[axis]) return ta__op_fail(c, TA_E_MALFORMED, "output extents do not sum to the input's");
    return set_parts(c, n_out, outer, cb);
}

static ta_status prep_split(ta__op_ctx *c) {
    /* inputs: axis, input */
    if (c->op->n_inputs != 2 || !ta__op_in(c, 0) || !ta__op_in(c, 1))
        return ta__op_fail(c, TA_E_MALFORMED, "expects an axis and an input");
    const ta_tensor *in = ta__op_in(c, 1);
    int32_t axis = 0;
    ta_status st = const_axis(c, ta__op_in(c, 0), in->rank, &axis);
    if (st) return st;
    if (c->op->opt.num != (int32_t)c->op->n_outputs)
        return ta__op_fail(c, TA_E_MALFORMED, "num_splits differs from the output count");
    for (uint32_t k = 0; k < c->op->n_outputs; k++)
        if (ta__op_out(c, k) && ta__op_out(c, k)->shape[axis] * (int64_t)c->op->n_outputs != in->shape[axis])
            return ta__op_fail(c, TA_E_MALFORMED, "outputs are not equal parts of the input");
    return prep_parts(c, in, axis);
}

static ta_status prep_split_v(ta__op_ctx *c) {
    /* inputs: input, size_splits, axis */
    if (c->op->n_inputs != 3 || !ta__op_in(c, 0) || !ta__op_in(c, 2))
        return ta__op_fail(c, TA_E_MALFORMED, "expects an input, size_splits and an axis");
    const ta_tensor *in = ta__op_in(c, 0);
    int32_t axis = 0;
    ta_status st = const_axis(c, ta__op_in(c, 2), in->rank, &axis);
    if (st) return st;
    return prep_parts(c, in, axis);
}

/* UNPACK / PACK: `whole` has one more dim than each of the n parts, part k
 * being index k of the axis.  The parts are the outputs (UNPACK) or the
 * inputs (PACK); the diagnostics name each side by its role. */
static ta_status prep_stacked(ta__op_ctx *c, const ta_tensor *whole, int32_t axis, uint32_t n, bool parts_are_outputs) {
    const char *whole_role = parts_are_outputs ? "input" : "output";
    const char *part_role = parts_are_outputs ? "output" : "input";
    const size_t es = elem_size(whole);
    if (!es) return ta__op_fail_type(c, whole_role, whole->dtype);
    int64_t outer = 1, inner = 1;
    for (int32_t d = 0; d < axis; d++) outer *= whole->shape[d];
    for (int32_t d = axis + 1; d < whole->rank; d++) inner *= whole->shape[d];
    int64_t *cb = ta__op_take(c, sizeof(int64_t) * n);
    for (uint32_t k = 0; k < n; k++) {
        const ta_tensor *t = parts_are_outputs ? ta__op_out(c, k) : ta__op_in(c, k);
        if (!t)
            return ta__op_fail(c, TA_E_MALFORMED, parts_are_outputs ? "an output is missing" : "an input is missing");
        if (t->dtype != whole->dtype) return ta__op_fail_type(c, part_role, t->dtype);
        if (t->rank != whole->rank - 1)
            return ta__op_fail(c, TA_E_MALFORMED,
                               parts_are_outputs ? "output rank is not the input's minus one"
                                                 : "input rank is not the output's minus one");
        for (int32_t d = 0; d < t->rank; d++)
            if (t->shape[d] != whole->shape[d < axis ? d : d + 1])
                return ta__op_fail(c, TA_E_MALFORMED,
                                   parts_are_outputs ? "an output's dims differ from the input's off the axis"
                                                     : "an input's dims differ from the output's off the axis");
        if (cb) cb[k] = inner * (int64_t)es;
    }
    return set_parts(c, n, outer, cb);
}

static ta_status prep_unpack(ta__op_ctx *c) {
    if (c->op->n_inputs != 1 || !ta__op_in(c, 0)) return ta__op_fail(c, TA_E_MALFORMED, "expects one input");
    const ta_tensor *in = ta__op_in(c, 0);
    int32_t axis = 0;
    ta_status st = resolve_axis(c, c->op->opt.axis, in->rank, &axis);
    if (st) return st;
    const uint32_t n_out = c->op->n_outputs;
    if (n_out < 1 || n_out > MAX_PARTS) return ta__op_fail(c, TA_E_UNSUPPORTED, "1 to 64 outputs");
    if ((int64_t)n_out != in->shape[axis])
        return ta__op_fail(c, TA_E_MALFORMED, "output count differs from the axis extent");
    return prep_stacked(c, in, axis, n_out, true);
}

static ta_status prep_pack(ta__op_ctx *c) {
    const uint32_t n_in = c->op->n_inputs;
    if (n_in < 1 || n_in > MAX_PARTS || c->op->n_outputs != 1 || !ta__op_out(c, 0))
        return ta__op_fail(c, TA_E_MALFORMED, "expects 1 to 64 inputs and one output");
    const ta_tensor *out = ta__op_out(c, 0);
    int32_t axis = 0;
    ta_status st = resolve_axis(c, c->op->opt.axis, out->rank, &axis);
    if (st) return st;
    if ((int64_t)n_in != out->shape[axis] || c->op->opt.num != (int32_t)n_in)
        return ta__op_fail(c, TA_E_MALFORMED, "input count differs from values_count or the output's axis extent");
    return prep_stacked(c, out, axis, n_in, false);
}

static ta_status run_split_at(const ta__op_run *r, uint32_t in_k) {
    void *outs[MAX_PARTS];
    if (r->n_out > MAX_PARTS) return TA_E_UNSUPPORTED;
    for (uint32_t k = 0; k < r->n_out; k++) outs[k] = ta__op_out_ptr(r, k);
    return ta_kernel_split(r->params, ta__op_in_ptr(r, in_k), outs);
}
static ta_status run_split(const ta__op_run *r) { return run_split_at(r, 1); }
static ta_status run_split_v(const ta__op_run *r) { return run_split_at(r, 0); }

static ta_status run_pack(const ta__op_run *r) {
    const void *ins[MAX_PARTS];
    if (r->n_in > MAX_PARTS) return TA_E_UNSUPPORTED;
    for (uint32_t k = 0; k < r->n_in; k++) ins[k] = ta__op_in_ptr(r, k);
    return ta_kernel_concatenation(r->params, ins, ta__op_out_ptr(r, 0));
}

TA__OP_DEF(ta_op_SPLIT, SPLIT, ta_concat_params, k_fields_split, TA__CLEAR_PADDING(clear_split), prep_split, run_split,
           0, TA__T_ANY);
TA__OP_DEF(ta_op_SPLIT_V, SPLIT_V, ta_concat_params, k_fields_split, TA__CLEAR_PADDING(clear_split), prep_split_v,
           run_split_v, 0, TA__T_ANY);
TA__OP_DEF(ta_op_UNPACK, UNPACK, ta_concat_params, k_fields_split, TA__CLEAR_PADDING(clear_split), prep_unpack,
           run_split_v, 0, TA__T_ANY);
TA__OP_DEF(ta_op_PACK, PACK, ta_concat_params, k_fields_split, TA__CLEAR_PADDING(clear_split), prep_pack, run_pack, 0,
           TA__T_ANY);
