/*
 * BATCH_MATMUL, int8, int16 and float32: TFLM reference_ops::BatchMatMul.
 *
 * TFLM transposes the RHS (unless adj_y) into a persistent buffer, swaps the
 * operands and runs one "RCC" kernel.  What it computes, per output element,
 * is out[b, a, c] = sum_k L[b, a, k] * R[b, k, c] with k ascending, so this
 * kernel reads both operands in place through strides instead:
 *  1. Right-align both shapes to rank 5; dims 0..2 are batch dims that
 *     broadcast (an operand with extent 1 is re-read).
 *  2. L[a, k] is lhs[a, k] (adj_x: lhs[k, a]); R[k, c] is rhs[k, c] (adj_y:
 *     rhs[c, k]).
 *  3. Quantised: sum (L + lhs_offset) * (R + rhs_offset) in int32 (int8,
 *     wrapping as TFLM's) or int64 (int16); requantise (ta_q_mul /
 *     ta_q_mul64), + output zero point, clamp to the type.  Float: the sum
 *     from 0.0f in k order.
 * No scratch and no persistent buffer (TFLM keeps a transposed copy of the
 * RHS per op).
 */
#include "tinyarena/kernels.h"

ta_status ta_batch_matmul_shape(const ta_batch_matmul_params *p, int32_t out[5]) {
    if (!p || !out) return TA_E_INVALID_ARG;
    for (int d = 0; d < 5; d++)
        if (p->lhs[d] <= 0 || p->rhs[d] <= 0) return TA_E_INVALID_ARG;
    for (int d = 0; d < 3; d++) {
        if (p->lhs[d] != p->rhs[d] && p->lhs[d] != 1 && p->rhs[d] != 1) return TA_E_INVALID_ARG;
        out[d] = p->lhs[d] == 1 ? p->rhs[d] : p->lhs[d];
    }
    const int32_t rows = p->adj_x ? p->lhs[4] : p->lhs[3], depth_l = p->adj_x ? p->lhs[3] : p->lhs[4];
    const int32_t depth_r = p->adj_y ? p->rhs[4] : p->rhs[3], cols = p->adj_y ? p->rhs[3] : p->rhs[4];
    if (depth_l != depth_r) return TA_E_INVALID_ARG;
    out[3] = rows;
    out[4] = cols;
    return TA_OK;
}

/* Strides for one matmul: where L[a, k] and R[k, c] live, and each batch's base. */
typedef struct {
    int32_t out[5], depth;
    int64_t la, lk, rk, rc;       /* element strides inside one matrix */
    int64_t lb[3], rb[3];         /* batch strides (0 where the operand broadcasts) */
} bmm_walk;

static ta_status walk_init(const ta_batch_matmul_params *p, bmm_walk *w) {
    ta_status st = ta_batch_matmul_shape(p, w->out);
    if (st) return st;
    w->depth = p->adj_x ? p->lhs[3] : p->lhs[4];
    const int64_t lm = (int64_t)p->lhs[3] * p->lhs[4], rm = (int64_t)p->rhs[3] * p->rhs[4];
    w->la = p->adj_x ? 1 : p->lhs[4];
    w->lk = p->adj_x ? p->lhs[4] : 1;
    w->rk = p->adj_y ? 1 : p->rhs[4];
    w->rc = p->adj_y ? p->rhs[4] : 1;
    int64_t ls = lm, rs = rm;
    for (int d = 2; d >= 0; d--) {
        w->lb[d] = p->lhs[d] == 1 ? 0 : ls;
        w->rb[d] = p->rhs[d] == 1 ? 0 : rs;
        ls *= p->lhs[d];
        rs *= p->rhs[d];
    }
    return TA_OK;
}

#define WALK(w, BODY)                                                                                        \
    do {                                                                                                     \
        int64_t o_ = 0;                                                                                      \
        for (int32_t b0 = 0; b0 < (w).out[0]; b0++)                                                          \
            for (int32_t b1 = 0; b1 < (w).out[1]; b1++)                                                      \
                for (int32_t b2 = 0; b2 < (w).out[2]; b2++) {                                                \
                    const int64_t lbase = b0 * (w).lb[0] + b1 * (w).lb[1] + b2 * (w).lb[2];                  \
                    const int64_t rbase = b0 * (w).rb[0] + b1 * (w).rb[1] + b2 * (w).rb[2];                  \
                    for (int32_t a = 0; a < (w).out[3]; a++)                                                 \
                        for (int32_t c = 0; c < (w).out[4]; c++, o_++) {                                     \
                            const int64_t l0 = lbase + a * (w).la, r0 = rbase + c * (w).rc;                  \
                            BODY;                                                                            \
                        }                                                                                    \
                }                                                                                            \
    } while (0)

ta_status ta_kernel_batch_matmul_s8(const ta_batch_matmul_params *p, const int8_t *lhs, const int8_t *rhs,
                                    int8_t *output) {
    bmm_walk w;
    if (!lhs || !rhs || !output) return TA_E_INVALID_ARG;
    ta_status st = walk_init(p, &w);
    if (st) return st;
    if (p->shift < -31 || p->shift > 30) return TA_E_INVALID_ARG;
    WALK(w, {
        uint32_t acc = 0; /* wrapping int32 */
        for (int32_t k = 0; k < w.depth; k++)
            acc += (uint32_t)(((int32_t)lhs[l0 + k * w.lk] + p->lhs_offset) *
                              ((int32_t)rhs[r0 + k * w.rk] + p->rhs_offset));
        int32_t v = ta_q_mul((int32_t)acc, p->mult, p->shift);
        v = (int32_t)((uint32_t)v + (uint32_t)p->output_offset);
        output[o_] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
    });
    return TA_OK;
}

ta_status ta_kernel_batch_matmul_s16(const ta_batch_matmul_params *p, const int16_t *lhs, const int16_t *rhs,
                                     int16_t *output) {
    bmm_walk w;
    if (!lhs || !rhs || !output) return TA_E_INVALID_ARG;
    ta_status st = walk_init(p, &w);
    if (st) return st;
    if (p->shift < -31 || p->shift > 7) return TA_E_INVALID_ARG;
    WALK(w, {
        int64_t acc = 0;
        for (int32_t k = 0; k < w.depth; k++)
            acc += (int64_t)((int32_t)lhs[l0 + k * w.lk] + p->lhs_offset) * ((int32_t)rhs[r0 + k * w.rk] + p->rhs_offset);
        int32_t v = ta_q_mul64(acc, p->mult, p->shift);
        v = (int32_t)((uint32_t)v + (uint32_t)p->output_offset);
        output[o_] = (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
    });
    return TA_OK;
}

ta_status ta_kernel_batch_matmul_f32(const ta_batch_matmul_params *p, const float *lhs, const float *rhs,
                                     float *output) {
    bmm_walk w;
    if (!lhs || !rhs || !output) return TA_E_INVALID_ARG;
    ta_status st = walk_init(p, &w);
    if (st) return st;
    WALK(w, {
        float acc = 0.0f;
        for (int32_t k = 0; k < w.depth; k++) acc += lhs[l0 + k * w.lk] * rhs[r0 + k * w.rk];
        output[o_] = acc;
    });
    return TA_OK;
}
