/*
 * FILL, ZEROS_LIKE (a FILL of zero bytes) and BROADCAST_TO: TFLM's fill and
 * broadcast_to loops, for any element size.
 */
#include <string.h>

#include "tinyarena/kernels.h"

ta_status ta_kernel_fill(size_t n, size_t elem_size, const void *value, void *output) {
    if (!value || !output || elem_size == 0 || elem_size > 16) return TA_E_INVALID_ARG;
    uint8_t *o = (uint8_t *)output;
    for (size_t i = 0; i < n; i++) memcpy(o + i * elem_size, value, elem_size);
    return TA_OK;
}

ta_status ta_kernel_broadcast_to(const ta_broadcast_to_params *p, const void *input, void *output) {
    if (!p || !input || !output || p->rank < 1 || p->rank > TA_KERNEL_MAX_BROADCAST_RANK || p->elem_size < 1 ||
        p->elem_size > 16)
        return TA_E_INVALID_ARG;
    const int32_t r = p->rank;
    int64_t st[TA_KERNEL_MAX_BROADCAST_RANK], s = 1, n = 1;
    for (int32_t d = r - 1; d >= 0; d--) {
        if (p->out_shape[d] < 0 || (p->in_shape[d] != 1 && p->in_shape[d] != p->out_shape[d])) return TA_E_INVALID_ARG;
        /* a broadcast dim (1 -> n) re-reads the same input: stride 0 */
        st[d] = p->in_shape[d] == 1 ? 0 : s;
        s *= p->in_shape[d];
        n *= p->out_shape[d];
    }
    if (n == 0) return TA_OK;
    const size_t es = (size_t)p->elem_size;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    int32_t idx[TA_KERNEL_MAX_BROADCAST_RANK] = {0};
    int64_t off = 0;
    for (int64_t o = 0; o < n; o++) {
        memcpy(out + (size_t)o * es, in + (size_t)off * es, es);
        for (int32_t d = r - 1; d >= 0; d--) {
            idx[d]++;
            off += st[d];
            if (idx[d] < p->out_shape[d]) break;
            off -= st[d] * idx[d];
            idx[d] = 0;
        }
    }
    return TA_OK;
}
