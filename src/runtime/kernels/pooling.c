/*
 * AVERAGE_POOL_2D and MAX_POOL_2D, int8 and float32: TFLM
 * reference_integer_ops::AveragePool/MaxPool and reference_ops::AveragePool/
 * MaxPool.
 *
 * Steps, per output pixel and channel:
 *  1. Clip the window [origin, origin + filter) to the image, so padding
 *     never takes part (averages divide by the in-image tap count).
 *  2. Average: int8 sums in int32 and divides rounding half away from zero
 *     ((sum +- count/2) / count, truncating); float sums in window order
 *     (y outer, x inner) and divides by (float)count.
 *     Max: the largest tap, starting from the type's lowest value.
 *  3. Clamp to the fused activation range.
 */
#include <float.h>

#include "tinyarena/kernels.h"

static ta_status pool_check(const ta_pool_params *p, const void *in, const void *out) {
    if (!p || !in || !out) return TA_E_INVALID_ARG;
    if (p->input.n <= 0 || p->input.h <= 0 || p->input.w <= 0 || p->input.c <= 0) return TA_E_INVALID_ARG;
    if (p->output.n != p->input.n || p->output.c != p->input.c || p->output.h <= 0 || p->output.w <= 0)
        return TA_E_INVALID_ARG;
    if (p->filter_h <= 0 || p->filter_w <= 0 || p->stride_h <= 0 || p->stride_w <= 0 || p->pad_h < 0 ||
        p->pad_w < 0)
        return TA_E_INVALID_ARG;
    return TA_OK;
}

/* The clipped window of output pixel (oy, ox). */
typedef struct {
    int32_t y0, x0, fy0, fy1, fx0, fx1;
} window;

static window pool_window(const ta_pool_params *p, int32_t oy, int32_t ox) {
    window w;
    w.y0 = oy * p->stride_h - p->pad_h;
    w.x0 = ox * p->stride_w - p->pad_w;
    w.fy0 = w.y0 < 0 ? -w.y0 : 0;
    w.fy1 = p->input.h - w.y0 < p->filter_h ? p->input.h - w.y0 : p->filter_h;
    w.fx0 = w.x0 < 0 ? -w.x0 : 0;
    w.fx1 = p->input.w - w.x0 < p->filter_w ? p->input.w - w.x0 : p->filter_w;
    return w;
}

#define POOL_LOOP(...)                                                                     \
    for (int32_t b = 0; b < p->output.n; b++)                                               \
        for (int32_t oy = 0; oy < p->output.h; oy++)                                        \
            for (int32_t ox = 0; ox < p->output.w; ox++) {                                  \
                const window win = pool_window(p, oy, ox);                                  \
                const int64_t obase = (((int64_t)b * p->output.h + oy) * p->output.w + ox) * p->output.c; \
                for (int32_t c = 0; c < p->output.c; c++) {                                 \
                    __VA_ARGS__ \
                }                                                                           \
            }

#define IN_AT(y, x) ((((int64_t)b * p->input.h + (y)) * p->input.w + (x)) * p->input.c + c)

ta_status ta_kernel_avg_pool_s8(const ta_pool_params *p, const int8_t *input, int8_t *output) {
    ta_status st = pool_check(p, input, output);
    if (st) return st;
    POOL_LOOP({
        int32_t acc = 0, count = 0;
        for (int32_t fy = win.fy0; fy < win.fy1; fy++)
            for (int32_t fx = win.fx0; fx < win.fx1; fx++) {
                acc += input[IN_AT(win.y0 + fy, win.x0 + fx)];
                count++;
            }
        if (count == 0) return TA_E_INVALID_ARG;
        acc = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
        if (acc < p->act_min) acc = p->act_min;
        if (acc > p->act_max) acc = p->act_max;
        output[obase + c] = (int8_t)acc;
    })
    return TA_OK;
}

ta_status ta_kernel_avg_pool_f32(const ta_pool_params *p, const float *input, float *output) {
    ta_status st = pool_check(p, input, output);
    if (st) return st;
    POOL_LOOP({
        float total = 0.0f;
        int32_t count = 0;
        for (int32_t fy = win.fy0; fy < win.fy1; fy++)
            for (int32_t fx = win.fx0; fx < win.fx1; fx++) {
                total += input[IN_AT(win.y0 + fy, win.x0 + fx)];
                count++;
            }
        if (count == 0) return TA_E_INVALID_ARG;
        float v = total / (float)count;
        v = v < p->f_act_min ? p->f_act_min : v;
        output[obase + c] = v > p->f_act_max ? p->f_act_max : v;
    })
    return TA_OK;
}

ta_status ta_kernel_max_pool_s8(const ta_pool_params *p, const int8_t *input, int8_t *output) {
    ta_status st = pool_check(p, input, output);
    if (st) return st;
    POOL_LOOP({
        int32_t m = -128;
        for (int32_t fy = win.fy0; fy < win.fy1; fy++)
            for (int32_t fx = win.fx0; fx < win.fx1; fx++) {
                int32_t v = input[IN_AT(win.y0 + fy, win.x0 + fx)];
                if (v > m) m = v;
            }
        if (m < p->act_min) m = p->act_min;
        if (m > p->act_max) m = p->act_max;
        output[obase + c] = (int8_t)m;
    })
    return TA_OK;
}

ta_status ta_kernel_max_pool_f32(const ta_pool_params *p, const float *input, float *output) {
    ta_status st = pool_check(p, input, output);
    if (st) return st;
    POOL_LOOP({
        float m = -FLT_MAX;
        for (int32_t fy = win.fy0; fy < win.fy1; fy++)
            for (int32_t fx = win.fx0; fx < win.fx1; fx++) {
                float v = input[IN_AT(win.y0 + fy, win.x0 + fx)];
                m = v > m ? v : m;
            }
        m = m < p->f_act_min ? p->f_act_min : m;
        output[obase + c] = m > p->f_act_max ? p->f_act_max : m;
    })
    return TA_OK;
}
