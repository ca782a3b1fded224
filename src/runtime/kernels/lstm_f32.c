/*
 * UNIDIRECTIONAL_SEQUENCE_LSTM in float32: TFLM's LstmStep with its float
 * building blocks (reference FullyConnected, elementwise add, Logistic,
 * Tanh, Mul, clipping), in TFLM's order of operations:
 *   forget, input and cell gates; c = f * c; t = i * g; c = c + t; clip;
 *   output gate; h = tanh(c) * o; output row = h.
 * Each batch row depends only on its own state, so the rows are run one at
 * a time whatever the layout (TFLM runs all rows of a step together when
 * time-major: the same float operations on the same values).
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "tinyarena/kernels.h"

size_t ta_kernel_lstm_f32_scratch_bytes(const ta_lstm_params *p) {
    return p && p->state_dim > 0 ? 5u * (size_t)p->state_dim * sizeof(float) : 0;
}

/* TFLM's ActivationFunctionWithMinMax for kTfLiteActNone: a clamp to
 * [lowest, max], which only moves infinities (and keeps NaN as
 * std::min/std::max do with NaN as the first argument). */
static float clamp_none(float x) {
    const float lo = -FLT_MAX, hi = FLT_MAX;
    const float a = x < lo ? lo : x; /* std::max(x, lo) */
    return hi < a ? hi : a;          /* std::min(a, hi) */
}

/* out[o] = clamp(sum_d x[d] * w[o][d] + bias[o]), sums in index order. */
static void fc(int32_t n, int32_t depth, const float *x, const float *w, const float *bias, float *out) {
    for (int32_t o = 0; o < n; o++) {
        const float *wr = w + (size_t)o * (size_t)depth;
        float total = 0.0f;
        for (int32_t d = 0; d < depth; d++) total += x[d] * wr[d];
        out[o] = clamp_none(total + (bias ? bias[o] : 0.0f));
    }
}

/* One gate for one row: FC of the input (with bias) + FC of the hidden
 * state (no bias), then the activation, in place. */
static void gate(const ta_lstm_params *p, const float *x, const float *h, const float *wi, const float *wr,
                 const float *bias, int32_t act, float *out, float *tmp) {
    const int32_t S = p->state_dim;
    fc(S, p->input_dim, x, wi, bias, out);
    fc(S, S, h, wr, NULL, tmp);
    for (int32_t k = 0; k < S; k++) out[k] = out[k] + tmp[k];
    if (act == TA_ACT_TANH)
        ta_kernel_tanh_f32((size_t)S, out, out);
    else
        ta_kernel_logistic_f32((size_t)S, out, out);
}

ta_status ta_kernel_lstm_f32(const ta_lstm_params *p, const ta_lstm_f32_tensors *t, void *scratch,
                             size_t scratch_bytes) {
    if (!p || !t || !t->input || !t->hidden || !t->cell || !t->output || p->batch < 1 || p->time < 1 ||
        p->input_dim < 1 || p->state_dim < 1 || (p->cell_act != TA_ACT_TANH && p->cell_act != TA_ACT_SIGMOID))
        return TA_E_INVALID_ARG;
    for (int g = 0; g < 4; g++)
        if (!t->w_in[g] || !t->w_rec[g]) return TA_E_INVALID_ARG;
    if (!scratch || scratch_bytes < ta_kernel_lstm_f32_scratch_bytes(p) || ((uintptr_t)scratch & 3u))
        return TA_E_NO_MEMORY;
    const int32_t S = p->state_dim, I = p->input_dim, B = p->batch, T = p->time;
    float *fg = (float *)scratch, *ig = fg + S, *cg = ig + S, *og = cg + S, *tmp = og + S;
    for (int32_t b = 0; b < B; b++) {
        float *h = t->hidden + (size_t)b * (size_t)S, *c = t->cell + (size_t)b * (size_t)S;
        for (int32_t s = 0; s < T; s++) {
            /* row (b, s) of the input and output: [time, batch] or [batch, time] */
            const size_t row = p->time_major ? (size_t)s * (size_t)B + (size_t)b : (size_t)b * (size_t)T + (size_t)s;
            const float *x = t->input + row * (size_t)I;
            gate(p, x, h, t->w_in[TA_LSTM_FORGET], t->w_rec[TA_LSTM_FORGET], t->bias[TA_LSTM_FORGET], TA_ACT_SIGMOID,
                 fg, tmp);
            gate(p, x, h, t->w_in[TA_LSTM_INPUT], t->w_rec[TA_LSTM_INPUT], t->bias[TA_LSTM_INPUT], TA_ACT_SIGMOID, ig,
                 tmp);
            gate(p, x, h, t->w_in[TA_LSTM_CELL], t->w_rec[TA_LSTM_CELL], t->bias[TA_LSTM_CELL], p->cell_act, cg, tmp);
            for (int32_t k = 0; k < S; k++) c[k] = clamp_none(fg[k] * c[k]);
            for (int32_t k = 0; k < S; k++) ig[k] = clamp_none(ig[k] * cg[k]);
            for (int32_t k = 0; k < S; k++) c[k] = c[k] + ig[k];
            if (p->cell_clip_f32 > 0.0f) {
                const float cl = p->cell_clip_f32;
                for (int32_t k = 0; k < S; k++) {
                    const float m = c[k] < cl ? c[k] : cl; /* std::min(clip, v) */
                    c[k] = m < -cl ? -cl : m;              /* std::max(m, -clip) */
                }
            }
            gate(p, x, h, t->w_in[TA_LSTM_OUTPUT], t->w_rec[TA_LSTM_OUTPUT], t->bias[TA_LSTM_OUTPUT], TA_ACT_SIGMOID,
                 og, tmp);
            ta_kernel_tanh_f32((size_t)S, c, fg);
            for (int32_t k = 0; k < S; k++) h[k] = clamp_none(fg[k] * og[k]);
            memcpy(t->output + row * (size_t)S, h, (size_t)S * sizeof(float));
        }
    }
    return TA_OK;
}
