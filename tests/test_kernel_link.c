/* The kernel variant table (tinyarena/kernel_link.h): this program defines
 * its own table, as a firmware does, with only the int8 convolution's and
 * fully connected's variants of this host, so
 *  - the recorder names, per CPU family, the variants a call needs (the 1x1
 *    kernels where they apply, the general loops for the channels they
 *    leave, the 3x3 depthwise kernels, the reference loops for a multiplier
 *    the fast kernels refuse), and nothing while it is off;
 *  - a call whose variant is in the table runs it (byte-identical to the
 *    reference loops), one whose variant is not fails with TA_E_UNSUPPORTED
 *    and writes nothing. */
#include <string.h>

#include "runtime/kernels/kernels_fast.h"
#include "testutil.h"
#include "tinyarena/kernel_link.h"

TA_KERNELS_LINK(TA_KV_BIT(TA_KV_CONV_S8_REF) | TA_KV_BIT(TA_KV_CONV_S8_GEN) | TA_KV_BIT(TA_KV_CONV_S8_GEN_DSP) |
                TA_KV_BIT(TA_KV_CONV_S8_GEN_M0) | TA_KV_BIT(TA_KV_FC_S8_FAST));

#define MAXC 16
static int32_t g_mult[MAXC];
static int8_t g_shift[MAXC];
static int32_t g_bias[MAXC];
static int8_t g_w[MAXC * 5 * 5 * 64];
static int8_t g_in[8 * 8 * 192];
static int8_t g_out[8 * 8 * MAXC], g_ref[8 * 8 * MAXC];

static ta_requant requant(void) {
    ta_requant q = {.input_offset = 128, .output_offset = -5, .mult = g_mult, .shift = g_shift,
                    .per_channel = true, .act_min = -128, .act_max = 127};
    return q;
}

static ta_conv_params conv(int32_t k, int32_t c, int32_t oc, int32_t pad) {
    const int32_t o = 8 + 2 * pad - k + 1;
    ta_conv_params p = {.input = {1, 8, 8, c}, .filter = {oc, k, k, c}, .output = {1, o, o, oc}, .stride_h = 1,
                        .stride_w = 1, .dilation_h = 1, .dilation_w = 1, .pad_h = pad, .pad_w = pad};
    p.q = requant();
    return p;
}

static uint32_t conv_need(const ta_conv_params *p) {
    uint32_t m = 0;
    ta_kernel_variants_record(&m);
    CHECK(ta_kernel_conv2d_s8(p, g_in, g_w, g_bias, g_out) == TA_OK);
    ta_kernel_variants_record(NULL);
    return m;
}

int main(void) {
    for (int i = 0; i < MAXC; i++) {
        g_mult[i] = (1 << 30) + i * 12345;
        g_shift[i] = (int8_t)(-7 - i % 3);
        g_bias[i] = i * 100 - 700;
    }
    for (size_t i = 0; i < sizeof g_w; i++) g_w[i] = (int8_t)(i * 37 % 251 - 125);
    for (size_t i = 0; i < sizeof g_in; i++) g_in[i] = (int8_t)(i * 53 % 253 - 126);

    CHECK(!strcmp(ta_kernel_variant_name(TA_KV_CONV_S8_REF), "CONV_S8_REF"));
    CHECK(!strcmp(ta_kernel_variant_name(TA_KV_FC_F32), "FC_F32"));
    CHECK(ta_kernel_variant_name(TA_KV_COUNT) == NULL);

    /* 1x1 over 64 channels, 8 outputs: the DSP and armv6-m 1x1 kernels do
     * every channel (one pixel loop on the DSP cores), the rest of the
     * targets the general loops */
    ta_conv_params p = conv(1, 64, 8, 0);
    uint32_t m = conv_need(&p);
    CHECK(m & TA_KV_BIT(TA_KV_CONV_S8_PW_DSP));
    CHECK(m & TA_KV_BIT(TA_KV_CONV_S8_PW_M0));
    CHECK(m & TA_KV_BIT(TA_KV_CONV_S8_GEN));
    CHECK(!(m & (TA_KV_BIT(TA_KV_CONV_S8_GEN_DSP) | TA_KV_BIT(TA_KV_CONV_S8_GEN_M0) | TA_KV_BIT(TA_KV_CONV_S8_REF) |
                 TA_KV_BIT(TA_KV_CONV_S8_GATHER_DSP))));
    int loops = 0;
    for (unsigned v = TA_KV_CONV_S8_PW4_R0; v <= TA_KV_CONV_S8_PW2_R3; v++) loops += (int)(m >> v & 1u);
    CHECK(loops == 1);
    CHECK(m >> TA_KV_CONV_S8_PW4_R1 & 1u); /* small windows, no clamp: ta__rqs without the clamp */
    /* the bytes: the general loops (this host's variant) against the reference */
    ta__conv2d_s8_ref(&p, g_in, g_w, g_bias, g_ref);
    CHECK(!memcmp(g_out, g_ref, (size_t)(8 * 8 * 8)));

    /* 6 outputs: the DSP kernel does 4, the general loops the rest; the
     * armv6-m 1x1 kernel does all 6 */
    p = conv(1, 64, 6, 0);
    m = conv_need(&p);
    CHECK((m & TA_KV_BIT(TA_KV_CONV_S8_GEN_DSP)) && !(m & TA_KV_BIT(TA_KV_CONV_S8_GEN_M0)));
    CHECK(m & TA_KV_BIT(TA_KV_CONV_S8_PW_M0));
    /* an activation clamp narrower than int8: the other pixel loop */
    p.q.act_min = 0;
    m = conv_need(&p);
    CHECK((m >> TA_KV_CONV_S8_PW4_R2 & 1u) && !(m >> TA_KV_CONV_S8_PW4_R1 & 1u));
    /* depth 192: 2 channels per pass */
    p = conv(1, 48, 4, 0);
    p.input.c = p.filter.c = 192;
    m = conv_need(&p);
    CHECK((m >> TA_KV_CONV_S8_PW2_R1 & 1u) && !(m >> TA_KV_CONV_S8_PW4_R1 & 1u));

    /* 3x3 over 3 channels, padded: gathered on the DSP cores and on
     * armv6-m (8 channels of 28 bytes) */
    p = conv(3, 3, 8, 1);
    m = conv_need(&p);
    CHECK((m & TA_KV_BIT(TA_KV_CONV_S8_GATHER_DSP)) && (m & TA_KV_BIT(TA_KV_CONV_S8_PW_M0)));
    CHECK(!(m & (TA_KV_BIT(TA_KV_CONV_S8_PW_DSP) | TA_KV_BIT(TA_KV_CONV_S8_GEN_M0) | TA_KV_BIT(TA_KV_CONV_S8_GEN_DSP))));
    ta__conv2d_s8_ref(&p, g_in, g_w, g_bias, g_ref);
    CHECK(!memcmp(g_out, g_ref, (size_t)(8 * 8 * 8)));
    /* 5x5 over 16 channels: past the gather's 84 bytes, the general loops everywhere */
    p = conv(5, 16, 8, 2);
    m = conv_need(&p);
    CHECK(m == (TA_KV_BIT(TA_KV_CONV_S8_GEN) | TA_KV_BIT(TA_KV_CONV_S8_GEN_DSP) | TA_KV_BIT(TA_KV_CONV_S8_GEN_M0)));
    /* a multiplier the fast kernels refuse: the reference loops */
    g_mult[3] = INT32_MIN;
    m = conv_need(&p);
    CHECK(m == TA_KV_BIT(TA_KV_CONV_S8_REF));
    ta__conv2d_s8_ref(&p, g_in, g_w, g_bias, g_ref);
    CHECK(!memcmp(g_out, g_ref, (size_t)(8 * 8 * 8)));
    g_mult[3] = (1 << 30) + 3 * 12345;

    /* depthwise: 3x3 on 8 channels takes the 3x3 kernels on Cortex-M; none
     * of its variants is in this table: TA_E_UNSUPPORTED, nothing written */
    ta_dwconv_params d = {.input = {1, 8, 8, 8}, .filter = {1, 3, 3, 8}, .output = {1, 8, 8, 8}, .depth_multiplier = 1,
                          .stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1, .pad_h = 1, .pad_w = 1};
    d.q = requant();
    m = 0;
    memset(g_out, 0x5a, sizeof g_out);
    ta_kernel_variants_record(&m);
    CHECK(ta_kernel_depthwise_conv2d_s8(&d, g_in, g_w, g_bias, g_out) == TA_E_UNSUPPORTED);
    ta_kernel_variants_record(NULL);
    CHECK(m == (TA_KV_BIT(TA_KV_DW_S8_GEN) | TA_KV_BIT(TA_KV_DW_S8_3X3_DSP) | TA_KV_BIT(TA_KV_DW_S8_3X3_M0)));
    for (size_t i = 0; i < sizeof g_out; i++) CHECK(g_out[i] == 0x5a);
    d.filter.h = d.filter.w = 5;
    d.pad_h = d.pad_w = 2;
    m = 0;
    ta_kernel_variants_record(&m);
    CHECK(ta_kernel_depthwise_conv2d_s8(&d, g_in, g_w, g_bias, g_out) == TA_E_UNSUPPORTED);
    ta_kernel_variants_record(NULL);
    CHECK(m == (TA_KV_BIT(TA_KV_DW_S8_GEN) | TA_KV_BIT(TA_KV_DW_S8_GEN_DSP) | TA_KV_BIT(TA_KV_DW_S8_GEN_M0)));

    /* fully connected: its fast kernel is linked, its reference is not */
    ta_fc_params f = {.batches = 2, .accum_depth = 64, .out_depth = 5};
    f.q = requant();
    m = 0;
    ta_kernel_variants_record(&m);
    CHECK(ta_kernel_fully_connected_s8(&f, g_in, g_w, g_bias, g_out) == TA_OK);
    ta_kernel_variants_record(NULL);
    CHECK(m == TA_KV_BIT(TA_KV_FC_S8_FAST));
    ta__fully_connected_s8_ref(&f, g_in, g_w, g_bias, g_ref);
    CHECK(!memcmp(g_out, g_ref, 10));
    CHECK(ta_kernel_use_impl(TA_KERNEL_IMPL_REFERENCE) == TA_OK);
    CHECK(ta_kernel_fully_connected_s8(&f, g_in, g_w, g_bias, g_out) == TA_E_UNSUPPORTED);
    CHECK(ta_kernel_use_impl(TA_KERNEL_IMPL_FAST) == TA_OK);

    /* recording off: the mask stays as it was */
    m = 0;
    CHECK(ta_kernel_conv2d_s8(&p, g_in, g_w, g_bias, g_out) == TA_OK);
    CHECK(m == 0);
    return ta_test_finish("test_kernel_link");
}
