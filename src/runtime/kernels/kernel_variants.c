/* The host's recorder (tinyarena/kernel_link.h): which variants an int8
 * CONV_2D, DEPTHWISE_CONV_2D or FULLY_CONNECTED call needs on each CPU
 * family.  It asks the predicates the dispatchers ask (kernel_variants.h,
 * conv_pw.h), in plain C, for the families this host is not: the mask names
 * what the DSP cores, armv6-m and every other target will call for the same
 * parameters, so a firmware built from it links exactly those. */
#include "runtime/kernels/kernel_variants.h"

#if TA__KV_RECORD
#include "runtime/kernels/conv_pw.h"
#include "runtime/kernels/dot_s8.h"
#include "runtime/kernels/kernels_fast.h"

/* The DSP 1x1 kernel's pixel loops on output channels [0, done): each
 * channel group's requantisation as ta__pw_group_make decides it on the
 * target (k weights per channel, zero-extended to depth). */
static uint32_t pw_dsp_loops(const ta_conv_params *p, const int8_t *filter, const int32_t *bias, int32_t k,
                             int32_t depth, int32_t *done) {
    const int32_t nch = depth <= 128 ? 4 : 2, oc_n = p->output.c;
    const bool layer_ok = ta__rqs_layer_ok(&p->q, oc_n);
    uint32_t m = 0;
    int32_t oc0 = 0;
    for (; oc0 + nch <= oc_n; oc0 += nch) {
        ta__pw_group g;
        for (int32_t j = 0; j < nch; j++)
            g.fold[j] = ta__fold(bias, oc0 + j, p->q.input_offset, ta__sum_s8(filter + (ptrdiff_t)(oc0 + j) * k, k));
        const int rmode = ta__pw_group_make(p, layer_ok, oc0, nch, depth, &g);
        m |= TA_KV_BIT((nch == 4 ? TA_KV_CONV_S8_PW4_R0 : TA_KV_CONV_S8_PW2_R0) + (unsigned)rmode);
    }
    *done = oc0;
    return m;
}

uint32_t ta__kv_conv_s8_need(const ta_conv_params *p, const int8_t *filter, const int32_t *bias) {
    if (!ta__conv2d_s8_fast_ok(p)) return TA_KV_BIT(TA_KV_CONV_S8_REF);
    uint32_t m = TA_KV_BIT(TA_KV_CONV_S8_GEN);
    /* DSP: the 1x1 kernel (as it is, or on gathered windows), then the
     * general loops for the channels it leaves */
    int32_t done = 0;
    const int kind = ta__pw_dsp_kind(p);
    if (kind == 1) {
        m |= TA_KV_BIT(TA_KV_CONV_S8_PW_DSP) | pw_dsp_loops(p, filter, bias, p->filter.c, p->filter.c, &done);
    } else if (kind == 2) {
        const int32_t k = p->filter.h * p->filter.w * p->filter.c, kp = (k + 3) & ~3;
        m |= TA_KV_BIT(TA_KV_CONV_S8_GATHER_DSP) | pw_dsp_loops(p, filter, bias, k, kp, &done);
    }
    if (done < p->output.c) m |= TA_KV_BIT(TA_KV_CONV_S8_GEN_DSP);
    /* armv6-m: its 1x1 kernel does every channel (4 at a time, a last set
     * of fewer repeating its last channel), on 1x1 convolutions or on
     * gathered windows */
    done = 0;
    if (ta__pw_m0_ok(p) || ta__gather_m0_ok(p)) {
        m |= TA_KV_BIT(TA_KV_CONV_S8_PW_M0);
        done = p->output.c;
    }
    if (done < p->output.c) m |= TA_KV_BIT(TA_KV_CONV_S8_GEN_M0);
    return m;
}

uint32_t ta__kv_dw_s8_need(const ta_dwconv_params *p) {
    if (!ta__depthwise_conv2d_s8_fast_ok(p)) return TA_KV_BIT(TA_KV_DW_S8_REF);
    uint32_t m = TA_KV_BIT(TA_KV_DW_S8_GEN);
    if (ta__dw3_ok(p)) return m | TA_KV_BIT(TA_KV_DW_S8_3X3_DSP) | TA_KV_BIT(TA_KV_DW_S8_3X3_M0);
    return m | TA_KV_BIT(TA_KV_DW_S8_GEN_DSP) | TA_KV_BIT(TA_KV_DW_S8_GEN_M0);
}

uint32_t ta__kv_fc_s8_need(const ta_fc_params *p) {
    return TA_KV_BIT(ta__fully_connected_s8_fast_ok(p) ? TA_KV_FC_S8_FAST : TA_KV_FC_S8_REF);
}
#endif
