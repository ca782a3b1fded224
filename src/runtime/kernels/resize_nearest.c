/*
 * RESIZE_NEAREST_NEIGHBOR for any element size: TFLM reference_ops::
 * ResizeNearestNeighbor.  For each output row/column, pick the source
 * index with TFLM's float arithmetic (see kernels.h), then copy the whole
 * channel vector.
 */
#include <math.h>
#include <string.h>

#include "tinyarena/kernels.h"

static int32_t nearest(int32_t v, int32_t in, int32_t out, bool align, bool half) {
    const float scale = (align && out > 1) ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
    const float offset = half ? 0.5f : 0.0f;
    const float x = ((float)v + offset) * scale;
    int32_t r = align ? (int32_t)roundf(x) : (int32_t)floorf(x);
    if (r > in - 1) r = in - 1;
    if (half && r < 0) r = 0;
    return r;
}

ta_status ta_kernel_resize_nearest(const ta_resize_params *p, const void *input, void *output) {
    if (!p || !input || !output) return TA_E_INVALID_ARG;
    const ta_dims4 in = p->input;
    if (in.n <= 0 || in.h <= 0 || in.w <= 0 || in.c <= 0 || p->out_h <= 0 || p->out_w <= 0) return TA_E_INVALID_ARG;
    const size_t es = p->elem_size;
    if (es == 0 || es > 16) return TA_E_INVALID_ARG;
    const size_t vec = (size_t)in.c * es;
    const uint8_t *src = (const uint8_t *)input;
    uint8_t *dst = (uint8_t *)output;
    for (int32_t b = 0; b < in.n; b++)
        for (int32_t y = 0; y < p->out_h; y++) {
            const int32_t iy = nearest(y, in.h, p->out_h, p->align_corners, p->half_pixel_centers);
            for (int32_t x = 0; x < p->out_w; x++) {
                const int32_t ix = nearest(x, in.w, p->out_w, p->align_corners, p->half_pixel_centers);
                memcpy(dst, src + (((size_t)b * in.h + iy) * in.w + ix) * vec, vec);
                dst += vec;
            }
        }
    return TA_OK;
}
