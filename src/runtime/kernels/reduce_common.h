/* Internal: what MEAN (mean.c) and SUM / REDUCE_MAX / REDUCE_MIN (reduce.c)
 * share -- the element counts and TFLM's linear-order walk that folds each
 * input element into the output element it reduces to. */
#ifndef TA_KERNELS_REDUCE_COMMON_H
#define TA_KERNELS_REDUCE_COMMON_H
#include "tinyarena/kernels.h"

/* Element counts: output, input, reduced.  TA_E_INVALID_ARG on a bad rank,
 * a negative or > 2^30 dim, or more than 2^40 input elements (so every
 * index below fits an int64 with room). */
static inline ta_status ta__reduce_counts(const ta_mean_params *p, int64_t *n_out, int64_t *n_in, int64_t *n_red) {
    if (!p || p->rank < 1 || p->rank > TA_KERNEL_MAX_REDUCE_RANK) return TA_E_INVALID_ARG;
    int64_t o = 1, i = 1, r = 1;
    for (int32_t d = 0; d < p->rank; d++) {
        if (p->in_shape[d] < 0 || p->in_shape[d] > (1 << 30)) return TA_E_INVALID_ARG;
        i *= p->in_shape[d];
        if (p->reduce[d])
            r *= p->in_shape[d];
        else
            o *= p->in_shape[d];
        if (i > (INT64_C(1) << 40)) return TA_E_INVALID_ARG;
    }
    *n_out = o;
    *n_in = i;
    *n_red = r;
    return TA_OK;
}

/* Runs STMT for every input element ii in linear order, with oi the output
 * element it reduces to (reduced dims have output stride 0).  A macro, not
 * a callback, so each reduction's fold compiles inline in its loop. */
#define TA__REDUCE_WALK(P, NIN, STMT)                                                                                  \
    do {                                                                                                               \
        int64_t st_[TA_KERNEL_MAX_REDUCE_RANK], s_ = 1;                                                                \
        int32_t idx_[TA_KERNEL_MAX_REDUCE_RANK] = {0};                                                                 \
        for (int32_t d = (P)->rank - 1; d >= 0; d--) {                                                                 \
            st_[d] = (P)->reduce[d] ? 0 : s_;                                                                          \
            if (!(P)->reduce[d]) s_ *= (P)->in_shape[d];                                                               \
        }                                                                                                              \
        int64_t oi = 0;                                                                                                \
        for (int64_t ii = 0; ii < (NIN); ii++) {                                                                       \
            STMT;                                                                                                      \
            for (int32_t d = (P)->rank - 1; d >= 0; d--) {                                                             \
                idx_[d]++;                                                                                             \
                oi += st_[d];                                                                                          \
                if (idx_[d] < (P)->in_shape[d]) break;                                                                 \
                oi -= st_[d] * idx_[d];                                                                                \
                idx_[d] = 0;                                                                                           \
            }                                                                                                          \
        }                                                                                                              \
    } while (0)
#endif
