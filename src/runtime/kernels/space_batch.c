/*
 * SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND, NHWC: TFLM's reference loops.
 * Output batch b of space-to-batch holds input batch b % N at block offset
 * (b / N) / block_w, (b / N) % block_w; batch-to-space is its inverse with
 * crops in place of paddings.  Every index the loops form is inside its
 * tensor: prepare proved the shapes consistent (out = (in + pads) / block,
 * batches multiplied by the block), and positions outside are skipped
 * (batch to space) or zero-filled (space to batch: raw zero bytes, TFLM's
 * pad value also for int8 with a non-zero zero point).
 */
#include <string.h>

#include "tinyarena/kernels.h"

static bool dims_ok(const ta_dims4 *d) { return d->n >= 0 && d->h >= 0 && d->w >= 0 && d->c >= 0; }

ta_status ta_kernel_space_to_batch(const ta_space_batch_params *p, const void *input, void *output) {
    if (!p || !input || !output || !dims_ok(&p->in) || !dims_ok(&p->out) || p->block_h < 1 || p->block_w < 1 ||
        p->elem_size < 1 || p->in.n < 1 || p->in.c != p->out.c)
        return TA_E_INVALID_ARG;
    const size_t es = (size_t)p->elem_size, depth = (size_t)p->in.c * es;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    for (int32_t ob = 0; ob < p->out.n; ob++) {
        const int32_t ib = ob % p->in.n, sp = ob / p->in.n;
        const int32_t sh = sp / p->block_w, sw = sp % p->block_w;
        for (int32_t oh = 0; oh < p->out.h; oh++) {
            const int64_t ih = (int64_t)oh * p->block_h + sh - p->pad_top;
            for (int32_t ow = 0; ow < p->out.w; ow++) {
                const int64_t iw = (int64_t)ow * p->block_w + sw - p->pad_left;
                uint8_t *o =
                    out + ((((size_t)ob * (size_t)p->out.h + (size_t)oh) * (size_t)p->out.w + (size_t)ow) * depth);
                if (ih < 0 || ih >= p->in.h || iw < 0 || iw >= p->in.w) {
                    memset(o, 0, depth);
                } else {
                    memcpy(o,
                           in + ((((size_t)ib * (size_t)p->in.h + (size_t)ih) * (size_t)p->in.w + (size_t)iw) * depth),
                           depth);
                }
            }
        }
    }
    return TA_OK;
}

ta_status ta_kernel_batch_to_space(const ta_space_batch_params *p, const void *input, void *output) {
    if (!p || !input || !output || !dims_ok(&p->in) || !dims_ok(&p->out) || p->block_h < 1 || p->block_w < 1 ||
        p->elem_size < 1 || p->out.n < 1 || p->in.c != p->out.c)
        return TA_E_INVALID_ARG;
    const size_t es = (size_t)p->elem_size, depth = (size_t)p->in.c * es;
    const uint8_t *in = (const uint8_t *)input;
    uint8_t *out = (uint8_t *)output;
    for (int32_t ib = 0; ib < p->in.n; ib++) {
        const int32_t ob = ib % p->out.n, sp = ib / p->out.n;
        const int32_t oh0 = sp / p->block_w, ow0 = sp % p->block_w;
        for (int32_t ih = 0; ih < p->in.h; ih++) {
            const int64_t oh = (int64_t)ih * p->block_h + oh0 - p->pad_top;
            if (oh < 0 || oh >= p->out.h) continue;
            for (int32_t iw = 0; iw < p->in.w; iw++) {
                const int64_t ow = (int64_t)iw * p->block_w + ow0 - p->pad_left;
                if (ow < 0 || ow >= p->out.w) continue;
                memcpy(out + ((((size_t)ob * (size_t)p->out.h + (size_t)oh) * (size_t)p->out.w + (size_t)ow) * depth),
                       in + ((((size_t)ib * (size_t)p->in.h + (size_t)ih) * (size_t)p->in.w + (size_t)iw) * depth),
                       depth);
            }
        }
    }
    return TA_OK;
}
