/*
 * UNIDIRECTIONAL_SEQUENCE_LSTM, TFLM's 24 inputs, no peephole, projection
 * or layer norm: int8 input and weights, int8 hidden state and int16 cell
 * state (variable tensors), four int16 gate buffers in kernel scratch; or
 * float32 throughout (TFLM's float path, five float rows of scratch).
 */
#include "runtime/ops/op.h"

/* clang-format off */
#define TA__PARAMS_T ta_lstm_params
/* ta_lstm_fc is four int32s, so each gate array is 16 consecutive words */
static const ta__field k_fields_lstm[] = {
    F(time_major, TA__F_BOOL), F(batch, TA__F_I32), F(time, TA__F_I32), F(input_dim, TA__F_I32),
    F(state_dim, TA__F_I32), FA(in_fc, TA__F_I32, 16), FA(rec_fc, TA__F_I32, 16), F(cell_act, TA__F_I32),
    F(cell_scale_power, TA__F_I32), F(cell_clip, TA__F_I32), F(fc_mult, TA__F_I32), F(fc_shift, TA__F_I32),
    F(ic_mult, TA__F_I32), F(ic_shift, TA__F_I32), F(h_mult, TA__F_I32), F(h_shift, TA__F_I32), F(h_zp, TA__F_I32),
    F(cell_clip_f32, TA__F_F32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_lstm, ta_lstm_params)

/* Shapes common to both paths: batch, time, dims; state and output shapes. */
static ta_status lstm_shapes(ta__op_ctx *c, const ta_tensor *in, const ta_tensor *h, const ta_tensor *cs,
                             const ta_tensor *out, ta_lstm_params *p) {
    if (in->rank != 3 || out->rank != 3 || h->rank < 1)
        return ta__op_fail(c, TA_E_MALFORMED, "expects 3-D input and output");
    p->time_major = c->op->opt.time_major;
    p->batch = p->time_major ? in->shape[1] : in->shape[0];
    p->time = p->time_major ? in->shape[0] : in->shape[1];
    p->input_dim = in->shape[2];
    p->state_dim = h->shape[h->rank - 1];
    if (p->batch <= 0 || p->time <= 0 || p->input_dim <= 0 || p->state_dim <= 0)
        return ta__op_fail(c, TA_E_MALFORMED, "non-positive dims");
    const int64_t bs = (int64_t)p->batch * p->state_dim;
    if (ta__op_elems(h) != bs || ta__op_elems(cs) != bs || out->shape[0] != in->shape[0] ||
        out->shape[1] != in->shape[1] || out->shape[2] != p->state_dim)
        return ta__op_fail(c, TA_E_MALFORMED, "state or output shape does not match");
    return TA_OK;
}

/* float32: every operand float32, weights and biases constant (TFLM reads
 * them as it reads any input; constant is what converters write, and what
 * lets prepare prove their lengths). */
static ta_status prep_lstm_f32(ta__op_ctx *c) {
    const ta_tensor *in = ta__op_in(c, 0), *h = ta__op_in(c, 18), *cs = ta__op_in(c, 19), *out = ta__op_out(c, 0);
    ta_status st;
    if ((st = ta__op_need_state(c, h, TA_DTYPE_FLOAT32, "the hidden state is missing")) ||
        (st = ta__op_need_state(c, cs, TA_DTYPE_FLOAT32, "the cell state is missing")))
        return st;
    if (out->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, "output", out->dtype);
    ta_lstm_params *p = (ta_lstm_params *)c->params;
    if ((st = lstm_shapes(c, in, h, cs, out, p))) return st;
    for (uint32_t g = 0; g < 4; g++) {
        const ta_tensor *wi = ta__op_in(c, 1 + g), *wr = ta__op_in(c, 5 + g), *b = ta__op_in(c, 12 + g);
        if (wi->dtype != TA_DTYPE_FLOAT32 || wr->dtype != TA_DTYPE_FLOAT32 || b->dtype != TA_DTYPE_FLOAT32)
            return ta__op_fail_type(c, "weights or bias", wi->dtype != TA_DTYPE_FLOAT32 ? wi->dtype : wr->dtype);
        if (!wi->data || !wr->data || !b->data)
            return ta__op_fail(c, TA_E_UNSUPPORTED, "weights and biases must be constant");
        if (wi->rank != 2 || wi->shape[0] != p->state_dim || wi->shape[1] != p->input_dim || wr->rank != 2 ||
            wr->shape[0] != p->state_dim || wr->shape[1] != p->state_dim || ta__op_elems(b) != p->state_dim)
            return ta__op_fail(c, TA_E_MALFORMED, "weight or bias shape does not match");
    }
    p->cell_act = (int32_t)c->op->opt.activation;
    if (p->cell_act != TA_ACT_TANH && p->cell_act != TA_ACT_SIGMOID)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "cell gate activation other than tanh or sigmoid");
    const float clip = c->op->opt.cell_clip;
    if (!(clip >= 0.0f && clip <= 3.4e38f)) return ta__op_fail(c, TA_E_MALFORMED, "cell_clip is negative or not finite");
    p->cell_clip_f32 = clip;
    c->path = TA__P_F32;
    c->scratch = ta_kernel_lstm_f32_scratch_bytes(p);
    return TA_OK;
}

/* UNIDIRECTIONAL_SEQUENCE_LSTM, TFLM's 24 inputs: 0 input, 1-4 input
 * weights (i, f, c, o), 5-8 recurrent weights, 9-11 peephole, 12-15 biases,
 * 16-17 projection, 18 hidden state, 19 cell state, 20-23 layer norm. */
static ta_status prep_lstm(ta__op_ctx *c) {
    if (c->op->n_inputs != 24 || c->op->n_outputs != 1 || !ta__op_out(c, 0))
        return ta__op_fail(c, TA_E_MALFORMED, "expects 24 inputs and one output");
    static const uint8_t k_absent[] = {9, 10, 11, 16, 17, 20, 21, 22, 23};
    for (size_t k = 0; k < sizeof k_absent; k++)
        if (ta__op_in(c, k_absent[k])) return ta__op_fail(c, TA_E_UNSUPPORTED, "peephole, projection or layer norm");
    for (uint32_t k = 0; k < 16; k++)
        if ((k <= 8 || k >= 12) && !ta__op_in(c, k))
            return ta__op_fail(c, TA_E_UNSUPPORTED, "an input, weight or bias is missing (CIFG)");
    const ta_tensor *in = ta__op_in(c, 0), *h = ta__op_in(c, 18), *cs = ta__op_in(c, 19), *out = ta__op_out(c, 0);
    ta_status st;
    if (in->dtype == TA_DTYPE_FLOAT32) return prep_lstm_f32(c);
    if (in->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "input", in->dtype);
    if ((st = ta__op_need_state(c, h, TA_DTYPE_INT8, "the hidden state is missing")) ||
        (st = ta__op_need_state(c, cs, TA_DTYPE_INT16, "the cell state is missing")))
        return st;
    if (out->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "output", out->dtype);
    ta_lstm_params *p = (ta_lstm_params *)c->params;
    if ((st = lstm_shapes(c, in, h, cs, out, p))) return st;
    for (int g = 0; g < 4; g++) {
        const ta_tensor *wi = ta__op_in(c, 1 + (uint32_t)g), *wr = ta__op_in(c, 5 + (uint32_t)g),
                        *b = ta__op_in(c, 12 + (uint32_t)g);
        if (wi->dtype != TA_DTYPE_INT8 || wr->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "weights", wi->dtype);
        if (!wi->data || !wr->data || !b->data)
            return ta__op_fail(c, TA_E_UNSUPPORTED, "weights and biases must be constant");
        if (b->dtype != TA_DTYPE_INT32) return ta__op_fail_type(c, "bias", b->dtype);
        if (wi->rank != 2 || wi->shape[0] != p->state_dim || wi->shape[1] != p->input_dim || wr->rank != 2 ||
            wr->shape[0] != p->state_dim || wr->shape[1] != p->state_dim || ta__op_elems(b) != p->state_dim)
            return ta__op_fail(c, TA_E_MALFORMED, "weight or bias shape does not match");
        if (wi->quant.count > 1 || wr->quant.count > 1)
            return ta__op_fail(c, TA_E_UNSUPPORTED, "per-channel gate weights");
        ta_lstm_fc_prepare(&p->in_fc[g], ta__op_scale(in), ta__op_zp(in), ta__op_scale(wi), ta__op_zp(wi));
        ta_lstm_fc_prepare(&p->rec_fc[g], ta__op_scale(h), ta__op_zp(h), ta__op_scale(wr), ta__op_zp(wr));
        if (p->in_fc[g].shift > 30 || p->rec_fc[g].shift > 30)
            return ta__op_fail(c, TA_E_UNSUPPORTED, "gate rescaling out of range");
    }
    p->cell_act = (int32_t)c->op->opt.activation;
    if (p->cell_act != TA_ACT_TANH && p->cell_act != TA_ACT_SIGMOID)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "cell gate activation other than tanh or sigmoid");
    st = ta_lstm_cell_prepare(p, ta__op_scale(cs), c->op->opt.cell_clip, ta__op_scale(h), ta__op_zp(h));
    if (st) return ta__op_fail(c, st, "cell state scale is not a power of two");
    if (p->cell_scale_power > 0 || p->cell_scale_power < -30)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "cell state scale out of range");
    c->path = TA__P_S8;
    c->scratch = ta_kernel_lstm_scratch_bytes(p);
    return TA_OK;
}

/* Fills the kernel's operand struct V (float or int8: same field names,
 * their own pointer types) from TFLM's LSTM operand indices -- one place
 * for the indices, so the two paths cannot disagree on them. */
#define LSTM_OPERANDS(V)                                                                                               \
    do {                                                                                                               \
        (V).input = ta__op_in_ptr(r, 0);                                                                               \
        for (uint32_t g = 0; g < 4; g++) {                                                                             \
            (V).w_in[g] = ta__op_in_ptr(r, 1 + g);                                                                     \
            (V).w_rec[g] = ta__op_in_ptr(r, 5 + g);                                                                    \
            (V).bias[g] = ta__op_in_ptr(r, 12 + g);                                                                    \
        }                                                                                                              \
        (V).hidden = ta__op_in_ptr(r, 18);                                                                             \
        (V).cell = ta__op_in_ptr(r, 19);                                                                               \
        (V).output = ta__op_out_ptr(r, 0);                                                                             \
    } while (0)

static ta_status run_lstm(const ta__op_run *r) {
    if (r->path == TA__P_F32) {
        ta_lstm_f32_tensors f;
        LSTM_OPERANDS(f);
        return ta_kernel_lstm_f32(r->params, &f, r->scratch, r->scratch_bytes);
    }
    ta_lstm_tensors t;
    LSTM_OPERANDS(t);
    return ta_kernel_lstm_s8(r->params, &t, r->scratch, r->scratch_bytes);
}
#undef LSTM_OPERANDS

/* The scratch is four int16 gate buffers (the kernel refuses an odd
 * address); operands, state included, by their element types. */
static const ta__op_align k_align_lstm = {.scratch = 2};
TA__OP_DEF_ALIGNED(ta_op_LSTM, LSTM, ta_lstm_params, k_fields_lstm, TA__CLEAR_PADDING(clear_lstm), prep_lstm, run_lstm, 0,
                   TA__T(FLOAT32) | TA__T(INT8), &k_align_lstm);
