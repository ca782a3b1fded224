/*
 * FULLY_CONNECTED int8 with unshifted weights (weights zero point 0, which
 * TFLM requires for int8), the fast kernel (kernels_fast.h): byte-identical
 * to ta__fully_connected_s8_ref, exact for the reason conv2d_s8_fast.c gives:
 * sum(w * x) + input_offset * sum(w) modulo 2^32.
 *
 * Steps:
 *  1. Output features two at a time: both weight rows' sums and
 *     requantisation constants once, then every batch row.
 *  2. Batch rows two at a time when there are two (a 2x2 block of dot
 *     products), else one row against both weight rows.
 *  3. + input_offset * weight sum + bias, requantised inline (requant.h).
 */
#include "runtime/kernels/dot_s8.h"
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"
#include "runtime/kernels/requant.h"
#ifdef TA__X86_DISPATCH
#include "runtime/kernels/simd_x86.h"
#endif

bool ta__fully_connected_s8_fast_ok(const ta_fc_params *p) {
    return p->q.weights_offset == 0 && p->accum_depth <= TA__FAST_MAX_DEPTH && ta__rq_ok(&p->q, p->out_depth);
}

#ifdef TA__X86_DISPATCH
static TA__ALWAYS_INLINE void fc_body(const ta_fc_params *p, const int8_t *input, const int8_t *weights,
                                 const int32_t *bias, int8_t *output, int isa) {
#else
/* One build: the body is the kernel itself (a wrapper around it costs GCC
 * registers in the hot loops on Cortex-M). */
#define isa 0
void ta__fully_connected_s8_fast(const ta_fc_params *p, const int8_t *input, const int8_t *weights,
                                 const int32_t *bias, int8_t *output) {
#endif
    (void)isa;
    const int32_t D = p->accum_depth, O = p->out_depth, B = p->batches;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    for (int32_t o0 = 0; o0 < O; o0 += 2) {
        const int32_t o1 = o0 + 1 < O ? o0 + 1 : o0; /* an odd last row pairs with itself */
        const int8_t *w0 = weights + (ptrdiff_t)o0 * D, *w1 = weights + (ptrdiff_t)o1 * D;
        const uint32_t f0 = ta__fold(bias, o0, p->q.input_offset, ta__sum_s8(w0, D));
        const uint32_t f1 = ta__fold(bias, o1, p->q.input_offset, ta__sum_s8(w1, D));
        const ta__rq r0 = ta__rq_make(&p->q, o0), r1 = ta__rq_make(&p->q, o1);
        for (int32_t b = 0; b < B;) {
            const bool two = b + 1 < B;
            const int8_t *x = input + (ptrdiff_t)b * D;
            int32_t acc[4] = {0, 0, 0, 0};
            if (two)
                TA__DOT_2X2(x, x + D, w0, w1, D, acc);
            else
                TA__DOT_1X2(x, w0, w1, D, acc);
            ta__rq_store_2x2(output + (ptrdiff_t)b * O, O, o0, o1, &r0, &r1, ro, f0, f1, acc, two);
            b += two ? 2 : 1;
        }
    }
}

#ifdef TA__X86_DISPATCH
/* x86-64: the portable, SSE2, SSE4.1 and AVX2 builds of the body, chosen at
 * run time (simd_x86.h). */
TA__X86_KERNEL(ta__fully_connected_s8_fast, ta_fc_params, fc_body)
#else
#undef isa
#endif

/* The fast kernel as a variant (TA_KV_FC_S8_FAST): one for every family. */
ta_status ta__kv_fc_s8_fast(ta_kernel_args *a) {
    ta__fully_connected_s8_fast(a->p, a->input, a->weights, a->bias, a->output);
    return TA_OK;
}
