/*
 * SVDF in float32: TFLM's EvalFloatSvdfReference and
 * ApplyTimeWeightsBiasAndActivation, the same float operations in the same
 * order (state shift, feature dot products, time-weighted sums, bias,
 * rank sums, activation), so the bytes match.
 */
#include <math.h>
#include <string.h>

#include "tinyarena/kernels.h"

size_t ta_kernel_svdf_f32_scratch_bytes(const ta_svdf_params *p) {
    return p && p->batch > 0 && p->n_filter > 0 ? (size_t)p->batch * (size_t)p->n_filter * sizeof(float) : 0;
}

static float act_val(int32_t act, float a) {
    switch (act) {
        case TA_ACT_NONE: return a;
        case TA_ACT_RELU: return fmaxf(0.0f, a);
        case TA_ACT_RELU_N1_TO_1: return fmaxf(-1.0f, fminf(a, 1.0f));
        case TA_ACT_RELU6: return fmaxf(0.0f, fminf(a, 6.0f));
        case TA_ACT_TANH: return tanhf(a);
        case TA_ACT_SIGMOID: return 1.0f / (1.0f + expf(-a));
        default: return 0.0f; /* prepare refuses the others */
    }
}

ta_status ta_kernel_svdf_f32(const ta_svdf_params *p, const float *input, const float *w_feature, const float *w_time,
                             const float *bias, float *state, float *output, void *scratch, size_t scratch_bytes) {
    if (!p || !input || !w_feature || !w_time || !state || !output || p->batch < 1 || p->input_size < 1 ||
        p->n_filter < 1 || p->n_memory < 1 || p->rank < 1 || p->n_filter % p->rank)
        return TA_E_INVALID_ARG;
    if (!scratch || scratch_bytes < ta_kernel_svdf_f32_scratch_bytes(p) || ((uintptr_t)scratch & 3u))
        return TA_E_NO_MEMORY;
    const int32_t B = p->batch, I = p->input_size, F = p->n_filter, M = p->n_memory, R = p->rank, U = F / R;
    float *sc = (float *)scratch;
    /* 1. every filter's memory moves one step older (one flat shift, as
     * TFLM's: each row's last entry is overwritten next) */
    const size_t n_state = (size_t)B * (size_t)F * (size_t)M;
    memmove(state, state + 1, (n_state - 1) * sizeof(float));
    /* 2. the newest entry of filter j: input row . feature weights row j */
    for (int32_t b = 0; b < B; b++)
        for (int32_t j = 0; j < F; j++) {
            const float *w = w_feature + (size_t)j * (size_t)I, *x = input + (size_t)b * (size_t)I;
            float dot = 0.0f;
            for (int32_t k = 0; k < I; k++) dot += w[k] * x[k];
            state[((size_t)b * (size_t)F + (size_t)j) * (size_t)M + (size_t)M - 1] = dot;
        }
    /* 3. per filter: its memory weighted by its time weights */
    for (int32_t b = 0; b < B; b++)
        for (int32_t j = 0; j < F; j++) {
            const float *wt = w_time + (size_t)j * (size_t)M;
            const float *st = state + ((size_t)b * (size_t)F + (size_t)j) * (size_t)M;
            float *acc = &sc[(size_t)b * (size_t)F + (size_t)j];
            *acc = 0.0f;
            for (int32_t k = 0; k < M; k++) *acc += wt[k] * st[k];
        }
    /* 4. bias, the rank filters of each unit, the activation */
    for (int32_t b = 0; b < B; b++) {
        float *o = output + (size_t)b * (size_t)U;
        const float *s = sc + (size_t)b * (size_t)F;
        for (int32_t u = 0; u < U; u++) o[u] = bias ? bias[u] : 0.0f;
        for (int32_t u = 0; u < U; u++)
            for (int32_t r = 0; r < R; r++) o[u] += *s++;
        for (int32_t u = 0; u < U; u++) o[u] = act_val(p->activation, o[u]);
    }
    return TA_OK;
}
