/*
 * SVDF, int8 with an int16 (or int8) activation state: TFLM's
 * EvalIntegerSvdfReference.
 *
 * The state is [batch][n_filter][n_memory], the newest value of each
 * filter last.  Steps per invoke:
 *  1. Shift the whole state left by one element (memmove semantics: each
 *     filter's oldest value drops out, the slot after it is overwritten in
 *     step 2).
 *  2. Feature matmul: for each batch and filter, dot = sum w_feature *
 *     (x - zp_in) in int32, requantised with (mult1, shift1), + state zero
 *     point, clamped to the state type, stored in the filter's newest slot.
 *  3. Time: for each filter, sum w_time * (state - state zp) over the
 *     memory, in (wrapping) int32, into scratch 1.
 *  4. Per unit: bias + the `rank` consecutive filter sums (scratch 2), then
 *     requantised with (mult2, shift2), + zp_out, clamped to int8.
 */
#include <string.h>

#include "common/util.h"
#include "runtime/kernels/fixedpoint.h"

static size_t part1(const ta_svdf_params *p) {
    return ta__align_up((size_t)p->batch * (size_t)p->n_filter * sizeof(int32_t), 16);
}

size_t ta_kernel_svdf_scratch_bytes(const ta_svdf_params *p) {
    if (!p || p->batch <= 0 || p->n_filter <= 0 || p->rank <= 0) return 0;
    return part1(p) + ta__align_up((size_t)p->batch * (size_t)(p->n_filter / p->rank) * sizeof(int32_t), 16);
}

ta_status ta_svdf_prepare(ta_svdf_params *p, float in_scale, int32_t in_zp, float wf_scale, float wt_scale,
                          float state_scale, int32_t state_zp, float out_scale, int32_t out_zp) {
    if (!p) return TA_E_INVALID_ARG;
    if (!(state_scale > 0.0f) || !(out_scale > 0.0f)) return TA_E_UNSUPPORTED;
    p->input_zp = in_zp;
    p->state_zp = state_zp;
    p->output_zp = out_zp;
    /* float expressions, widened afterwards (TFLM's prepare) */
    const float s1 = in_scale * wf_scale / state_scale;
    const float s2 = state_scale * wt_scale / out_scale;
    ta_quant_multiplier((double)s1, &p->mult1, &p->shift1);
    ta_quant_multiplier((double)s2, &p->mult2, &p->shift2);
    if (p->shift1 > 30 || p->shift2 > 30) return TA_E_UNSUPPORTED;
    return TA_OK;
}

static ta_status check(const ta_svdf_params *p, const void *in, const void *wf, const void *wt, const void *state,
                       const void *out, void *scratch, size_t scratch_bytes) {
    if (!p || !in || !wf || !wt || !state || !out) return TA_E_INVALID_ARG;
    if (p->batch <= 0 || p->input_size <= 0 || p->n_filter <= 0 || p->n_memory <= 0 || p->rank <= 0 ||
        p->n_filter % p->rank)
        return TA_E_INVALID_ARG;
    if (p->shift1 < -31 || p->shift1 > 30 || p->shift2 < -31 || p->shift2 > 30) return TA_E_INVALID_ARG;
    if (!scratch || scratch_bytes < ta_kernel_svdf_scratch_bytes(p) || ((uintptr_t)scratch & 3u)) return TA_E_NO_MEMORY;
    return TA_OK;
}

/* Steps 3 and 4, shared by both state types (state read through load). */
#define TIME_AND_OUTPUT(STATE_T)                                                                             \
    do {                                                                                                     \
        const int32_t units = p->n_filter / p->rank;                                                         \
        uint32_t *s1 = scratch;                                                                              \
        uint32_t *s2 = (uint32_t *)(void *)((uint8_t *)scratch + part1(p));                                  \
        for (int32_t b = 0; b < p->batch; b++) {                                                             \
            const STATE_T *v2 = state + (int64_t)b * p->n_memory * p->n_filter;                              \
            const STATE_T *v1 = w_time;                                                                      \
            for (int32_t f = 0; f < p->n_filter; f++) {                                                      \
                uint32_t acc = 0;                                                                            \
                for (int32_t m = 0; m < p->n_memory; m++)                                                    \
                    acc += (uint32_t)((int32_t)*v1++ * ((int32_t)*v2++ - p->state_zp));                      \
                s1[(int64_t)b * p->n_filter + f] = acc;                                                      \
            }                                                                                                \
        }                                                                                                    \
        for (int32_t b = 0; b < p->batch; b++)                                                               \
            for (int32_t u = 0; u < units; u++) s2[(int64_t)b * units + u] = bias ? (uint32_t)bias[u] : 0u;  \
        for (int32_t b = 0; b < p->batch; b++) {                                                             \
            const uint32_t *sp = s1 + (int64_t)b * p->n_filter;                                              \
            for (int32_t u = 0; u < units; u++)                                                              \
                for (int32_t r = 0; r < p->rank; r++) s2[(int64_t)b * units + u] += *sp++;                   \
        }                                                                                                    \
        for (int64_t i = 0; i < (int64_t)p->batch * units; i++) {                                           \
            int32_t x = ta_q_mul((int32_t)s2[i], p->mult2, p->shift2);                                       \
            x = ta__wadd(x, p->output_zp);                                                                   \
            output[i] = (int8_t)(x < -128 ? -128 : x > 127 ? 127 : x);                                       \
        }                                                                                                    \
    } while (0)

/* Steps 1 and 2. */
#define SHIFT_AND_FEATURE(STATE_T, LO, HI)                                                                   \
    do {                                                                                                     \
        const int64_t total = (int64_t)p->batch * p->n_filter * p->n_memory;                                 \
        memmove(state, state + 1, (size_t)(total - 1) * sizeof(STATE_T));                                    \
        for (int32_t b = 0; b < p->batch; b++) {                                                             \
            STATE_T *res = state + (int64_t)b * p->n_filter * p->n_memory + (p->n_memory - 1);               \
            const int8_t *w = w_feature;                                                                     \
            for (int32_t f = 0; f < p->n_filter; f++) {                                                      \
                const int8_t *x = input + (int64_t)b * p->input_size;                                        \
                uint32_t dot = 0;                                                                            \
                for (int32_t c = 0; c < p->input_size; c++)                                                  \
                    dot += (uint32_t)((int32_t)*w++ * ((int32_t)*x++ - p->input_zp));                        \
                int32_t v = ta_q_mul((int32_t)dot, p->mult1, p->shift1);                                     \
                v = ta__wadd(p->state_zp, v);                                                                \
                *res = (STATE_T)(v < (LO) ? (LO) : v > (HI) ? (HI) : v);                                     \
                res += p->n_memory;                                                                          \
            }                                                                                                \
        }                                                                                                    \
    } while (0)

ta_status ta_kernel_svdf_s8(const ta_svdf_params *p, const int8_t *input, const int8_t *w_feature,
                            const int16_t *w_time, const int32_t *bias, int16_t *state, int8_t *output,
                            void *scratch, size_t scratch_bytes) {
    ta_status st = check(p, input, w_feature, w_time, state, output, scratch, scratch_bytes);
    if (st) return st;
    SHIFT_AND_FEATURE(int16_t, -32768, 32767);
    TIME_AND_OUTPUT(int16_t);
    return TA_OK;
}

ta_status ta_kernel_svdf_s8_s8(const ta_svdf_params *p, const int8_t *input, const int8_t *w_feature,
                               const int8_t *w_time, const int32_t *bias, int8_t *state, int8_t *output,
                               void *scratch, size_t scratch_bytes) {
    ta_status st = check(p, input, w_feature, w_time, state, output, scratch, scratch_bytes);
    if (st) return st;
    SHIFT_AND_FEATURE(int8_t, -128, 127);
    TIME_AND_OUTPUT(int8_t);
    return TA_OK;
}
