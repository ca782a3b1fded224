/*
 * The ops with weights (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
 * TRANSPOSE_CONV) share their type checks and the requantisation table:
 * per-channel multipliers and shifts (or one, per tensor) carved into the
 * record after its params.
 */
#include "runtime/ops/op.h"

/* Every kernel path (int8, int16, float32) reads one bias element per
 * output channel, so prepare proves the length, not just the type. */
ta_status ta__op_bias_len(const ta__op_ctx *c, const ta_tensor *b, int32_t channels) {
    if (b && ta__op_elems(b) != (int64_t)channels)
        return ta_diag_set(c->diag, TA_E_MALFORMED,
                           "op %u (%s): bias tensor %d has %lld elements for %d output channels", c->index,
                           ta__op_ctx_name(c), b->index, (long long)ta__op_elems(b), channels);
    return TA_OK;
}

/* The int16 kernels (CONV_2D, TRANSPOSE_CONV, BATCH_MATMUL) accumulate in
 * int64 and requantise with ta_q_mul64, which multiplies the accumulator
 * by a 16-bit multiplier: |acc| must stay below 2^47.  acc is the bias
 * (int64 or int32 data, read here) plus `depth` products of at most
 * 2^prod_bits each. */
ta_status ta__op_acc64_ok(const ta__op_ctx *c, const ta_tensor *b, int64_t depth, int prod_bits) {
    const int64_t limit = INT64_C(1) << 47;
    if (depth < 0 || depth > (limit >> prod_bits))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "accumulation too deep for the int64 path");
    int64_t max_bias = 0;
    if (b && b->data) {
        const size_t es = b->dtype == TA_DTYPE_INT64 ? 8 : 4;
        const size_t n = b->data_bytes / es;
        for (size_t i = 0; i < n; i++) {
            int64_t v;
            if (es == 8) {
                memcpy(&v, (const uint8_t *)b->data + 8 * i, 8);
            } else {
                int32_t v32;
                memcpy(&v32, (const uint8_t *)b->data + 4 * i, 4);
                v = v32;
            }
            if (v == INT64_MIN) return ta__op_fail(c, TA_E_UNSUPPORTED, "a bias value overflows the int64 path");
            if (v < 0) v = -v;
            if (v > max_bias) max_bias = v;
        }
    } else if (b) {
        return ta__op_fail(c, TA_E_UNSUPPORTED, "int16 bias must be constant");
    }
    if (max_bias > limit - (depth << prod_bits))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "a bias value overflows the int64 path");
    return TA_OK;
}

/* Per-channel requantisation table for conv/depthwise/FC (per_channel or broadcast). */
static ta_status requant_table(ta__op_ctx *c, const ta_tensor *in, const ta_tensor *w, const ta_tensor *out,
                               int32_t channels, bool fc_per_tensor, ta_requant *q) {
    if (!w->quant.count || !w->quant.scale) return ta__op_fail(c, TA_E_UNSUPPORTED, "weights are not quantised");
    if (w->quant.count != 1 && w->quant.count != (uint32_t)channels)
        return ta__op_fail(c, TA_E_MALFORMED, "weight scales do not match the output channels");
    q->input_offset = -ta__op_zp(in);
    q->output_offset = ta__op_zp(out);
    q->weights_offset = -ta__op_zp(w);
    if (!(ta__op_scale(out) > 0.0f)) return ta__op_fail(c, TA_E_MALFORMED, "output scale is not positive");
    ta_status st = ta_quant_activation_range(c->op->opt.activation, ta__op_scale(out), ta__op_zp(out), out->dtype,
                                             &q->act_min, &q->act_max);
    if (st) return ta__op_fail(c, st, "unsupported fused activation");
    /* Kernels shift left by a positive shift in int32: above 30 is undefined
     * (and no real model's ratio comes near 2^30).  Checked in the size
     * query too, not only when the tables are filled. */
    if (fc_per_tensor) {
        int32_t *m = ta__op_take(c, sizeof(int32_t) + 1);
        q->per_channel = false;
        int32_t mult, sh;
        ta_quant_multiplier(ta_quant_fc_real_multiplier(ta__op_scale(in), w->quant.scale[0], ta__op_scale(out)), &mult,
                            &sh);
        if (sh > 30) return ta__op_fail(c, TA_E_UNSUPPORTED, "requantisation ratio out of range");
        if (m) {
            m[0] = mult;
            int8_t *s8 = (int8_t *)(m + 1);
            *s8 = (int8_t)sh;
            q->mult = &m[0];
            q->shift = s8;
        }
        return TA_OK;
    }
    for (int32_t k = 0; k < channels; k++) {
        int32_t mult, sh;
        ta_quant_multiplier((double)ta__op_scale(in) * (double)w->quant.scale[w->quant.count == 1 ? 0 : k] /
                                (double)ta__op_scale(out),
                            &mult, &sh);
        if (sh > 30) return ta__op_fail(c, TA_E_UNSUPPORTED, "requantisation ratio out of range");
    }
    int32_t *m = ta__op_take(c, (size_t)channels * sizeof(int32_t));
    int8_t *s = ta__op_take(c, (size_t)channels);
    q->per_channel = true;
    if (m && s) {
        st = ta_quant_conv_multipliers(ta__op_scale(in), w->quant.scale, w->quant.count, ta__op_scale(out),
                                       (uint32_t)channels, m, s);
        if (st) return ta__op_fail(c, st, "cannot derive multipliers");
        q->mult = m;
        q->shift = s;
    }
    return TA_OK;
}

/* int8 input with weights (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
 * TRANSPOSE_CONV): int8 weights (`role` in messages) and output, int32 bias
 * or none; TA__P_S8 and the requantisation table. */
ta_status ta__op_prep_s8_weights(ta__op_ctx *c, const ta_tensor *in, const ta_tensor *w, const ta_tensor *b,
                                 const ta_tensor *out, const char *role, int32_t channels, bool fc_per_tensor,
                                 ta_requant *q) {
    if (w->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, role, w->dtype);
    if (out->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "output", out->dtype);
    if (b && b->dtype != TA_DTYPE_INT32) return ta__op_fail_type(c, "bias", b->dtype);
    c->path = TA__P_S8;
    return requant_table(c, in, w, out, channels, fc_per_tensor, q);
}

/* float32 input with weights (CONV_2D, FULLY_CONNECTED): float32 weights and
 * output, float32 bias when b is given; TA__P_F32 and the activation range. */
ta_status ta__op_prep_f32_weights(ta__op_ctx *c, const ta_tensor *w, const ta_tensor *b, const ta_tensor *out,
                                  const char *role, float *lo, float *hi) {
    if (w->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, role, w->dtype);
    if (out->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, "output", out->dtype);
    if (b && b->dtype != TA_DTYPE_FLOAT32) return ta__op_fail_type(c, "bias", b->dtype);
    c->path = TA__P_F32;
    return ta__op_float_act(c, lo, hi);
}

/* int16 activations x int8 weights (CONV_2D, TRANSPOSE_CONV): symmetric
 * int16 input and output, per-channel multipliers whose shifts fit
 * TFLM's int64 requantisation (<= 7); bias int64, int32 (conv only) or none.
 * Sets the path (TA__P_S16 / TA__P_S16_B32). */
ta_status ta__op_prep_s16x8(ta__op_ctx *c, const ta_tensor *in, const ta_tensor *w, const ta_tensor *b,
                            const ta_tensor *out, ta_requant *q, int32_t channels, bool allow_b32) {
    if (w->dtype != TA_DTYPE_INT8) return ta__op_fail_type(c, "filter", w->dtype);
    if (out->dtype != TA_DTYPE_INT16) return ta__op_fail_type(c, "output", out->dtype);
    if (ta__op_zp(in) != 0 || ta__op_zp(out) != 0)
        return ta__op_fail(c, TA_E_UNSUPPORTED, "int16 input and output need zero point 0");
    if (b && b->dtype != TA_DTYPE_INT64 && !(allow_b32 && b->dtype == TA_DTYPE_INT32))
        return ta__op_fail_type(c, "bias", b->dtype);
    c->path = b && b->dtype == TA_DTYPE_INT32 ? TA__P_S16_B32 : !b && allow_b32 ? TA__P_S16_B32 : TA__P_S16;
    ta_status st = requant_table(c, in, w, out, channels, false, q);
    if (st) return st;
    if (q->shift && c->path == TA__P_S16)
        for (int32_t k = 0; k < channels; k++)
            if (q->shift[k] > 7)
                return ta__op_fail(c, TA_E_UNSUPPORTED, "requantisation ratio too large for the int64 path");
    return TA_OK;
}
