/* The in-place depthwise fast path (depthwise_conv2d_s8_inplace_fast.c):
 * seeded random 3x3 geometries with depth multiplier 1 and channels a
 * multiple of 4 (MobileNet's in-place layers: strides 1 and 2, SAME-style
 * and larger pads, dilations), from the start and at the end, every
 * requantisation form (the short one with and without the activation clamp,
 * the general one: long shifts, left shifts, large biases).  Each case
 * runs the fast path directly (it must take the one-batch cases whose ring
 * fits the scratch, which the test counts) and through the public entry
 * points, with the data and the scratch in allocations of exactly their
 * size, against the out-of-place reference loops byte for byte; and the
 * bytes outside the output (the input's rest) are compared with what the
 * one-channel kernel leaves there, so the fast path writes nothing else. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/kernels/kernels_fast.h"
#include "testutil.h"
#include "tinyarena/kernels.h"

static uint64_t g_seed = 0x1d3f5;
static int32_t rnd(int32_t lo, int32_t hi) { /* inclusive */
    return (int32_t)(lo + (int64_t)(ta__rng_next(&g_seed) % (uint64_t)((int64_t)hi - lo + 1)));
}

static int32_t out_extent(int32_t in, int32_t stride, int32_t dil, int32_t pad_lead, int32_t pad_trail) {
    const int64_t span = 2 * (int64_t)dil + 1, padded = (int64_t)in + pad_lead + pad_trail;
    return padded < span ? 0 : (int32_t)((padded - span) / stride + 1);
}

static void test_random(int cases) {
    int run = 0, fast = 0, bad = 0, ring = 0, modes[3] = {0, 0, 0};
    for (int it = 0; it < cases; it++) {
        ta_dwconv_params p = {0};
        const int32_t c = 4 * rnd(1, 8);
        p.depth_multiplier = 1;
        p.input = (ta_dims4){rnd(0, 5) ? 1 : 2, rnd(1, 20), rnd(1, 20), c};
        p.filter = (ta_dims4){1, 3, 3, c};
        p.stride_h = rnd(1, 2), p.stride_w = rnd(0, 3) ? p.stride_h : rnd(1, 3);
        p.dilation_h = rnd(0, 4) ? 1 : 2, p.dilation_w = rnd(0, 4) ? 1 : 2;
        p.pad_h = rnd(0, 4) ? rnd(0, 1) : rnd(0, 3), p.pad_w = rnd(0, 4) ? p.pad_h : rnd(0, 3);
        const int32_t oh = out_extent(p.input.h, p.stride_h, p.dilation_h, p.pad_h, rnd(0, p.pad_h + 1));
        const int32_t ow = out_extent(p.input.w, p.stride_w, p.dilation_w, p.pad_w, rnd(0, p.pad_w + 1));
        p.output = (ta_dims4){p.input.n, oh, ow, c};
        if (oh <= 0 || ow <= 0 || (int64_t)oh * ow > (int64_t)p.input.h * p.input.w) continue;
        const size_t ni = (size_t)p.input.n * p.input.h * p.input.w * c, nw = (size_t)9 * c;
        const size_t no = (size_t)p.output.n * oh * ow * c;
        int8_t *in = malloc(ni), *w = malloc(nw), *ref = malloc(no), *one = malloc(ni), *got = malloc(ni);
        int32_t *mult = malloc(sizeof(int32_t) * (size_t)c), *bias = malloc(sizeof(int32_t) * (size_t)c);
        int8_t *shift = malloc((size_t)c);
        for (size_t i = 0; i < ni; i++) in[i] = (int8_t)rnd(-128, 127);
        for (size_t i = 0; i < nw; i++) w[i] = (int8_t)(rnd(0, 7) ? rnd(-128, 127) : (rnd(0, 1) ? 127 : -128));
        /* form 0: short shifts and small biases (the short requantisation),
         * 1: with an activation clamp, 2: long shifts, left shifts, biases
         * near 2^30 (the general one) */
        const int form = rnd(0, 2);
        for (int32_t k = 0; k < c; k++) {
            mult[k] = (int32_t)((1u << 30) + (uint32_t)rnd(0, (1 << 30) - 1));
            shift[k] = (int8_t)(form < 2 ? rnd(-12, -4) : rnd(0, 1) ? rnd(-31, 2) : rnd(-23, -18));
            bias[k] = form < 2 ? rnd(-40000, 40000) : rnd(0, 3) ? rnd(-(1 << 30), 1 << 30) : rnd(-40000, 40000);
        }
        p.q = (ta_requant){.input_offset = rnd(-127, 128),
                           .output_offset = rnd(-128, 127),
                           .mult = mult,
                           .shift = shift,
                           .per_channel = rnd(0, 3) != 0,
                           .act_min = form == 1 ? rnd(-128, -20) : -128,
                           .act_max = form == 1 ? rnd(20, 126) : 127};
        if (form == 1 && rnd(0, 1)) p.q.act_min = -128; /* ReLU6-like: the top clamped only */
        const int32_t *b = rnd(0, 4) ? bias : NULL;
        ta__depthwise_conv2d_s8_ref(&p, in, w, b, ref);
        const size_t sb = ta_kernel_depthwise_conv2d_inplace_scratch(&p, 1);
        CHECK_EQ_U(sb, (size_t)oh * ow);
        int8_t *scratch = malloc(sb);
        for (int end = 0; end < 2; end++) {
            const size_t at = end ? ni - no : 0; /* where the output lands */
            /* the one-channel kernel (the reference impl), for the bytes
             * around the output */
            memcpy(one, in, ni);
            CHECK(ta_kernel_use_impl(TA_KERNEL_IMPL_REFERENCE) == TA_OK);
            CHECK((end ? ta_kernel_depthwise_conv2d_s8_inplace_end
                       : ta_kernel_depthwise_conv2d_s8_inplace)(&p, one, w, b, scratch, sb) == TA_OK);
            CHECK(ta_kernel_use_impl(TA_KERNEL_IMPL_FAST) == TA_OK);
            memcpy(got, in, ni);
            const bool took = ta__dwip_s8_fast(&p, got, end, w, b, scratch, sb);
            if (took) {
                fast++;
                CHECK(p.input.n == 1);
                ring += p.stride_h == 1 && p.pad_h > 0; /* the cases that must wait */
            } else {
                CHECK(!memcmp(got, in, ni)); /* refused: nothing written */
                memcpy(got, one, ni);
            }
            const bool same_out = !memcmp(got + at, ref, no) && !memcmp(one + at, ref, no);
            const bool same_rest = !memcmp(got, one, ni);
            /* the public entry point takes the same path */
            memcpy(got, in, ni);
            CHECK((end ? ta_kernel_depthwise_conv2d_s8_inplace_end
                       : ta_kernel_depthwise_conv2d_s8_inplace)(&p, got, w, b, scratch, sb) == TA_OK);
            const bool same_pub = !memcmp(got, one, ni);
            if (!(same_out && same_rest && same_pub) && bad++ < 5)
                fprintf(stderr,
                        "case %d%s: %dx%dx%dx%d s %d,%d d %d,%d p %d,%d -> %dx%d form %d: out %d rest %d public %d\n",
                        it, end ? " (end)" : "", p.input.n, p.input.h, p.input.w, c, p.stride_h, p.stride_w,
                        p.dilation_h, p.dilation_w, p.pad_h, p.pad_w, oh, ow, form, same_out, same_rest, same_pub);
        }
        modes[form]++;
        run++;
        free(in), free(w), free(ref), free(one), free(got), free(mult), free(bias), free(shift), free(scratch);
    }
    CHECK(bad == 0);
    /* most one-batch cases take the fast path, the waiting ones included */
    CHECK(run > cases / 2 && fast > run && ring > run / 10);
    CHECK(modes[0] > run / 5 && modes[1] > run / 5 && modes[2] > run / 5);
    printf("  %d random 3x3 geometries, start and end: %d runs took the fast path (%d through its ring), %d differ\n",
           run, fast, ring, bad);
}

/* The fast path refuses what it does not cover: nothing written. */
static void test_refused(void) {
    int8_t data[4 * 4 * 8], w[9 * 8] = {0}, scratch[16];
    int32_t mult = 1 << 30;
    int8_t shift = -5;
    ta_dwconv_params p = {.input = {1, 4, 4, 8},
                          .filter = {1, 3, 3, 8},
                          .output = {1, 4, 4, 8},
                          .depth_multiplier = 1,
                          .stride_h = 1,
                          .stride_w = 1,
                          .dilation_h = 1,
                          .dilation_w = 1,
                          .pad_h = 1,
                          .pad_w = 1};
    p.q = (ta_requant){.input_offset = 3, .mult = &mult, .shift = &shift, .act_min = -128, .act_max = 127};
    memset(data, 7, sizeof data);
    /* stride 1 with padding: in.w + 2 = 6 pixels wait for their slot, 24 bytes > 16 */
    CHECK(!ta__dwip_s8_fast(&p, data, false, w, NULL, scratch, sizeof scratch));
    p.input.c = p.filter.c = p.output.c = 6; /* channels not a multiple of 4 */
    CHECK(!ta__dwip_s8_fast(&p, data, false, w, NULL, scratch, sizeof scratch));
    p.input.c = p.filter.c = p.output.c = 8;
    p.q.input_offset = -128; /* the pad byte 128 is no int8 */
    CHECK(!ta__dwip_s8_fast(&p, data, false, w, NULL, scratch, sizeof scratch));
    for (size_t i = 0; i < sizeof data; i++) CHECK(data[i] == 7);
    /* the same geometry with room for the ring runs */
    int8_t big[16 * 2];
    p.q.input_offset = 3;
    p.input.h = p.output.h = 8; /* 32 scratch bytes, the ring needs 4 * 6 */
    int8_t d8[8 * 4 * 8];
    memset(d8, 7, sizeof d8);
    CHECK(ta__dwip_s8_fast(&p, d8, false, w, NULL, big, sizeof big));
}

int main(void) {
    test_refused();
    test_random(1500);
    return ta_test_finish("test_dwinplace_fast");
}
