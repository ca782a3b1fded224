/*
 * PAD / PADV2 walked backward, for an output placed over its own input (the
 * OVERLAP rewrite's backward walk, walk.h ta_walk_pad_backward).
 *
 * Output element j (row-major) is either padding or a copy of input element
 * src(j); src increases with j, and j - src(j) -- the padding elements
 * before j -- never decreases, so it is smallest at the first copied
 * element: `first` / elem_size (ta_kernel_pad_first).  Walking j from the
 * last element down, each write lands at or above the input element it
 * replaces, and every input element still to be read (src(k) for k < j)
 * lies below the write, as long as the input starts no more than `first`
 * bytes above the output.  Whole rows (the innermost axis) keep that order:
 * a row's trailing padding, then its copied run (memmove: source and
 * destination of one run may overlap), then its leading padding; rows from
 * the last down.  The bytes are ta_kernel_pad's.
 */
#include <string.h>

#include "tinyarena/kernels.h"

static bool pad_shape(const ta_pad_params *p, int64_t *out_shape, int64_t *in_count) {
    if (!p || p->rank < 1 || p->rank > TA_KERNEL_MAX_PAD_RANK) return false;
    if (p->elem_size != 1 && p->elem_size != 2 && p->elem_size != 4 && p->elem_size != 8) return false;
    *in_count = 1;
    for (int32_t d = 0; d < p->rank; d++) {
        if (p->in_shape[d] < 0 || p->before[d] < 0 || p->after[d] < 0) return false;
        out_shape[d] = (int64_t)p->in_shape[d] + p->before[d] + p->after[d];
        if (out_shape[d] > (1 << 30)) return false;
        *in_count *= p->in_shape[d];
    }
    return true;
}

size_t ta_kernel_pad_first(const ta_pad_params *p) {
    int64_t out_shape[TA_KERNEL_MAX_PAD_RANK], in_count = 0;
    if (!pad_shape(p, out_shape, &in_count) || !in_count) return SIZE_MAX;
    uint64_t at = 0;
    for (int32_t d = 0; d < p->rank; d++) at = at * (uint64_t)out_shape[d] + (uint64_t)p->before[d];
    return (size_t)(at * p->elem_size);
}

ta_status ta_kernel_pad_backward(const ta_pad_params *p, const void *input, const void *pad_value, void *output) {
    int64_t out_shape[TA_KERNEL_MAX_PAD_RANK], in_count = 0;
    if (!pad_value || !output || !pad_shape(p, out_shape, &in_count)) return TA_E_INVALID_ARG;
    if (in_count && !input) return TA_E_INVALID_ARG;
    const size_t es = p->elem_size;
    const int32_t last = p->rank - 1;
    int64_t outer = 1;
    for (int32_t d = 0; d < last; d++) outer *= out_shape[d];
    const int64_t ow = out_shape[last];
    const int32_t b = p->before[last], w = p->in_shape[last];
    uint8_t *out = (uint8_t *)output;
    const uint8_t *in = (const uint8_t *)input;
    for (int64_t r = outer - 1; r >= 0; r--) {
        /* row r's index on every outer axis, and its input row if inside */
        int64_t rem = r, in_row = 0, scale = 1;
        bool inside = true;
        for (int32_t d = last - 1; d >= 0; d--) {
            const int64_t i = rem % out_shape[d] - p->before[d];
            rem /= out_shape[d];
            if (i < 0 || i >= p->in_shape[d]) inside = false;
            in_row += (inside ? i : 0) * scale;
            scale *= p->in_shape[d];
        }
        uint8_t *orow = out + (size_t)r * (size_t)ow * es;
        if (!inside || !w) {
            for (int64_t x = ow - 1; x >= 0; x--) memcpy(orow + (size_t)x * es, pad_value, es);
            continue;
        }
        for (int64_t x = ow - 1; x >= (int64_t)b + w; x--) memcpy(orow + (size_t)x * es, pad_value, es);
        memmove(orow + (size_t)b * es, in + (size_t)in_row * (size_t)w * es, (size_t)w * es);
        for (int64_t x = (int64_t)b - 1; x >= 0; x--) memcpy(orow + (size_t)x * es, pad_value, es);
    }
    return TA_OK;
}
