/*
 * STRIDED_SLICE for any element size, up to 5 dims: TFLM reference_ops::
 * StridedSlice with strided_slice::StridedSliceStartForAxis/EndForAxis.
 *
 * Prepare-time resolution per axis (ta_strided_slice_resolve):
 *  - start: negative counts from the end, clamp to [0, n] (stride > 0) or
 *    [-1, n-1] (stride < 0); begin_mask replaces it with 0 / n-1.
 *  - stop: shrink_axis gives start + 1 (or start when start >= n); otherwise
 *    end (+ start when `offset`), negative counts from the end, clamped as
 *    start; end_mask replaces it with n / -1.
 * The kernel then walks the nested index ranges and copies elements.
 */
#include <string.h>

#include "tinyarena/kernels.h"


ta_status ta_strided_slice_resolve(ta_slice_params *p, const int32_t *in_shape, int32_t rank,
                                   const int32_t *begin, const int32_t *end,
                                   const int32_t *strides, int32_t begin_mask, int32_t end_mask,
                                   int32_t shrink_axis_mask, bool offset, size_t elem_size) {
    if (!p || !in_shape || !begin || !end || !strides || rank < 1 || rank > TA_KERNEL_MAX_SLICE_RANK)
        return TA_E_INVALID_ARG;
    p->rank = rank;
    p->elem_size = elem_size;
    for (int32_t a = 0; a < rank; a++) {
        const int32_t n = in_shape[a], stride = strides[a];
        if (n < 0 || stride == 0) return TA_E_INVALID_ARG;
        p->in_shape[a] = n;
        p->stride[a] = stride;
        int64_t start = begin[a];
        if (start < 0) start += n;
        start = stride > 0 ? (start < 0 ? 0 : start > n ? n : start)
                           : (start < -1 ? -1 : start > n - 1 ? n - 1 : start);
        if (begin_mask & (1 << a)) start = stride > 0 ? 0 : n - 1;
        int64_t stop;
        if (shrink_axis_mask & (1 << a)) {
            stop = start >= n ? start : start + 1;
        } else {
            stop = end[a];
            if (offset) stop += start;
            if (stop < 0) stop += n;
            stop = stride > 0 ? (stop < 0 ? 0 : stop > n ? n : stop)
                              : (stop < -1 ? -1 : stop > n - 1 ? n - 1 : stop);
            if (end_mask & (1 << a)) stop = stride > 0 ? n : -1;
        }
        p->start[a] = (int32_t)start;
        p->stop[a] = (int32_t)stop;
    }
    return TA_OK;
}

bool ta_strided_slice_view(const ta_slice_params *p, size_t *offset) {
    if (!p || !offset || p->rank < 1 || p->rank > TA_KERNEL_MAX_SLICE_RANK || !p->elem_size) return false;
    int64_t len[TA_KERNEL_MAX_SLICE_RANK];
    for (int32_t a = 0; a < p->rank; a++) {
        if (p->stride[a] != 1 || p->in_shape[a] <= 0) return false;
        len[a] = p->stop[a] > p->start[a] ? (int64_t)p->stop[a] - p->start[a] : 0;
        if (!len[a]) return false;
    }
    int32_t k = 0;
    while (k < p->rank - 1 && len[k] == 1) k++;
    uint64_t at = 0, stride = 1;
    for (int32_t a = p->rank - 1; a >= 0; a--) {
        if (a > k && (p->start[a] != 0 || len[a] != p->in_shape[a])) return false;
        at += (uint64_t)p->start[a] * stride;
        stride *= (uint64_t)p->in_shape[a];
    }
    *offset = (size_t)(at * p->elem_size);
    return true;
}

bool ta_strided_slice_forward(const ta_slice_params *p, size_t *first) {
    if (!p || !first || p->rank < 1 || p->rank > TA_KERNEL_MAX_SLICE_RANK || !p->elem_size) return false;
    uint64_t at = 0, stride = 1;
    for (int32_t a = p->rank - 1; a >= 0; a--) {
        /* every axis walks upwards and keeps an index (an empty output has no walk) */
        if (p->stride[a] <= 0 || p->start[a] < 0 || p->stop[a] <= p->start[a] || p->stop[a] > p->in_shape[a])
            return false;
        at += (uint64_t)p->start[a] * stride;
        stride *= (uint64_t)p->in_shape[a];
    }
    *first = (size_t)(at * p->elem_size);
    return true;
}

static bool done(int32_t i, int32_t stop, int32_t stride) { return stride > 0 ? i >= stop : i <= stop; }

ta_status ta_kernel_strided_slice(const ta_slice_params *p, const void *input, void *output) {
    if (!p || !input || !output || p->rank < 1 || p->rank > TA_KERNEL_MAX_SLICE_RANK) return TA_E_INVALID_ARG;
    const size_t es = p->elem_size;
    if (es == 0 || es > 16) return TA_E_INVALID_ARG;
    /* Pad to 5 dims at the front (size 1, [0, 1) step 1), as TFLM does. */
    int32_t n[5], s[5], e[5], st[5];
    const int32_t pad = 5 - p->rank;
    for (int32_t d = 0; d < 5; d++) {
        if (d < pad) {
            n[d] = 1; s[d] = 0; e[d] = 1; st[d] = 1;
        } else {
            n[d] = p->in_shape[d - pad]; s[d] = p->start[d - pad];
            e[d] = p->stop[d - pad]; st[d] = p->stride[d - pad];
            if (st[d] == 0 || n[d] < 0) return TA_E_INVALID_ARG;
        }
    }
    int64_t str[5], acc = 1;
    for (int32_t d = 4; d >= 0; d--) {
        str[d] = acc;
        acc *= n[d];
    }
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    size_t o = 0;
    for (int32_t i0 = s[0]; !done(i0, e[0], st[0]); i0 += st[0])
        for (int32_t i1 = s[1]; !done(i1, e[1], st[1]); i1 += st[1])
            for (int32_t i2 = s[2]; !done(i2, e[2], st[2]); i2 += st[2])
                for (int32_t i3 = s[3]; !done(i3, e[3], st[3]); i3 += st[3])
                    for (int32_t i4 = s[4]; !done(i4, e[4], st[4]); i4 += st[4]) {
                        if (i0 < 0 || i0 >= n[0] || i1 < 0 || i1 >= n[1] || i2 < 0 || i2 >= n[2] ||
                            i3 < 0 || i3 >= n[3] || i4 < 0 || i4 >= n[4])
                            return TA_E_INVALID_ARG;
                        int64_t off = i0 * str[0] + i1 * str[1] + i2 * str[2] + i3 * str[3] + i4 * str[4];
                        /* memmove: the output may overlap the input (a
                         * forward gather, ta_strided_slice_forward) */
                        memmove(out + o * es, in + (size_t)off * es, es);
                        o++;
                    }
    return TA_OK;
}
