/*
 * TRANSPOSE for any element size, up to 6 dims: TFLM reference_ops::
 * Transpose.  Output dim i is input dim perm[i]; walk the output in linear
 * order and gather from the input through permuted strides.
 */
#include <string.h>

#include "tinyarena/kernels.h"

ta_status ta_kernel_transpose(const ta_transpose_params *p, const void *input, void *output) {
    if (!p || !input || !output || p->rank < 1 || p->rank > TA_KERNEL_MAX_TRANSPOSE_RANK)
        return TA_E_INVALID_ARG;
    const size_t es = p->elem_size;
    if (es == 0 || es > 16) return TA_E_INVALID_ARG;
    const int32_t r = p->rank;
    int64_t in_stride[TA_KERNEL_MAX_TRANSPOSE_RANK], s = 1;
    for (int32_t d = r - 1; d >= 0; d--) {
        if (p->in_shape[d] < 0) return TA_E_INVALID_ARG;
        in_stride[d] = s;
        s *= p->in_shape[d];
        if (s > (INT64_C(1) << 40)) return TA_E_INVALID_ARG;
    }
    int32_t out_shape[TA_KERNEL_MAX_TRANSPOSE_RANK];
    int64_t st[TA_KERNEL_MAX_TRANSPOSE_RANK];
    bool used[TA_KERNEL_MAX_TRANSPOSE_RANK] = {false};
    for (int32_t i = 0; i < r; i++) {
        int32_t a = p->perm[i];
        if (a < 0 || a >= r || used[a]) return TA_E_INVALID_ARG;
        used[a] = true;
        out_shape[i] = p->in_shape[a];
        st[i] = in_stride[a];
    }
    if (s == 0) return TA_OK;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    int32_t idx[TA_KERNEL_MAX_TRANSPOSE_RANK] = {0};
    int64_t off = 0;
    for (int64_t o = 0; o < s; o++) {
        memcpy(out + (size_t)o * es, in + (size_t)off * es, es);
        for (int32_t d = r - 1; d >= 0; d--) {
            idx[d]++;
            off += st[d];
            if (idx[d] < out_shape[d]) break;
            off -= st[d] * idx[d];
            idx[d] = 0;
        }
    }
    return TA_OK;
}
