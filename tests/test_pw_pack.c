/* The 1x1 weight packs (tinyarena/pw_pack.h) on the host: sizes, refusals,
 * and the layout -- each channel's dot product with a random input, taken
 * as the DSP kernel takes it from the pack (per 4 input channels: the
 * input's SXTB16 words of bytes (0, 2) and (1, 3) against the channel's two
 * words, SMLAD: both int16 products of a word pair summed), equals the
 * plain int8 dot product; each weight sum equals the filter row's.  The
 * kernel itself runs the packs on the Cortex-M4F (test_kernels_fast under
 * kernels_mcu, cortex_m's firmware).  The same for the armv6-m layout
 * (test_m0). */
#include <string.h>

#include "common/util.h"
#include "testutil.h"
#include "tinyarena/pw_pack.h"

static uint64_t g_seed = 0x9ac419;
static int32_t rnd(int32_t lo, int32_t hi) {
    return (int32_t)(lo + (int64_t)(ta__rng_next(&g_seed) % (uint64_t)((int64_t)hi - lo + 1)));
}

/* SMLAD's two products of int16 halves, as the kernel's accumulator adds them. */
static int32_t smlad(uint32_t x, uint32_t w) {
    return (int32_t)(int16_t)(x & 0xFFFF) * (int16_t)(w & 0xFFFF) + (int32_t)(int16_t)(x >> 16) * (int16_t)(w >> 16);
}
static uint32_t pair(int8_t lo, int8_t hi) { return (uint32_t)(uint16_t)(int16_t)lo | (uint32_t)(uint16_t)(int16_t)hi << 16; }

static void test_sizes(void) {
    CHECK_EQ_U(ta_kernel_pw_pack_words(8, 16), 16 * 8 / 2);
    CHECK_EQ_U(ta_kernel_pw_pack_words(128, 7), 4 * 128 / 2); /* the last 3 channels: the kernel's C tail */
    CHECK_EQ_U(ta_kernel_pw_pack_words(132, 5), 4 * 132 / 2); /* past 128: groups of 2 */
    CHECK_EQ_U(ta_kernel_pw_pack_words(256, 2), 2 * 256 / 2);
    CHECK_EQ_U(ta_kernel_pw_pack_words(128, 3), 0); /* fewer channels than a group */
    CHECK_EQ_U(ta_kernel_pw_pack_words(132, 1), 0);
    CHECK_EQ_U(ta_kernel_pw_pack_words(6, 8), 0); /* depth not a multiple of 4 */
    CHECK_EQ_U(ta_kernel_pw_pack_words(260, 8), 0);
    CHECK_EQ_U(ta_kernel_pw_pack_words(0, 8), 0);
    CHECK_EQ_U(ta_kernel_pw_pack_words(-4, 8), 0);
    static int8_t w[64];
    static uint32_t words[128];
    static int32_t wsum[8];
    CHECK(ta_kernel_pw_pack(w, 8, 8, words, 32, wsum) == TA_OK);
    CHECK(ta_kernel_pw_pack(w, 8, 8, words, 31, wsum) == TA_E_INVALID_ARG); /* one word short */
    CHECK(ta_kernel_pw_pack(NULL, 8, 8, words, 32, wsum) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_pw_pack(w, 8, 8, NULL, 32, wsum) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_pw_pack(w, 8, 8, words, 32, NULL) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_pw_pack(w, 6, 8, words, 128, wsum) == TA_E_INVALID_ARG);
}

static void test_layout(int cases) {
    static int8_t w[40 * 256], x[256];
    static uint32_t words[40 * 256 / 2 + 1];
    static int32_t wsum[40];
    for (int it = 0; it < cases; it++) {
        const int32_t depth = 4 * rnd(1, 64), channels = rnd(1, 40);
        const int32_t g = depth <= 128 ? 4 : 2, full = channels - channels % g;
        const size_t n = ta_kernel_pw_pack_words(depth, channels);
        CHECK_EQ_U(n, channels < g ? 0 : (size_t)full * (size_t)depth / 2);
        for (int32_t i = 0; i < channels * depth; i++) w[i] = (int8_t)(rnd(0, 3) ? rnd(-128, 127) : rnd(0, 1) ? 127 : -128);
        for (int32_t i = 0; i < depth; i++) x[i] = (int8_t)rnd(-128, 127);
        words[n] = 0xDEADBEEFu; /* nothing written past the size */
        const ta_status st = ta_kernel_pw_pack(w, depth, channels, words, n, wsum);
        if (!n) {
            CHECK(st == TA_E_INVALID_ARG);
            continue;
        }
        CHECK(st == TA_OK);
        CHECK(words[n] == 0xDEADBEEFu);
        for (int32_t oc = 0; oc < channels; oc++) {
            int32_t dot = 0, sum = 0;
            for (int32_t i = 0; i < depth; i++) dot += w[oc * depth + i] * x[i], sum += w[oc * depth + i];
            CHECK(wsum[oc] == sum);
            if (oc >= full) continue;
            /* the kernel's reads: group c0's words, 2 * g per 4 inputs, channel j's pair */
            const int32_t c0 = oc - oc % g, j = oc - c0;
            const uint32_t *grp = words + (size_t)c0 * (size_t)depth / 2;
            int32_t acc = 0;
            for (int32_t i = 0; i < depth / 4; i++) {
                const int8_t *xb = x + 4 * i;
                acc += smlad(pair(xb[0], xb[2]), grp[i * 2 * g + 2 * j]);
                acc += smlad(pair(xb[1], xb[3]), grp[i * 2 * g + 2 * j + 1]);
            }
            CHECK(acc == dot);
        }
    }
}

/* The armv6-m layout (ta_kernel_pw_pack_m0): sizes, refusals, and each
 * channel's dot product as the M0 kernel's MULS takes it from the pack --
 * X = x0 + x1 * 2^16 (as ta__m0_dot2x4_rq builds it from a pair of input
 * bytes) times the pair's word, the top half rounded by the bit below it --
 * equals the plain int8 dot product; a pair of -128 weights refuses the
 * layer (TA_E_UNSUPPORTED). */
static int32_t m0_term(int8_t x0, int8_t x1, uint32_t w) {
    const uint32_t xx = (uint32_t)(int32_t)x0 + (uint32_t)(int32_t)x1 * 65536u, prod = xx * w;
    return (int32_t)(int16_t)(prod >> 16) + (int32_t)((prod >> 15) & 1u);
}

static void test_m0(int cases) {
    CHECK_EQ_U(ta_kernel_pw_pack_m0_words(8, 16), 16 * 8 / 2);
    CHECK_EQ_U(ta_kernel_pw_pack_m0_words(132, 7), 4 * 132 / 2); /* groups of 4 at every depth */
    CHECK_EQ_U(ta_kernel_pw_pack_m0_words(256, 4), 4 * 256 / 2);
    CHECK_EQ_U(ta_kernel_pw_pack_m0_words(132, 3), 0);
    CHECK_EQ_U(ta_kernel_pw_pack_m0_words(6, 8), 0);
    CHECK_EQ_U(ta_kernel_pw_pack_m0_words(260, 8), 0);
    CHECK_EQ_U(ta_kernel_pw_pack_m0_words(0, 8), 0);
    static int8_t w[40 * 256], x[256];
    static uint32_t words[40 * 256 / 2 + 1];
    static int32_t wsum[40];
    memset(w, 1, 8 * 8);
    CHECK(ta_kernel_pw_pack_m0(w, 8, 8, words, 32, wsum) == TA_OK);
    CHECK(ta_kernel_pw_pack_m0(w, 8, 8, words, 31, wsum) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_pw_pack_m0(NULL, 8, 8, words, 32, wsum) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_pw_pack_m0(w, 8, 8, NULL, 32, wsum) == TA_E_INVALID_ARG);
    CHECK(ta_kernel_pw_pack_m0(w, 8, 8, words, 32, NULL) == TA_E_INVALID_ARG);
    w[5 * 8 + 2] = -128, w[5 * 8 + 3] = -128; /* one pair of -128 in channel 5 */
    CHECK(ta_kernel_pw_pack_m0(w, 8, 8, words, 32, wsum) == TA_E_UNSUPPORTED);
    w[5 * 8 + 3] = -127;
    CHECK(ta_kernel_pw_pack_m0(w, 8, 8, words, 32, wsum) == TA_OK);
    for (int it = 0; it < cases; it++) {
        const int32_t depth = 4 * rnd(1, 64), channels = rnd(1, 40), full = channels - channels % 4;
        const size_t n = ta_kernel_pw_pack_m0_words(depth, channels);
        CHECK_EQ_U(n, channels < 4 ? 0 : (size_t)full * (size_t)depth / 2);
        for (int32_t i = 0; i < channels * depth; i++) w[i] = (int8_t)(rnd(0, 3) ? rnd(-128, 127) : rnd(0, 1) ? 127 : -128);
        bool minpair = false; /* a grouped channel's pair of -128 */
        for (int32_t i = 0; i < full * depth; i += 2) minpair = minpair || (w[i] == -128 && w[i + 1] == -128);
        for (int32_t i = 0; i < depth; i++) x[i] = (int8_t)(rnd(0, 3) ? rnd(-128, 127) : -128);
        words[n] = 0xDEADBEEFu;
        const ta_status st = ta_kernel_pw_pack_m0(w, depth, channels, words, n, wsum);
        if (!n) {
            CHECK(st == TA_E_INVALID_ARG);
            continue;
        }
        CHECK(words[n] == 0xDEADBEEFu);
        if (minpair) {
            CHECK(st == TA_E_UNSUPPORTED);
            continue;
        }
        CHECK(st == TA_OK);
        for (int32_t oc = 0; oc < channels; oc++) {
            int32_t dot = 0, sum = 0;
            for (int32_t i = 0; i < depth; i++) dot += w[oc * depth + i] * x[i], sum += w[oc * depth + i];
            CHECK(wsum[oc] == sum);
            if (oc >= full) continue;
            const uint32_t *grp = words + (size_t)(oc - oc % 4) * (size_t)depth / 2;
            int32_t acc = 0;
            for (int32_t i = 0; i < depth / 2; i++) acc += m0_term(x[2 * i], x[2 * i + 1], grp[4 * i + oc % 4]);
            CHECK(acc == dot);
        }
    }
}

int main(void) {
    test_sizes();
    test_layout(400);
    test_m0(400);
    return ta_test_finish("test_pw_pack");
}
