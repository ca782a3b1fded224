/*
 * MINIMUM and MAXIMUM with broadcasting: TFLM's maximum_minimum kernel,
 * x < y ? x : y and x > y ? x : y element by element.
 */
#include "runtime/kernels/fixedpoint.h"

#define LOOP(T)                                                                                   \
    do {                                                                                          \
        const T *a = in1, *b = in2;                                                               \
        T *o = out;                                                                               \
        for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, shape)) {                             \
            const T x = a[it.o1], y = b[it.o2];                                                   \
            o[i] = is_max ? (x > y ? x : y) : (x < y ? x : y);                                    \
        }                                                                                         \
    } while (0)

static ta_status min_max(const ta_broadcast *shape, ta_dtype type, const void *in1, const void *in2, void *out,
                         int is_max) {
    if (!shape || !in1 || !in2 || !out) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, shape, &n);
    if (st) return st;
    switch (type) {
    case TA_DTYPE_INT8: LOOP(int8_t); break;
    case TA_DTYPE_INT16: LOOP(int16_t); break;
    case TA_DTYPE_INT32: LOOP(int32_t); break;
    case TA_DTYPE_FLOAT32: LOOP(float); break;
    default: return TA_E_UNSUPPORTED;
    }
    return TA_OK;
}

ta_status ta_kernel_minimum(const ta_broadcast *shape, ta_dtype type, const void *in1, const void *in2, void *out) {
    return min_max(shape, type, in1, in2, out, 0);
}

ta_status ta_kernel_maximum(const ta_broadcast *shape, ta_dtype type, const void *in1, const void *in2, void *out) {
    return min_max(shape, type, in1, in2, out, 1);
}
