/*
 * FULLY_CONNECTED, int8 (per-tensor or per-channel) and float32: TFLM
 * reference_integer_ops::FullyConnected / FullyConnectedPerChannel and
 * reference_ops::FullyConnected.  keep_num_dims only changes the output
 * shape, never the data, so it is not a parameter here.
 *
 * Steps, per batch row b and output feature o:
 *  1. acc = sum_d (w[o, d] + weights_offset) * (x[b, d] + input_offset),
 *     in wrapping int32 (float: total += x * w, d ascending).
 *  2. + bias[o]; int8: requantise (multiplier o when per-channel, else the
 *     single one), + output zero point, clamp; float: clamp(total + bias).
 */
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"

static ta_status fc_check(const ta_fc_params *p) {
    if (!p || p->batches < 0 || p->accum_depth <= 0 || p->out_depth <= 0) return TA_E_INVALID_ARG;
    return TA_OK;
}

ta_status ta_kernel_fully_connected_s8(const ta_fc_params *p, const int8_t *input,
                                       const int8_t *weights, const int32_t *bias, int8_t *output) {
    ta_status st = fc_check(p);
    if (st) return st;
    if (!input || !weights || !output || !p->q.mult || !p->q.shift) return TA_E_INVALID_ARG;
    ta_kernel_args a = {.p = p, .input = input, .weights = weights, .bias = bias, .output = output};
    TA__KV_NOTE(ta__kv_fc_s8_need(p));
    return ta__kv_run(ta__kernel_impl() != TA_KERNEL_IMPL_REFERENCE && ta__fully_connected_s8_fast_ok(p)
                          ? TA_KV_FC_S8_FAST
                          : TA_KV_FC_S8_REF,
                      &a);
}

void ta__fully_connected_s8_ref(const ta_fc_params *p, const int8_t *input, const int8_t *weights,
                                const int32_t *bias, int8_t *output) {
    const int32_t D = p->accum_depth, O = p->out_depth;
    const int32_t in_off = p->q.input_offset, w_off = p->q.weights_offset;
    for (int32_t b = 0; b < p->batches; b++) {
        const int8_t *x = input + (int64_t)b * D;
        for (int32_t o = 0; o < O; o++) {
            const int8_t *w = weights + (int64_t)o * D;
            int64_t acc = 0;
            for (int32_t d = 0; d < D; d++) acc += ((int32_t)w[d] + w_off) * ((int32_t)x[d] + in_off);
            int32_t a = (int32_t)(uint32_t)(uint64_t)acc;
            if (bias) a = (int32_t)((uint32_t)a + (uint32_t)bias[o]);
            const int32_t ch = p->q.per_channel ? o : 0;
            a = ta_q_mul(a, p->q.mult[ch], p->q.shift[ch]);
            a += p->q.output_offset;
            if (a < p->q.act_min) a = p->q.act_min;
            if (a > p->q.act_max) a = p->q.act_max;
            output[(int64_t)b * O + o] = (int8_t)a;
        }
    }
}

ta_status ta_kernel_fully_connected_f32(const ta_fc_params *p, const float *input,
                                        const float *weights, const float *bias, float *output) {
    ta_status st = fc_check(p);
    if (st) return st;
    if (!input || !weights || !output) return TA_E_INVALID_ARG;
    const int32_t D = p->accum_depth, O = p->out_depth;
    for (int32_t b = 0; b < p->batches; b++) {
        const float *x = input + (int64_t)b * D;
        for (int32_t o = 0; o < O; o++) {
            const float *w = weights + (int64_t)o * D;
            float total = 0.0f;
            for (int32_t d = 0; d < D; d++) total += x[d] * w[d];
            float v = total + (bias ? bias[o] : 0.0f);
            v = v < p->act_min ? p->act_min : v;
            v = v > p->act_max ? p->act_max : v;
            output[(int64_t)b * O + o] = v;
        }
    }
    return TA_OK;
}

/* The variants behind the table (tinyarena/kernel_link.h). */
ta_status ta__kv_fc_s8_ref(ta_kernel_args *a) {
    ta__fully_connected_s8_ref(a->p, a->input, a->weights, a->bias, a->output);
    return TA_OK;
}

ta_status ta__kv_fc_f32(ta_kernel_args *a) {
    return ta_kernel_fully_connected_f32(a->p, a->input, a->weights, a->bias, a->output);
}
