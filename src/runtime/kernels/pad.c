/*
 * PAD / PADV2 for any element size, up to 5 dims: TFLM reference_ops::Pad.
 *
 * Steps: walk the output in linear order; an output index that falls in the
 * leading or trailing pad of any dim gets the pad value, others copy the
 * input element at (index - before).  The innermost dim is handled as runs
 * (pad, copy, pad) so copies are memcpy-sized.
 */
#include <string.h>

#include "tinyarena/kernels.h"

ta_status ta_kernel_pad(const ta_pad_params *p, const void *input, const void *pad_value,
                        void *output) {
    if (!p || !pad_value || !output || p->rank < 1 || p->rank > TA_KERNEL_MAX_PAD_RANK)
        return TA_E_INVALID_ARG;
    const size_t es = p->elem_size;
    if (es != 1 && es != 2 && es != 4 && es != 8) return TA_E_INVALID_ARG;
    int32_t out_shape[TA_KERNEL_MAX_PAD_RANK];
    int64_t in_count = 1, outer = 1;
    for (int32_t d = 0; d < p->rank; d++) {
        if (p->in_shape[d] < 0 || p->before[d] < 0 || p->after[d] < 0) return TA_E_INVALID_ARG;
        int64_t o = (int64_t)p->in_shape[d] + p->before[d] + p->after[d];
        if (o > (1 << 30)) return TA_E_INVALID_ARG;
        out_shape[d] = (int32_t)o;
        in_count *= p->in_shape[d];
        if (d < p->rank - 1) outer *= o;
    }
    if (in_count && !input) return TA_E_INVALID_ARG;
    const int32_t last = p->rank - 1;
    const int32_t ow = out_shape[last];
    uint8_t *out = (uint8_t *)output;
    const uint8_t *in = (const uint8_t *)input;
    int32_t idx[TA_KERNEL_MAX_PAD_RANK] = {0};
    for (int64_t r = 0; r < outer; r++) {
        /* is this row inside the input on every outer dim? */
        bool inside = true;
        int64_t in_row = 0;
        for (int32_t d = 0; d < last; d++) {
            int32_t i = idx[d] - p->before[d];
            if (i < 0 || i >= p->in_shape[d]) inside = false;
            in_row = in_row * p->in_shape[d] + (inside ? i : 0);
        }
        uint8_t *orow = out + (size_t)r * (size_t)ow * es;
        if (!inside) {
            for (int32_t x = 0; x < ow; x++) memcpy(orow + (size_t)x * es, pad_value, es);
        } else {
            const int32_t b = p->before[last], w = p->in_shape[last];
            for (int32_t x = 0; x < b; x++) memcpy(orow + (size_t)x * es, pad_value, es);
            if (w) memcpy(orow + (size_t)b * es, in + (size_t)in_row * (size_t)w * es, (size_t)w * es);
            for (int32_t x = b + w; x < ow; x++) memcpy(orow + (size_t)x * es, pad_value, es);
        }
        for (int32_t d = last - 1; d >= 0; d--) {
            if (++idx[d] < out_shape[d]) break;
            idx[d] = 0;
        }
    }
    return TA_OK;
}
