/*
 * PAD and PADV2 (constant paddings, rank up to 5, any element size up to
 * 8 bytes): the pad value is PADV2's constant operand, else the output's
 * zero point.
 */
#include "runtime/ops/op.h"

typedef struct pad_params {
    ta_pad_params p;
    uint8_t value[8]; /* the pad value bytes */
} pad_params;

/* clang-format off */
#define TA__PARAMS_T pad_params
static const ta__field k_fields_pad[] = {
    F(p.rank, TA__F_I32), FA(p.in_shape, TA__F_I32, TA_KERNEL_MAX_PAD_RANK),
    FA(p.before, TA__F_I32, TA_KERNEL_MAX_PAD_RANK), FA(p.after, TA__F_I32, TA_KERNEL_MAX_PAD_RANK),
    F(p.elem_size, TA__F_SIZE), FA(value, TA__F_RAW4, 2)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_pad, pad_params)

static ta_status prep_pad(ta__op_ctx *c) {
    ta_status st = ta__op_need_io(c, 2, 3, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0), *cv = ta__op_in(c, 2);
    const int32_t *pads;
    int64_t np;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &pads, &np))) return st;
    ta_pad_params *p = &((pad_params *)c->params)->p;
    if (in->rank < 1 || in->rank > TA_KERNEL_MAX_PAD_RANK || np != 2 * in->rank)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "rank above 5 or bad paddings");
    p->rank = in->rank;
    p->elem_size = ta_dtype_size(in->dtype);
    if (in->dtype != out->dtype || (p->elem_size != 1 && p->elem_size != 2 && p->elem_size != 4 && p->elem_size != 8))
        return ta__op_fail_type(c, "input", in->dtype);
    int64_t no = 1;
    for (int32_t d = 0; d < p->rank; d++) {
        p->in_shape[d] = in->shape[d];
        p->before[d] = pads[2 * d];
        p->after[d] = pads[2 * d + 1];
        if (p->before[d] < 0 || p->after[d] < 0) return ta__op_fail(c, TA_E_MALFORMED, "negative padding");
        if (p->in_shape[d] < 0) return ta__op_fail(c, TA_E_MALFORMED, "input has an unknown (-1) dim");
        /* each padded extent fits int64; the running product is capped so
         * that it cannot overflow (the output has at most INT32_MAX elements) */
        const int64_t ext = (int64_t)p->in_shape[d] + p->before[d] + p->after[d];
        if (ext > INT32_MAX) return ta__op_fail(c, TA_E_MALFORMED, "padded extent above 2^31-1");
        no *= ext;
        if (no > INT32_MAX) return ta__op_fail(c, TA_E_MALFORMED, "output size does not match the paddings");
    }
    if (no != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size does not match the paddings");
    memset(((pad_params *)c->params)->value, 0, sizeof((pad_params *)c->params)->value);
    if (cv && cv->data && cv->data_bytes >= p->elem_size) {
        memcpy(((pad_params *)c->params)->value, cv->data, p->elem_size);
    } else if (cv) {
        return ta__op_fail(c, TA_E_UNSUPPORTED, "pad value is not constant");
    } else if (in->dtype == TA_DTYPE_INT8) {
        int8_t z = (int8_t)ta__op_zp(out);
        memcpy(((pad_params *)c->params)->value, &z, 1);
    } else if (in->dtype == TA_DTYPE_UINT8) {
        uint8_t z = (uint8_t)ta__op_zp(out);
        memcpy(((pad_params *)c->params)->value, &z, 1);
    } else if (in->dtype == TA_DTYPE_INT16) {
        int16_t z = (int16_t)ta__op_zp(out);
        memcpy(((pad_params *)c->params)->value, &z, 2);
    }
    c->path = TA__P_COPY;
    return TA_OK;
}

/* An output over the input (the OVERLAP rewrite's backward walk) runs from
 * the last element down: every write then lands on input bytes already
 * read, as long as the input starts at most ta_kernel_pad_first bytes
 * above the output -- which poison mode checks before any write. */
static ta_status run_pad(const ta__op_run *r) {
    const pad_params *p = r->params;
    const uint8_t *in = ta__op_in_ptr(r, 0);
    uint8_t *out = ta__op_out_ptr(r, 0);
    size_t n_in = p->p.elem_size, n_out = p->p.elem_size;
    for (int32_t d = 0; d < p->p.rank && d < TA_KERNEL_MAX_PAD_RANK; d++) {
        n_in *= p->p.in_shape[d] > 0 ? (size_t)p->p.in_shape[d] : 0;
        n_out *= (size_t)p->p.in_shape[d] + (size_t)p->p.before[d] + (size_t)p->p.after[d];
    }
    if (in && out && ta__op_bytes_overlap(in, n_in, out, n_out)) {
        const size_t first = ta_kernel_pad_first(&p->p);
        if (r->check_walk && (first == SIZE_MAX || (uintptr_t)in > (uintptr_t)out + first)) return TA_E_OVERLAP;
        return ta_kernel_pad_backward(&p->p, in, p->value, out);
    }
    return ta_kernel_pad(&p->p, in, p->value, out);
}

TA__OP_DEF_OV(ta_op_PAD, PAD, pad_params, k_fields_pad, TA__CLEAR_PADDING(clear_pad), prep_pad, run_pad, 0, TA__T_ANY,
              TA__OVERLAP_BACKWARD);
TA__OP_DEF_OV(ta_op_PADV2, PADV2, pad_params, k_fields_pad, TA__CLEAR_PADDING(clear_pad), prep_pad, run_pad, 0,
              TA__T_ANY, TA__OVERLAP_BACKWARD);
