/*
 * RESIZE_BILINEAR, NHWC: TFLM's reference ResizeBilinear (float) and
 * ResizeBilinearInteger (int8).
 *
 * float: source coordinate y * scale (or (y + 0.5) * scale - 0.5 with half
 * pixel centers), y0 = max(floor, 0), y1 = min(ceil, size - 1), the four
 * taps weighted in TFLM's order of operations (float, no contraction: the
 * build is ISO C, where GCC does not fuse multiply-adds).
 * int8: the same in 10-bit fixed point -- scale_10 = round(1024 * in / out),
 * the weights products of 10-bit fractions, the 20-bit sum rounded half
 * away from zero (TFLM's default double rounding build).
 */
#include <math.h>

#include "tinyarena/kernels.h"

static bool params_ok(const ta_resize_bilinear_params *p) {
    return p && p->in.n >= 0 && p->in.h >= 1 && p->in.w >= 1 && p->in.c >= 0 && p->out_h >= 1 && p->out_w >= 1 &&
           !(p->align_corners && p->half_pixel_centers) && p->in.h <= (1 << 20) && p->in.w <= (1 << 20) &&
           p->out_h <= (1 << 20) && p->out_w <= (1 << 20);
}

static void interp_f(int32_t v, float scale, bool half, int32_t size, float *sv, int32_t *lo, int32_t *hi) {
    *sv = half ? ((float)v + 0.5f) * scale - 0.5f : (float)v * scale;
    const float fl = floorf(*sv);
    *lo = (int32_t)fl > 0 ? (int32_t)fl : 0;
    const int32_t c = (int32_t)ceilf(*sv);
    *hi = c < size - 1 ? c : size - 1;
}

ta_status ta_kernel_resize_bilinear_f32(const ta_resize_bilinear_params *p, const float *input, float *output) {
    if (!params_ok(p) || !input || !output) return TA_E_INVALID_ARG;
    const int32_t ih = p->in.h, iw = p->in.w, C = p->in.c, oh = p->out_h, ow = p->out_w;
    float hs = (float)ih / (float)oh, ws = (float)iw / (float)ow;
    if (p->align_corners && oh > 1) hs = (float)(ih - 1) / (float)(oh - 1);
    if (p->align_corners && ow > 1) ws = (float)(iw - 1) / (float)(ow - 1);
    for (int32_t b = 0; b < p->in.n; b++)
        for (int32_t y = 0; y < oh; y++) {
            float fy;
            int32_t y0, y1;
            interp_f(y, hs, p->half_pixel_centers, ih, &fy, &y0, &y1);
            for (int32_t x = 0; x < ow; x++) {
                float fx;
                int32_t x0, x1;
                interp_f(x, ws, p->half_pixel_centers, iw, &fx, &x0, &x1);
                const float *r00 =
                    input + (((size_t)b * (size_t)ih + (size_t)y0) * (size_t)iw + (size_t)x0) * (size_t)C;
                const float *r10 =
                    input + (((size_t)b * (size_t)ih + (size_t)y1) * (size_t)iw + (size_t)x0) * (size_t)C;
                const float *r01 =
                    input + (((size_t)b * (size_t)ih + (size_t)y0) * (size_t)iw + (size_t)x1) * (size_t)C;
                const float *r11 =
                    input + (((size_t)b * (size_t)ih + (size_t)y1) * (size_t)iw + (size_t)x1) * (size_t)C;
                float *o = output + (((size_t)b * (size_t)oh + (size_t)y) * (size_t)ow + (size_t)x) * (size_t)C;
                const float dy = fy - (float)y0, dx = fx - (float)x0;
                for (int32_t c = 0; c < C; c++)
                    o[c] = r00[c] * (1 - dy) * (1 - dx) + r10[c] * dy * (1 - dx) + r01[c] * (1 - dy) * dx +
                           r11[c] * dy * dx + 0.0f;
            }
        }
    return TA_OK;
}

static void interp_i(int32_t v, int32_t scale_10, bool half, int32_t size, int32_t *sv, int32_t *lo, int32_t *hi) {
    *sv = half ? v * scale_10 + scale_10 / 2 - (1 << 9) : v * scale_10;
    const int32_t l = *sv / (1 << 10), h = (*sv + (1 << 10) - 1) / (1 << 10);
    *lo = l > 0 ? l : 0;
    *hi = h < size - 1 ? h : size - 1;
}

ta_status ta_kernel_resize_bilinear_s8(const ta_resize_bilinear_params *p, const int8_t *input, int8_t *output) {
    if (!params_ok(p) || !input || !output) return TA_E_INVALID_ARG;
    const int32_t ih = p->in.h, iw = p->in.w, C = p->in.c, oh = p->out_h, ow = p->out_w;
    int32_t hs = ((1 << 10) * ih + oh / 2) / oh, ws = ((1 << 10) * iw + ow / 2) / ow;
    if (p->align_corners && oh > 1) hs = ((1 << 10) * (ih - 1) + (oh - 1) / 2) / (oh - 1);
    if (p->align_corners && ow > 1) ws = ((1 << 10) * (iw - 1) + (ow - 1) / 2) / (ow - 1);
    /* sizes up to 2^20 keep 1024 * size in int32; the source coordinates
     * v * scale_10 (+ scale_10) need out * scale_10 below 2^31 as well */
    if ((int64_t)oh * hs + hs >= INT32_MAX || (int64_t)ow * ws + ws >= INT32_MAX) return TA_E_INVALID_ARG;
    for (int32_t b = 0; b < p->in.n; b++)
        for (int32_t y = 0; y < oh; y++) {
            int32_t fy, y0, y1;
            interp_i(y, hs, p->half_pixel_centers, ih, &fy, &y0, &y1);
            for (int32_t x = 0; x < ow; x++) {
                int32_t fx, x0, x1;
                interp_i(x, ws, p->half_pixel_centers, iw, &fx, &x0, &x1);
                const int8_t *r00 =
                    input + (((size_t)b * (size_t)ih + (size_t)y0) * (size_t)iw + (size_t)x0) * (size_t)C;
                const int8_t *r10 =
                    input + (((size_t)b * (size_t)ih + (size_t)y1) * (size_t)iw + (size_t)x0) * (size_t)C;
                const int8_t *r01 =
                    input + (((size_t)b * (size_t)ih + (size_t)y0) * (size_t)iw + (size_t)x1) * (size_t)C;
                const int8_t *r11 =
                    input + (((size_t)b * (size_t)ih + (size_t)y1) * (size_t)iw + (size_t)x1) * (size_t)C;
                int8_t *o = output + (((size_t)b * (size_t)oh + (size_t)y) * (size_t)ow + (size_t)x) * (size_t)C;
                const int64_t dy = fy - (1 << 10) * y0, dx = fx - (1 << 10) * x0;
                for (int32_t c = 0; c < C; c++) {
                    const int64_t s = (int64_t)r00[c] * ((1 << 10) - dy) * ((1 << 10) - dx) +
                                      (int64_t)r10[c] * dy * ((1 << 10) - dx) +
                                      (int64_t)r01[c] * ((1 << 10) - dy) * dx + (int64_t)r11[c] * dy * dx;
                    const int64_t round = s > 0 ? (1 << 19) : -(1 << 19);
                    o[c] = (int8_t)((s + round) / (1 << 20));
                }
            }
        }
    return TA_OK;
}
