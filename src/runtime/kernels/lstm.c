/*
 * UNIDIRECTIONAL_SEQUENCE_LSTM, int8 activations and weights with an int16
 * cell state: TFLM's EvalLstm<int8_t, int8_t, int16_t, int32_t> (the
 * "standard" LSTM kernel of lstm_eval.h: no peephole, projection or layer
 * norm).
 *
 * Steps, per time step (time-major: all batches at once; batch-major: one
 * batch after another, each with its own slice of the state):
 *  1. For the forget, input and cell gates, in that order:
 *       g = FC(x_t, W_g) + bias_g           -> int16 at scale 2^-12
 *       g = sat16(g + FC(h, R_g))           (recurrent FC, no bias)
 *       g = sigmoid(g) (cell gate: tanh, or the op's activation), int16 LUT
 *     Each FC: sum (w + w_off) * (x + x_off) in wrapping int32, + bias,
 *     ta_q_mul, clamped to int16 (TFLM reference_integer_ops::FullyConnected
 *     with an int16 output).
 *  2. c = f * c (int16 Mul: ta_q_mul of the int32 product, clamped);
 *     t = i * g;  c = sat16(c + t);  clip to +-cell_clip when set.
 *  3. The output gate, as in step 1.
 *  4. h = int8(tanh(c) * o + h_zp) (tanh at the cell's power-of-two scale),
 *     then h is copied to the output at this step's offset.
 * The four int16 scratch buffers are TFLM's LSTMBuffers (buffer0..3), used
 * in the same roles.
 */
#include <math.h>
#include <string.h>

#include "common/util.h"
#include "runtime/kernels/fixedpoint.h"

void ta_lstm_fc_prepare(ta_lstm_fc *fc, float x_scale, int32_t x_zp, float w_scale, int32_t w_zp) {
    /* TFLM GetQuantizedConvolutionMultipler: float product, double quotient */
    const float gate_scale = 1.0f / 4096.0f; /* 2^-12: Q3.12, the activations' input */
    ta_quant_multiplier(ta_quant_fc_real_multiplier(x_scale, w_scale, gate_scale), &fc->mult, &fc->shift);
    fc->input_offset = -x_zp;
    fc->weights_offset = -w_zp;
}

/* TFLM CheckedLog2: log(x) / log(2) in float, rounded; exact powers only. */
static bool checked_log2(float x, int32_t *out) {
    const float l = logf(x) * (1.0f / logf(2.0f));
    const float r = roundf(l);
    *out = (int32_t)r;
    return fabsf(l - r) < 1e-3f;
}

/* TFLM CreateInterGateMulParams: s1 * s2 / s_out in double. */
static void mul_params(float s1, float s2, float s_out, int32_t *m, int32_t *sh) {
    ta_quant_multiplier((double)s1 * (double)s2 / (double)s_out, m, sh);
}

ta_status ta_lstm_cell_prepare(ta_lstm_params *p, float cell_scale, float cell_clip, float hidden_scale,
                               int32_t hidden_zp) {
    if (!p || !(cell_scale > 0.0f) || !(hidden_scale > 0.0f)) return TA_E_INVALID_ARG;
    if (!checked_log2(cell_scale, &p->cell_scale_power)) return TA_E_UNSUPPORTED;
    /* quantised clip: double quotient clamped to int16, truncated */
    double q = (double)cell_clip / (double)cell_scale;
    q = q < -32768.0 ? -32768.0 : q > 32767.0 ? 32767.0 : q;
    p->cell_clip = cell_clip > 0.0f ? (int32_t)(int16_t)q : 0;
    const float gate_out = 1.0f / 32768.0f; /* 2^-15: Q0.15, the activations' output */
    mul_params(gate_out, cell_scale, cell_scale, &p->fc_mult, &p->fc_shift);
    mul_params(gate_out, gate_out, cell_scale, &p->ic_mult, &p->ic_shift);
    mul_params(gate_out, gate_out, hidden_scale, &p->h_mult, &p->h_shift);
    p->h_zp = hidden_zp;
    if (p->fc_shift > 30 || p->ic_shift > 30 || p->h_shift > 30) return TA_E_UNSUPPORTED;
    return TA_OK;
}

static size_t slice_bytes(const ta_lstm_params *p) {
    const size_t rows = p->time_major ? (size_t)p->batch : 1u;
    return ta__align_up(rows * (size_t)p->state_dim * sizeof(int16_t), 16);
}

size_t ta_kernel_lstm_scratch_bytes(const ta_lstm_params *p) { return p ? 4 * slice_bytes(p) : 0; }

/* FC of `rows` vectors of `depth` into int16 gate values (out[r * n + o]). */
static void fc_s16(const ta_lstm_fc *fc, int32_t rows, int32_t depth, int32_t n, const int8_t *x, const int8_t *w,
                   const int32_t *bias, int16_t *out) {
    for (int32_t r = 0; r < rows; r++)
        for (int32_t o = 0; o < n; o++) {
            const int8_t *wr = w + (int64_t)o * depth, *xr = x + (int64_t)r * depth;
            uint32_t acc = 0;
            for (int32_t d = 0; d < depth; d++)
                acc += (uint32_t)(((int32_t)wr[d] + fc->weights_offset) * ((int32_t)xr[d] + fc->input_offset));
            if (bias) acc += (uint32_t)bias[o];
            int32_t v = ta_q_mul((int32_t)acc, fc->mult, fc->shift);
            out[(int64_t)r * n + o] = (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
        }
}

static int16_t sat16(int32_t v) { return (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v); }

/* One gate: out = act(FC(x) + bias (+sat) FC(h)); tmp is a scratch row set. */
static void gate(const ta_lstm_params *p, int g, int32_t rows, const int8_t *x, const int8_t *h,
                 const ta_lstm_tensors *t, int32_t act, int16_t *out, int16_t *tmp) {
    const int32_t n = p->state_dim;
    fc_s16(&p->in_fc[g], rows, p->input_dim, n, x, t->w_in[g], t->bias[g], out);
    fc_s16(&p->rec_fc[g], rows, n, n, h, t->w_rec[g], NULL, tmp);
    const size_t cnt = (size_t)rows * (size_t)n;
    for (size_t i = 0; i < cnt; i++) out[i] = sat16((int32_t)out[i] + tmp[i]);
    if (act == TA_ACT_TANH) ta_kernel_tanh_s16_lut(0, 0, cnt, out, out); /* scale power -12: 15 - 12 - 3 = 0 */
    else ta_kernel_logistic_s16_lut(0, 0, cnt, out, out);
}

/* int16 x int16 elementwise Mul (TFLM MulElementwise, offsets 0). */
static int32_t mul_q(int16_t a, int16_t b, int32_t m, int32_t sh) { return ta_q_mul((int32_t)a * b, m, sh); }

static void step(const ta_lstm_params *p, const ta_lstm_tensors *t, int32_t rows, const int8_t *x, int8_t *h,
                 int16_t *c, int8_t *out, int16_t *buf[4]) {
    const int32_t n = p->state_dim;
    const size_t cnt = (size_t)rows * (size_t)n;
    int16_t *forget = buf[0], *input = buf[1], *cellg = buf[2], *tmp = buf[3];
    gate(p, TA_LSTM_FORGET, rows, x, h, t, TA_ACT_SIGMOID, forget, tmp);
    gate(p, TA_LSTM_INPUT, rows, x, h, t, TA_ACT_SIGMOID, input, tmp);
    gate(p, TA_LSTM_CELL, rows, x, h, t, p->cell_act, cellg, tmp);
    /* cell update: c = f * c; buffer1 = i * g; c = c + buffer1; clip */
    for (size_t i = 0; i < cnt; i++) c[i] = sat16(mul_q(forget[i], c[i], p->fc_mult, p->fc_shift));
    for (size_t i = 0; i < cnt; i++) input[i] = sat16(mul_q(input[i], cellg[i], p->ic_mult, p->ic_shift));
    for (size_t i = 0; i < cnt; i++) c[i] = sat16((int32_t)c[i] + input[i]);
    if (p->cell_clip > 0)
        for (size_t i = 0; i < cnt; i++)
            c[i] = (int16_t)(c[i] > p->cell_clip ? p->cell_clip : c[i] < -p->cell_clip ? -p->cell_clip : c[i]);
    /* output gate into buffer1, tanh(c) into buffer0, h = tanh(c) * o */
    int16_t *og = buf[1], *tc = buf[0];
    gate(p, TA_LSTM_OUTPUT, rows, x, h, t, TA_ACT_SIGMOID, og, tmp);
    int32_t shift = 15 + p->cell_scale_power - 3, mult = 0;
    if (shift < 0) {
        shift = -shift;
        mult = 3;
    }
    ta_kernel_tanh_s16_lut(mult, shift, cnt, c, tc);
    for (size_t i = 0; i < cnt; i++) {
        int32_t v = ta__wadd(mul_q(tc[i], og[i], p->h_mult, p->h_shift), p->h_zp);
        h[i] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
    }
    memcpy(out, h, cnt);
}

ta_status ta_kernel_lstm_s8(const ta_lstm_params *p, const ta_lstm_tensors *t, void *scratch,
                            size_t scratch_bytes) {
    if (!p || !t || !t->input || !t->hidden || !t->cell || !t->output) return TA_E_INVALID_ARG;
    if (p->batch <= 0 || p->time <= 0 || p->input_dim <= 0 || p->state_dim <= 0) return TA_E_INVALID_ARG;
    for (int g = 0; g < 4; g++) {
        if (!t->w_in[g] || !t->w_rec[g]) return TA_E_INVALID_ARG;
        if (p->in_fc[g].shift < -31 || p->in_fc[g].shift > 30 || p->rec_fc[g].shift < -31 || p->rec_fc[g].shift > 30)
            return TA_E_INVALID_ARG;
    }
    if (p->cell_act != TA_ACT_TANH && p->cell_act != TA_ACT_SIGMOID) return TA_E_UNSUPPORTED;
    if (p->cell_scale_power > 0 || p->cell_scale_power < -30) return TA_E_UNSUPPORTED;
    if (!scratch || scratch_bytes < ta_kernel_lstm_scratch_bytes(p) || ((uintptr_t)scratch & 1u)) return TA_E_NO_MEMORY;
    int16_t *buf[4];
    for (int k = 0; k < 4; k++) buf[k] = (int16_t *)(void *)((uint8_t *)scratch + (size_t)k * slice_bytes(p));
    const int32_t S = p->state_dim, I = p->input_dim;
    if (p->time_major) {
        /* all batches per step; input and output [time, batch, dim] */
        for (int32_t s = 0; s < p->time; s++)
            step(p, t, p->batch, t->input + (int64_t)s * p->batch * I, t->hidden, t->cell,
                 t->output + (int64_t)s * p->batch * S, buf);
    } else {
        /* batch after batch, each with its own state slice; [batch, time, dim] */
        for (int32_t b = 0; b < p->batch; b++)
            for (int32_t s = 0; s < p->time; s++) {
                const int64_t at = (int64_t)b * p->time + s;
                step(p, t, 1, t->input + at * I, t->hidden + (int64_t)b * S, t->cell + (int64_t)b * S,
                     t->output + at * S, buf);
            }
    }
    return TA_OK;
}
