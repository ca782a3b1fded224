/*
 * DIV, int32: TFLM reference_ops::Div / BroadcastDivSlow -- C's integer
 * division (truncating toward zero), clamped to the fused activation's
 * range.
 */
#include "runtime/kernels/fixedpoint.h"

ta_status ta_kernel_div_s32(const ta_div_params *p, const int32_t *in1, const int32_t *in2, int32_t *out) {
    if (!p || !in1 || !in2 || !out) return TA_E_INVALID_ARG;
    ta__bcast_iter it;
    int64_t n;
    ta_status st = ta__bcast_begin(&it, &p->shape, &n);
    if (st) return st;
    /* TFLM traps on these (x86 raises SIGFPE); refuse before writing */
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
        const int32_t y = in2[it.o2];
        if (y == 0 || (y == -1 && in1[it.o1] == INT32_MIN)) return TA_E_INVALID_ARG;
    }
    if ((st = ta__bcast_begin(&it, &p->shape, &n))) return st;
    for (int64_t i = 0; i < n; i++, ta__bcast_next(&it, &p->shape)) {
        int32_t v = in1[it.o1] / in2[it.o2];
        if (v < p->act_min) v = p->act_min;
        if (v > p->act_max) v = p->act_max;
        out[i] = v;
    }
    return TA_OK;
}
