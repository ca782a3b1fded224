/*
 * MIRROR_PAD, rank <= 5: TFLM's mapping of every output index to an input
 * index, dim by dim.  With offset 1 (REFLECT) the edge is not repeated,
 * with 0 (SYMMETRIC) it is.  Prepare bounds each padding by the input dim
 * (minus the offset), so every mapped index is inside the input.
 */
#include <string.h>

#include "tinyarena/kernels.h"

/* TFLM's GetInputDimension, read as arithmetic: indices before the input
 * mirror back from the first element, indices after it from the last. */
static int64_t mirror_index(int64_t i, int64_t before, int64_t size, int64_t offset) {
    if (i < before) {
        const int64_t orig = before + offset - 1;
        const int64_t d = i < orig - offset ? i : orig - offset;
        return orig - d;
    }
    i -= before;
    if (i >= size) {
        i -= size;
        const int64_t orig = size - (1 + offset);
        return orig - (i < orig ? i : orig);
    }
    return i;
}

ta_status ta_kernel_mirror_pad(const ta_mirror_pad_params *p, const void *input, void *output) {
    if (!p || !input || !output || p->rank < 1 || p->rank > TA_KERNEL_MAX_PAD_RANK || p->elem_size < 1 ||
        (p->offset != 0 && p->offset != 1))
        return TA_E_INVALID_ARG;
    const int32_t r = p->rank;
    int64_t out_shape[TA_KERNEL_MAX_PAD_RANK], in_stride[TA_KERNEL_MAX_PAD_RANK], n = 1, s = 1;
    for (int32_t d = r - 1; d >= 0; d--) {
        if (p->in_shape[d] < 1 || p->before[d] < 0 || p->after[d] < 0 || p->before[d] > p->in_shape[d] - p->offset ||
            p->after[d] > p->in_shape[d] - p->offset)
            return TA_E_INVALID_ARG;
        out_shape[d] = (int64_t)p->in_shape[d] + p->before[d] + p->after[d];
        in_stride[d] = s;
        s *= p->in_shape[d];
        n *= out_shape[d];
    }
    const size_t es = (size_t)p->elem_size;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    int64_t idx[TA_KERNEL_MAX_PAD_RANK] = {0};
    for (int64_t o = 0; o < n; o++) {
        int64_t off = 0;
        for (int32_t d = 0; d < r; d++)
            off += mirror_index(idx[d], p->before[d], p->in_shape[d], p->offset) * in_stride[d];
        memcpy(out + (size_t)o * es, in + (size_t)off * es, es);
        for (int32_t d = r - 1; d >= 0; d--) {
            if (++idx[d] < out_shape[d]) break;
            idx[d] = 0;
        }
    }
    return TA_OK;
}
