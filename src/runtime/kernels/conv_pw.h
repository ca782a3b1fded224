/* Internal: the requantisation constants of one channel group of the DSP
 * cores' 1x1 kernel (conv2d_s8_pw_dsp.c) and which of its pixel loops
 * (TA_KV_CONV_S8_PW{4,2}_R{0..3}) the group runs.  Plain C: the kernel
 * calls it on the target, the host's recorder (kernel_variants.c) on the
 * same parameters, so both name the same pixel loop. */
#ifndef TA_KERNELS_CONV_PW_H
#define TA_KERNELS_CONV_PW_H

#include "runtime/kernels/requant.h"

typedef struct ta__pw_group {
    ta__rq rq[4];
    ta__rqs rs[4];
    bool small[4];     /* channel j requantises with ta__rqs */
    uint32_t fold[4];  /* bias + input_offset * weight sum (the caller sets it) */
    uint32_t rc[16];   /* per channel: fold2, mult, add, right (PW_RQS) */
    uint32_t rc5[20];  /* per channel: fold2, mult, 2^(right-1), right, zero point (PW_RQS5) */
} ta__pw_group;

/* Whether every window of a channel requantises to the same byte *k:
 * a channel with a sum far outside what its inputs can move (a bias of
 * +-2^30 on a dead channel, as in vww_96_int8) or a multiplier too small to
 * move the output.  The window sums lie in fold + [-depth * 2^14,
 * depth * 2^14]; where neither that interval nor its left shift wraps int32,
 * ta_q_mul, the zero point and the clamp are monotonic in the sum, so equal
 * bytes at both ends mean the same byte everywhere. */
static inline bool ta__pw_const(const ta__rq *rq, ta__rq_out ro, uint32_t fold, int32_t depth, int8_t *k) {
    const int64_t f = (int32_t)fold, reach = (int64_t)depth * 16384;
    const int64_t lo = f - reach, hi = f + reach;
    if (lo < -(INT64_C(1) << 31) >> rq->left || hi >= (INT64_C(1) << 31) >> rq->left) return false;
    const int8_t a = ta__rq_s8(rq, ro, (uint32_t)(int32_t)lo), b = ta__rq_s8(rq, ro, (uint32_t)(int32_t)hi);
    *k = a;
    return a == b;
}

/* The constants of channels oc0 .. oc0 + nch - 1 (g->fold set), windows of
 * `depth` terms; layer_ok: ta__rqs_layer_ok of the layer.  Returns the
 * requantisation the group's pixel loop uses: 0 channel by channel, 1 all
 * ta__rqs without an activation clamp, 2 all ta__rqs with it, 3 all as
 * ta__rqs with rounding shifts up to 31 (or constant) and no clamp. */
static inline int ta__pw_group_make(const ta_conv_params *p, bool layer_ok, int32_t oc0, int32_t nch, int32_t depth,
                                    ta__pw_group *g) {
    const bool full = p->q.act_min == -128 && p->q.act_max == 127;
    for (int32_t j = 0; j < 4; j++) {
        g->rs[j] = (ta__rqs){0, 0, 1, 0};
        g->small[j] = false;
        if (j >= nch) g->fold[j] = 0;
    }
    for (int32_t j = 0; j < nch; j++) {
        g->rq[j] = ta__rq_make(&p->q, oc0 + j);
        g->small[j] = layer_ok && ta__rqs_make(&p->q, oc0 + j, g->fold[j], depth, &g->rs[j]);
    }
    for (int32_t j = 0; j < 4; j++) {
        g->rc[4 * j] = g->rs[j].fold2, g->rc[4 * j + 1] = (uint32_t)g->rs[j].mult;
        g->rc[4 * j + 2] = (uint32_t)g->rs[j].add, g->rc[4 * j + 3] = (uint32_t)g->rs[j].right;
    }
    /* rmode 3: every channel within PW_RQS5's rule (ta__rqs's, with
     * rounding shifts up to 31), no activation clamp -- or constant
     * (ta__pw_const) */
    bool big = full && p->q.output_offset >= -128 && p->q.output_offset <= 127;
    for (int32_t j = 0; big && j < nch; j++) {
        const int32_t ch = p->q.per_channel ? oc0 + j : 0;
        const int32_t sh = p->q.shift[ch];
        const int64_t fj = (int32_t)g->fold[j];
        int8_t kb;
        if (p->q.mult[ch] != INT32_MIN && sh <= -1 && sh >= -31 &&
            (fj < 0 ? -fj : fj) + (int64_t)depth * 16384 < (INT64_C(1) << 29)) {
            g->rc5[5 * j] = g->fold[j] << 1, g->rc5[5 * j + 1] = (uint32_t)p->q.mult[ch];
            g->rc5[5 * j + 2] = UINT32_C(1) << (-sh - 1), g->rc5[5 * j + 3] = (uint32_t)-sh;
            g->rc5[5 * j + 4] = (uint32_t)p->q.output_offset;
        } else if (ta__pw_const(&g->rq[j], ta__rq_out_make(&p->q), g->fold[j], depth, &kb)) {
            /* multiplier 0: PW_RQS5 then yields its last constant */
            g->rc5[5 * j] = g->rc5[5 * j + 1] = g->rc5[5 * j + 2] = g->rc5[5 * j + 3] = 0;
            g->rc5[5 * j + 4] = (uint32_t)(int32_t)kb;
        } else {
            big = false;
        }
    }
    const bool all_small = g->small[0] && g->small[1] && (nch == 2 || (g->small[2] && g->small[3]));
    return all_small ? (full ? 1 : 2) : big ? 3 : 0;
}
#endif
