/* Fast int8 kernels against the reference kernels, byte for byte: the inline
 * requantisation against ta_q_mul on random and extreme values, then
 * CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED on seeded random shapes (odd
 * channel counts, groups, strides, dilations, padding up to whole windows
 * outside the image, per-channel and per-tensor multipliers, extreme
 * multipliers, shifts, biases and offsets, depth multipliers), each through the public entry
 * point under every ta_kernel_use_impl choice and through the fast kernel
 * directly, for both fast builds (on x86-64: AVX2 when the CPU has it, and
 * the SSE2 baseline). */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/kernels/dot_s8.h"
#include "runtime/kernels/kernels_fast.h"
#include "runtime/kernels/requant.h"
#ifdef TA__X86_DISPATCH
#include "runtime/kernels/simd_sse2.h"
#endif
#include "testutil.h"
#include "tinyarena/pw_pack.h"

static uint64_t g_seed = 0x5eed19;
/* The fast implementation under test: TA_KERNEL_IMPL_FAST (on x86-64 the
 * AVX2 build when the CPU has it) or TA_KERNEL_IMPL_PORTABLE. */
static ta_kernel_impl g_impl = TA_KERNEL_IMPL_FAST;
static int32_t rnd(int32_t lo, int32_t hi) { /* inclusive */
    return (int32_t)(lo + (int64_t)(ta__rng_next(&g_seed) % (uint64_t)((int64_t)hi - lo + 1)));
}
static uint32_t rnd32(void) { return (uint32_t)ta__rng_next(&g_seed); }
static void rnd_s8(int8_t *p, size_t n) {
    /* mostly uniform, sometimes saturated runs (the extreme products) */
    const int mode = rnd(0, 3);
    for (size_t i = 0; i < n; i++)
        p[i] = (int8_t)(mode == 0 ? (rnd(0, 1) ? 127 : -128) : rnd(-128, 127));
}

/* ---- requantisation ------------------------------------------------------ */

static int32_t rnd_mult(void) {
    switch (rnd(0, 5)) {
    case 0: return 0;
    case 1: return 1 << 30;
    case 2: return INT32_MAX;
    case 3: return INT32_MIN; /* never derived, but must still match ta_q_mul */
    default: return (int32_t)((1u << 30) + (rnd32() & 0x3FFFFFFFu));
    }
}
static int32_t rnd_acc(void) {
    switch (rnd(0, 5)) {
    case 0: return INT32_MIN;
    case 1: return INT32_MAX;
    case 2: return rnd(-3, 3);
    default: return (int32_t)rnd32();
    }
}

static void test_requant(void) {
    int bad = 0;
    for (int i = 0; i < 400000; i++) {
        ta_requant q = {0};
        int32_t m = rnd_mult();
        int8_t sh = (int8_t)rnd(-31, 30);
        q.mult = &m;
        q.shift = &sh;
        q.act_min = INT32_MIN;
        q.act_max = INT32_MAX;
        if (m == INT32_MIN) { /* ta_q_mul's saturating case: left to the reference loops */
            CHECK(!ta__rq_ok(&q, 1));
            continue;
        }
        CHECK(ta__rq_ok(&q, 1));
        const ta__rq r = ta__rq_make(&q, 0);
        const int32_t x = rnd_acc();
        if (ta__rq_mul(&r, x) != ta_q_mul(x, m, sh)) {
            if (bad++ < 5) fprintf(stderr, "rq x=%d m=%d shift=%d: %d != %d\n", x, m, sh, ta__rq_mul(&r, x), ta_q_mul(x, m, sh));
        }
    }
    CHECK(bad == 0);
#ifdef TA__X86_DISPATCH
    /* the SSE2 requantisation (simd_sse2.h), 4 channels per vector: random
     * multipliers (negative ones too: the signed correction of PMULUDQ),
     * shifts per lane or shared (PSRAD), sums, zero points and clamps within
     * ta__rq16_ok, against ta_q_mul and ta__rq_s8 lane by lane */
    int bad4 = 0;
    for (int i = 0; i < 200000; i++) {
        int32_t m[8];
        int8_t sh[8];
        const bool same = rnd(0, 3) == 0;
        for (int j = 0; j < 8; j++) {
            do m[j] = rnd(0, 4) ? rnd_mult() : (int32_t)rnd32();
            while (m[j] == INT32_MIN);
            sh[j] = same && j ? sh[0] : (int8_t)(rnd(0, 2) ? rnd(-31, 0) : rnd(-31, 30));
        }
        ta_requant q = {.mult = m, .shift = sh, .per_channel = true};
        q.output_offset = rnd(0, 3) ? rnd(-128, 127) : rnd(-32640, 32640);
        q.act_min = rnd(0, 1) ? -128 : rnd(-128, 127);
        q.act_max = rnd(0, 1) ? 127 : rnd(q.act_min, 127);
        CHECK(ta__rq_ok(&q, 8));
        ta__rq r[8];
        int32_t x[8], got[8];
        for (int j = 0; j < 8; j++) r[j] = ta__rq_make(&q, j), x[j] = rnd_acc();
        const ta__rq4 v0 = ta__rq4_make(r), v1 = ta__rq4_make(r + 4);
        const __m128i a = _mm_loadu_si128((const __m128i *)(const void *)x);
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(x + 4));
        const __m128i ma = ta__rq4_mul(&v0, a), mb = ta__rq4_mul(&v1, b);
        _mm_storeu_si128((__m128i *)(void *)got, ma);
        _mm_storeu_si128((__m128i *)(void *)(got + 4), mb);
        const ta__rq_out o = ta__rq_out_make(&q);
        CHECK(ta__rq16_ok(o));
        const ta__rq_out16 o16 = ta__rq_out16_make(o);
        int8_t bytes[16];
        const __m128i c = ta__rq_clamp8_sse2(&o16, ma, mb);
        _mm_storeu_si128((__m128i *)(void *)bytes, _mm_packs_epi16(c, c));
        for (int j = 0; j < 8; j++) {
            /* the bytes where + zero point does not overflow int32 (TFLM's
             * int32 add is undefined there, and so is ta__rq_s8's) */
            const int64_t z = (int64_t)got[j] + o.out_off;
            const bool byte_ok = z < INT32_MIN || z > INT32_MAX || bytes[j] == ta__rq_s8(&r[j], o, (uint32_t)x[j]);
            if ((got[j] != ta_q_mul(x[j], m[j], sh[j]) || !byte_ok) && bad4++ < 5)
                fprintf(stderr, "rq4 x=%d m=%d shift=%d: %d != %d\n", x[j], m[j], sh[j], got[j],
                        ta_q_mul(x[j], m[j], sh[j]));
        }
    }
    CHECK(bad4 == 0);
#endif
    /* the armv6-m high multiply (16-bit halves, hand-carried) against the
     * int64 product, on the host too */
    int bad32 = 0;
    for (int i = 0; i < 400000; i++) {
        const int32_t s = rnd_acc(), m = rnd(0, 3) ? rnd_mult() : -(rnd_mult() & INT32_MAX);
        if (s == INT32_MIN && m == INT32_MIN) continue;
        const int64_t ab = (int64_t)s * m + (INT64_C(1) << 30);
        const int32_t want = (int32_t)(ab >= 0 ? ab / (INT64_C(1) << 31) : -((-ab + (INT64_C(1) << 31) - 1) / (INT64_C(1) << 31)));
        if (ta__hmul_nudged_32(s, m) != want && bad32++ < 5)
            fprintf(stderr, "hmul32 %d * %d: %d != %d\n", s, m, ta__hmul_nudged_32(s, m), want);
    }
    CHECK(bad32 == 0);
    /* the shorter requantisation (saturating rounding add) against the
     * long one wherever a layer qualifies, int8 clamps and zero points,
     * accumulators near INT32_MAX included */
    int bad_sat = 0;
    for (int i = 0; i < 400000; i++) {
        int32_t m = rnd(0, 3) ? (int32_t)((1u << 30) + (rnd32() & 0x3FFFFFFFu)) : rnd_mult();
        int8_t sh = (int8_t)rnd(-23, -1);
        ta_requant q = {.mult = &m, .shift = &sh};
        q.output_offset = rnd(-128, 127);
        q.act_min = rnd(-128, 0);
        q.act_max = rnd(q.act_min, 127);
        if (!ta__rq_sat_ok(&q, 1)) {
            CHECK(m == INT32_MIN);
            continue;
        }
        const ta__rq r = ta__rq_make(&q, 0);
        const ta__rq_out o = ta__rq_out_make(&q);
        const uint32_t x = rnd(0, 4) ? rnd32() : (uint32_t)INT32_MAX - (uint32_t)rnd(0, 1 << 24);
        if (ta__rq_s8_sat(&r, o, x) != ta__rq_s8(&r, o, x) && bad_sat++ < 5)
            fprintf(stderr, "rq sat x=%u m=%d shift=%d\n", (unsigned)x, (int)m, (int)sh);
#if defined(__ARM_ARCH_6M__)
        /* the armv6-m assembly of the same */
        if (ta__rqm_layer_ok(&q, 1)) {
            CHECK(m >= 0);
            /* both of its high multiplies: sums within +-2^19 (the short
             * one, its edges included) and any */
            const ta__rqm k = ta__rqm_make(&r, o);
            const int32_t e = rnd(0, 3) ? rnd(-(1 << 19), (1 << 19) - 1) : rnd(0, 1) ? (1 << 19) - rnd(0, 1) : -(1 << 19) - rnd(0, 1);
            const uint32_t xs[2] = {x, (uint32_t)e};
            for (int j = 0; j < 2; j++)
                if (ta__rqm_s8(&k, xs[j]) != ta__rq_s8(&r, o, xs[j]) && bad_sat++ < 5)
                    fprintf(stderr, "rqm x=%u m=%d shift=%d\n", (unsigned)xs[j], (int)m, (int)sh);
        } else {
            CHECK(m < 0);
        }
#endif
    }
    CHECK(bad_sat == 0);
    /* the shortest one (ta__rqs: SMMULR, no saturation) against the long one
     * on windows within its bound, the bound's edges included */
    int bad_rqs = 0, n_rqs = 0;
    for (int i = 0; i < 400000; i++) {
        int32_t m = rnd(0, 3) ? (int32_t)((1u << 30) + (rnd32() & 0x3FFFFFFFu)) : rnd_mult();
        int8_t sh = (int8_t)rnd(-23, 0);
        ta_requant q = {.mult = &m, .shift = &sh};
        q.output_offset = rnd(-128, 127);
        q.act_min = rnd(-128, 0);
        q.act_max = rnd(q.act_min, 127);
        if (rnd(0, 2) == 0) q.act_min = -128, q.act_max = 127;
        if (!ta__rqs_layer_ok(&q, 1)) {
            CHECK(m == INT32_MIN || sh == 0 || sh == -23);
            continue;
        }
        const int32_t terms = rnd(1, 4) == 1 ? rnd(1, 30000) : rnd(1, 600);
        const int32_t room = (1 << 29) - 1 - terms * 16384;
        const uint32_t fold = rnd(0, 3) == 0 ? rnd32() : (uint32_t)(room > 0 ? rnd(-room, room) : 0);
        ta__rqs rs;
        if (!ta__rqs_make(&q, 0, fold, terms, &rs)) {
            const int64_t f = (int32_t)fold;
            CHECK((f < 0 ? -f : f) + (int64_t)terms * 16384 >= (INT64_C(1) << 29));
            continue;
        }
        n_rqs++;
        const int32_t lim = terms * 16384;
        const int32_t acc = rnd(0, 4) ? rnd(-lim, lim) : (rnd(0, 1) ? lim : -lim);
        const ta__rq r = ta__rq_make(&q, 0);
        const ta__rq_out o = ta__rq_out_make(&q);
        const bool full = q.act_min == -128 && q.act_max == 127;
        const int8_t want = ta__rq_s8(&r, o, (uint32_t)acc + fold);
        if ((ta__rqs_s8(&rs, o, full, acc) != want || ta__rqs_s8(&rs, o, false, acc) != want) && bad_rqs++ < 5)
            fprintf(stderr, "rqs acc=%d fold=%u m=%d shift=%d\n", (int)acc, (unsigned)fold, (int)m, (int)sh);
    }
    CHECK(bad_rqs == 0 && n_rqs > 100000);
    /* outside the layer rule: shift 0, a left shift, shift -24, a wide clamp */
    {
        int32_t m = 1 << 30;
        int8_t sh = 0;
        ta_requant q = {.mult = &m, .shift = &sh, .act_min = -128, .act_max = 127};
        CHECK(!ta__rq_sat_ok(&q, 1));
        sh = 1;
        CHECK(!ta__rq_sat_ok(&q, 1));
        sh = -24;
        CHECK(!ta__rq_sat_ok(&q, 1));
        sh = -5;
        CHECK(ta__rq_sat_ok(&q, 1));
        q.act_max = 128;
        CHECK(!ta__rq_sat_ok(&q, 1));
    }
    /* every shift with the rounding ties: x = k * 2^right + 2^(right-1) */
    for (int32_t sh = -31; sh <= 0; sh++) {
        int32_t m = INT32_MAX;
        int8_t s8 = (int8_t)sh;
        ta_requant q = {.mult = &m, .shift = &s8};
        const ta__rq r = ta__rq_make(&q, 0);
        for (int32_t k = -5; k <= 5; k++) {
            const int64_t base = (int64_t)k * (INT64_C(1) << (-sh));
            const int64_t half = sh < 0 ? (INT64_C(1) << (-sh - 1)) : 0;
            for (int64_t d = -1; d <= 1; d++) {
                int64_t v = base + half + d;
                if (v < INT32_MIN || v > INT32_MAX) continue;
                CHECK(ta__rq_mul(&r, (int32_t)v) == ta_q_mul((int32_t)v, m, sh));
            }
        }
    }
}

/* ---- random quantisation of one layer ----------------------------------- */

typedef struct {
    int32_t mult[300];
    int8_t shift[300];
    int32_t bias[300];
} qtab;

static void rnd_requant(ta_requant *q, qtab *t, int32_t channels) {
    memset(q, 0, sizeof *q);
    q->per_channel = rnd(0, 1);
    const int extreme = rnd(0, 4) == 0;
    for (int32_t c = 0; c < channels; c++) {
        t->mult[c] = extreme ? rnd_mult() : (int32_t)((1u << 30) + (rnd32() & 0x3FFFFFFFu));
        t->shift[c] = (int8_t)(extreme ? rnd(-31, 30) : rnd(-12, 1));
        t->bias[c] = extreme && rnd(0, 3) == 0 ? (rnd(0, 1) ? INT32_MAX : INT32_MIN) : rnd(-100000, 100000);
    }
    q->mult = t->mult;
    q->shift = t->shift;
    switch (rnd(0, 7)) {
    case 0: q->input_offset = 128; break;
    case 1: q->input_offset = -127; break;
    case 2: q->input_offset = rnd(-1000000, 1000000); break; /* beyond int8 zero points: still exact */
    default: q->input_offset = rnd(-127, 128);
    }
    /* extreme shifts can requantise to INT32_MAX, where adding a zero point
     * would overflow int32 in the reference (and in TFLM) */
    q->output_offset = extreme ? 0 : rnd(-128, 127);
    q->act_min = rnd(-128, 0);
    q->act_max = rnd(q->act_min, 127);
    if (rnd(0, 2) == 0) q->act_min = -128, q->act_max = 127;
}

static int32_t *maybe_bias(qtab *t) { return rnd(0, 5) == 0 ? NULL : t->bias; }

/* Whether a layer's multipliers are all ones the fast kernels take (no
 * INT32_MIN, which only the reference loops saturate like ta_q_mul). */
static bool fast_mults(const ta_requant *q, int32_t channels) {
    for (int32_t c = 0; c < (q->per_channel ? channels : 1); c++)
        if (q->mult[c] == INT32_MIN) return false;
    return true;
}

static int diff_at(const int8_t *a, const int8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i]) return (int)i;
    return -1;
}

/* ---- CONV_2D ------------------------------------------------------------- */

static int32_t out_extent(int32_t in, int32_t f, int32_t stride, int32_t dil, int32_t pad) {
    const int32_t eff = (f - 1) * dil + 1;
    int32_t o = (in + 2 * pad - eff) / stride + 1;
    if (o < 1) o = 1;
    return o + rnd(0, 1); /* sometimes one more, whose window runs off the image */
}

/* The 1x1 cases' pack (tinyarena/pw_pack.h): half of them name their
 * filter's pack here, so that on the DSP cores (kernels_mcu) the kernel
 * runs the pre-unpacked words instead of its own unpacking, and on armv6-m
 * the pair words (ta_kernel_pw_pack_m0) instead of its own packing, at any
 * pixel count -- byte for byte the same outputs.  The table is this test's; the host never reads it. */
static ta_pw_pack g_pack[1];
TA_PW_PACKS_LINK(g_pack);
static uint32_t g_pack_words[19 * 256 / 2];
static int32_t g_pack_wsum[19];
static int g_pack_cases;

/* pw: only 1x1 filters, one group, no padding, depths a multiple of 4 up
 * to 256 and some beyond (the DSP cores' pointwise kernel and its edges). */
static void test_conv(int cases, bool pw) {
    static int8_t in[40000], w[70000], ref[40000], fast[40000], pub[40000];
    static qtab t;
    for (int it = 0; it < cases; it++) {
        ta_conv_params p = {0};
        const int big = it % 50 == 49;
        const int32_t groups = !pw && rnd(0, 3) == 0 ? rnd(2, 3) : 1;
        const int32_t fc = pw ? (rnd(0, 9) ? 4 * rnd(1, 64) : rnd(1, 300)) : big ? rnd(900, 1200) : rnd(1, 13);
        /* 8-channel blocks and their tails; 4 or 8 also for armv6-m's gathered windows */
        const int32_t per_group = !pw && rnd(0, 4) == 0 ? 4 * rnd(1, 2) : rnd(0, 1) ? rnd(1, 7) : rnd(8, 19);
        p.filter = (ta_dims4){per_group * groups, big || pw ? 1 : rnd(1, 4), pw ? 1 : big ? rnd(1, 2) : rnd(1, 4), fc};
        p.input = (ta_dims4){rnd(1, 2), big ? rnd(1, 3) : rnd(1, 11), big ? rnd(1, 4) : rnd(1, 11), fc * groups};
        p.stride_h = rnd(1, 3), p.stride_w = rnd(1, 3);
        p.dilation_h = rnd(0, 2) ? 1 : rnd(2, 3), p.dilation_w = rnd(0, 2) ? 1 : rnd(2, 3);
        p.pad_h = pw && rnd(0, 5) ? 0 : rnd(0, 3), p.pad_w = pw && rnd(0, 5) ? 0 : rnd(0, 3);
        p.output = (ta_dims4){p.input.n, out_extent(p.input.h, p.filter.h, p.stride_h, p.dilation_h, p.pad_h),
                              out_extent(p.input.w, p.filter.w, p.stride_w, p.dilation_w, p.pad_w), p.filter.n};
        const size_t ni = (size_t)p.input.n * p.input.h * p.input.w * p.input.c;
        const size_t nw = (size_t)p.filter.n * p.filter.h * p.filter.w * p.filter.c;
        const size_t no = (size_t)p.output.n * p.output.h * p.output.w * p.output.c;
        if (ni > sizeof in || nw > sizeof w || no > sizeof ref) continue;
        rnd_s8(in, ni);
        rnd_s8(w, nw);
        if (pw && rnd(0, 4) == 0) {
            /* the edges of armv6-m's two MACs per MULS (x0 * w0 + x1 * w1 in
             * 16 bits): inputs of -128 against pairs of weights reaching
             * +32640 and -32512, or with pairs of -128 (+2^15: that set keeps
             * the one-MAC kernel) */
            const bool pairs = rnd(0, 1);
            for (size_t i = 0; i < ni; i++)
                if (rnd(0, 1)) in[i] = -128;
            for (size_t i = 0; i + 1 < nw; i += 2)
                switch (rnd(0, pairs ? 5 : 3)) {
                case 0: w[i] = -128, w[i + 1] = -127; break;
                case 1: w[i] = -127, w[i + 1] = -128; break;
                case 2: w[i] = 127, w[i + 1] = 127; break;
                case 3: break;
                default: w[i] = -128, w[i + 1] = -128;
                }
        }
        rnd_requant(&p.q, &t, p.output.c);
        if (pw && rnd(0, 2) == 0) { /* long rounding shifts (small scales), int8 range */
            for (int32_t c = 0; c < p.output.c; c++) t.shift[c] = (int8_t)rnd(-30, -18);
            if (rnd(0, 1)) p.q.act_min = -128, p.q.act_max = 127;
        }
        if (pw && rnd(0, 3) == 0) { /* dead channels: a bias of +-2^30, shift -31 or 0, or -24 to -30
                                     * (vww_96_int8: some of those outputs still move with the sum) */
            for (int32_t c = 0; c < p.output.c; c++)
                if (rnd(0, 2) == 0) {
                    const int32_t kind = rnd(0, 2);
                    t.bias[c] = (rnd(0, 1) ? 1 : -1) * (int32_t)((1u << 30) + (uint32_t)rnd(0, 1000));
                    t.shift[c] = (int8_t)(kind == 0 ? -31 : kind == 1 ? rnd(-30, -24) : rnd(-1, 0));
                }
            if (rnd(0, 1)) p.q.act_min = -128, p.q.act_max = 127;
        }
        const int32_t *bias = maybe_bias(&t);
        g_pack[0] = (ta_pw_pack){0};
#if defined(__ARM_ARCH_6M__)
        /* armv6-m reads its own layout; a pair of -128 weights refuses it */
        if (pw && groups == 1 && ta_kernel_pw_pack_m0_words(fc, p.filter.n) && rnd(0, 1)) {
            const ta_status st = ta_kernel_pw_pack_m0(w, fc, p.filter.n, g_pack_words, sizeof g_pack_words / 4, g_pack_wsum);
            CHECK(st == TA_OK || st == TA_E_UNSUPPORTED);
            if (st == TA_OK) g_pack[0] = (ta_pw_pack){w, g_pack_words, g_pack_wsum, fc, p.filter.n}, g_pack_cases++;
        }
#else
        if (pw && groups == 1 && ta_kernel_pw_pack_words(fc, p.filter.n) && rnd(0, 1)) {
            CHECK(ta_kernel_pw_pack(w, fc, p.filter.n, g_pack_words, sizeof g_pack_words / 4, g_pack_wsum) == TA_OK);
            g_pack[0] = (ta_pw_pack){w, g_pack_words, g_pack_wsum, fc, p.filter.n};
            g_pack_cases++;
        }
#endif
        memset(ref, 0x55, no), memset(fast, 0x66, no), memset(pub, 0x77, no);
        ta__conv2d_s8_ref(&p, in, w, bias, ref);
        CHECK(ta__conv2d_s8_fast_ok(&p) == fast_mults(&p.q, p.output.c));
        if (ta__conv2d_s8_fast_ok(&p))
            ta__conv2d_s8_fast(&p, in, w, bias, fast);
        else
            memcpy(fast, ref, no);
        CHECK(ta_kernel_conv2d_s8(&p, in, w, bias, pub) == TA_OK);
        const int d = diff_at(ref, fast, no), d2 = diff_at(ref, pub, no);
        CHECK(d < 0 && d2 < 0);
        if (d >= 0)
            fprintf(stderr, "conv case %d: in %dx%dx%dx%d f %dx%dx%dx%d s %d,%d d %d,%d p %d,%d: byte %d %d != %d\n", it,
                    p.input.n, p.input.h, p.input.w, p.input.c, p.filter.n, p.filter.h, p.filter.w, p.filter.c,
                    p.stride_h, p.stride_w, p.dilation_h, p.dilation_w, p.pad_h, p.pad_w, d, fast[d], ref[d]);
        CHECK(ta_kernel_use_impl(TA_KERNEL_IMPL_REFERENCE) == TA_OK);
        CHECK(ta_kernel_conv2d_s8(&p, in, w, bias, pub) == TA_OK);
        CHECK(diff_at(ref, pub, no) < 0);
        CHECK(ta_kernel_use_impl(g_impl) == TA_OK);
        g_pack[0] = (ta_pw_pack){0};
    }
}

/* ---- DEPTHWISE_CONV_2D --------------------------------------------------- */

static int8_t g_ip_data[40000], g_ip_scratch[4096]; /* the in-place depthwise run */
static int g_ip_cases;

/* dw3: only 3x3 filters with depth multiplier 1 and channels a multiple of
 * 4, or a depth multiplier a multiple of 4 (MobileNet's layers: the DSP
 * cores' unrolled kernel), with padding and strides as usual. */
static void test_depthwise(int cases, bool dw3) {
    static int8_t in[40000], w[20000], ref[40000], fast[40000], pub[40000];
    static qtab t;
    for (int it = 0; it < cases; it++) {
        ta_dwconv_params p = {0};
        const int32_t dm = dw3 ? (rnd(0, 2) == 0 ? 4 * rnd(1, 3) : 1) : rnd(0, 2) == 0 ? rnd(2, 9) : 1;
        const int32_t ic = dw3 ? (dm > 1 ? rnd(1, 5) : 4 * rnd(1, 17))
                               : rnd(0, 3) == 0 ? rnd(1, 5) : rnd(1, dm > 1 ? 9 : 70);
        const int32_t c = ic * dm;
        p.depth_multiplier = dm;
        p.filter = dw3 ? (ta_dims4){1, 3, 3, c} : (ta_dims4){1, rnd(1, 5), rnd(1, 5), c};
        p.input = (ta_dims4){rnd(1, 2), rnd(1, 12), rnd(1, 12), ic};
        p.stride_h = rnd(1, 3), p.stride_w = rnd(1, 3);
        p.dilation_h = rnd(0, 2) ? 1 : rnd(2, 3), p.dilation_w = rnd(0, 2) ? 1 : rnd(2, 3);
        p.pad_h = rnd(0, 3), p.pad_w = rnd(0, 3);
        p.output = (ta_dims4){p.input.n, out_extent(p.input.h, p.filter.h, p.stride_h, p.dilation_h, p.pad_h),
                              out_extent(p.input.w, p.filter.w, p.stride_w, p.dilation_w, p.pad_w), c};
        const size_t ni = (size_t)p.input.n * p.input.h * p.input.w * ic;
        const size_t nw = (size_t)p.filter.h * p.filter.w * c;
        const size_t no = (size_t)p.output.n * p.output.h * p.output.w * c;
        if (ni > sizeof in || nw > sizeof w || no > sizeof ref) continue;
        rnd_s8(in, ni);
        rnd_s8(w, nw);
        rnd_requant(&p.q, &t, c);
        const int32_t *bias = maybe_bias(&t);
        memset(ref, 0x55, no), memset(fast, 0x66, no), memset(pub, 0x77, no);
        ta__depthwise_conv2d_s8_ref(&p, in, w, bias, ref);
        CHECK(ta__depthwise_conv2d_s8_fast_ok(&p) == fast_mults(&p.q, c));
        if (ta__depthwise_conv2d_s8_fast_ok(&p))
            ta__depthwise_conv2d_s8_fast(&p, in, w, bias, fast);
        else
            memcpy(fast, ref, no);
        CHECK(ta_kernel_depthwise_conv2d_s8(&p, in, w, bias, pub) == TA_OK);
        const int d = diff_at(ref, fast, no);
        CHECK(d < 0 && diff_at(ref, pub, no) < 0);
        /* in place (DWINPLACE) where the geometry allows it: over a copy of
         * the input, through its P-byte scratch (3x3 layers of one batch:
         * the channel-group fast path), the same bytes (on the
         * MCU builds too: kernels_mcu runs this file bare-metal; every other
         * case, which keeps the M0 run inside its QEMU time limit) */
        const size_t isb = it % 2 ? 0 : ta_kernel_depthwise_conv2d_inplace_scratch(&p, 1);
        if (isb && isb <= sizeof g_ip_scratch) {
            /* every other one ending where the input ends (the _end form:
             * the fast path's backward order) */
            const bool end = it % 4 == 2;
            memcpy(g_ip_data, in, ni);
            CHECK((end ? ta_kernel_depthwise_conv2d_s8_inplace_end : ta_kernel_depthwise_conv2d_s8_inplace)(
                      &p, g_ip_data, w, bias, g_ip_scratch, isb) == TA_OK);
            CHECK(diff_at(ref, g_ip_data + (end ? ni - no : 0), no) < 0);
            g_ip_cases++;
        }
        if (d >= 0)
            fprintf(stderr, "dw case %d: in %dx%dx%dx%d f %dx%d s %d,%d d %d,%d p %d,%d: byte %d %d != %d\n", it,
                    p.input.n, p.input.h, p.input.w, c, p.filter.h, p.filter.w, p.stride_h, p.stride_w,
                    p.dilation_h, p.dilation_w, p.pad_h, p.pad_w, d, fast[d], ref[d]);
    }
    /* over TA__FAST_MAX_DEPTH taps is not the fast kernel's: the entry
     * point falls back to the reference loops */
    ta_dwconv_params p = {.input = {1, 300, 300, 1}, .filter = {1, 257, 256, 1}, .output = {1, 1, 1, 1},
                          .depth_multiplier = 1, .stride_h = 1, .stride_w = 1, .dilation_h = 1,
                          .dilation_w = 1};
    CHECK(!ta__depthwise_conv2d_s8_fast_ok(&p));
}

/* ---- FULLY_CONNECTED ----------------------------------------------------- */

static void test_fc(int cases) {
    static int8_t in[20000], w[80000], ref[4000], fast[4000], pub[4000];
    static qtab t;
    for (int it = 0; it < cases; it++) {
        ta_fc_params p = {0};
        p.batches = rnd(1, 4);
        p.accum_depth = it % 20 == 19 ? rnd(2000, 4000) : rnd(1, 70);
        p.out_depth = rnd(1, 19);
        const size_t ni = (size_t)p.batches * p.accum_depth, nw = (size_t)p.out_depth * p.accum_depth;
        const size_t no = (size_t)p.batches * p.out_depth;
        if (ni > sizeof in || nw > sizeof w) continue;
        rnd_s8(in, ni);
        rnd_s8(w, nw);
        rnd_requant(&p.q, &t, p.out_depth);
        const int32_t *bias = maybe_bias(&t);
        memset(ref, 0x55, no), memset(fast, 0x66, no), memset(pub, 0x77, no);
        ta__fully_connected_s8_ref(&p, in, w, bias, ref);
        CHECK(ta__fully_connected_s8_fast_ok(&p) == fast_mults(&p.q, p.out_depth));
        if (ta__fully_connected_s8_fast_ok(&p))
            ta__fully_connected_s8_fast(&p, in, w, bias, fast);
        else
            memcpy(fast, ref, no);
        CHECK(ta_kernel_fully_connected_s8(&p, in, w, bias, pub) == TA_OK);
        const int d = diff_at(ref, fast, no);
        CHECK(d < 0 && diff_at(ref, pub, no) < 0);
        if (d >= 0)
            fprintf(stderr, "fc case %d: %dx%d -> %d: byte %d %d != %d\n", it, p.batches, p.accum_depth,
                    p.out_depth, d, fast[d], ref[d]);
    }
    /* a weights zero point: the reference loops */
    ta_fc_params p = {.batches = 1, .accum_depth = 5, .out_depth = 3};
    rnd_requant(&p.q, &t, 3);
    p.q.weights_offset = 3;
    rnd_s8(in, 5), rnd_s8(w, 15);
    CHECK(!ta__fully_connected_s8_fast_ok(&p));
    ta__fully_connected_s8_ref(&p, in, w, t.bias, ref);
    CHECK(ta_kernel_fully_connected_s8(&p, in, w, t.bias, pub) == TA_OK);
    CHECK(diff_at(ref, pub, 3) < 0);
}

/* ---- ADD / SUB ----------------------------------------------------------- */

/* The fast path (no broadcasting, rescales inline) against the reference
 * loop, int8 and int16, random scales, zero points and activations, and once
 * in place. */
static void test_addsub(int cases) {
    static int8_t a8[600], b8[600], r8[600], f8[600];
    static int16_t a16[600], b16[600], r16[600], f16[600];
    static const ta_activation acts[] = {TA_ACT_NONE, TA_ACT_RELU, TA_ACT_RELU6};
    for (int it = 0; it < cases; it++) {
        const int wide = rnd(0, 1), sub = rnd(0, 1);
        const ta_dtype type = wide ? TA_DTYPE_INT16 : TA_DTYPE_INT8;
        const int32_t n = rnd(1, 600);
        ta_addsub_params p = {0};
        const float s1 = (float)rnd(1, 1000) / 997.0f, s2 = (float)rnd(1, 1000) / 431.0f, so = (float)rnd(1, 1000) / 613.0f;
        const int32_t z1 = wide ? 0 : rnd(-128, 127), z2 = wide ? 0 : rnd(-128, 127), zo = wide ? 0 : rnd(-128, 127);
        const ta_activation act = acts[rnd(0, 2)];
        const ta_status ps = sub ? ta_sub_prepare(&p, type, s1, z1, s2, z2, so, zo, act)
                                 : ta_addsub_prepare(&p, type, s1, z1, s2, z2, so, zo, act);
        if (ps) continue;
        const int32_t shape[1] = {n};
        CHECK(ta_broadcast_init(&p.shape, shape, 1, shape, 1) == TA_OK);
        for (int32_t i = 0; i < n; i++) {
            a8[i] = (int8_t)rnd(-128, 127), b8[i] = (int8_t)rnd(-128, 127);
            a16[i] = (int16_t)rnd(-32768, 32767), b16[i] = (int16_t)rnd(-32768, 32767);
        }
        const int inplace = rnd(0, 3) == 0;
        CHECK(ta_kernel_use_impl(TA_KERNEL_IMPL_REFERENCE) == TA_OK);
        if (wide)
            CHECK((sub ? ta_kernel_sub_s16(&p, a16, b16, r16) : ta_kernel_add_s16(&p, a16, b16, r16)) == TA_OK);
        else
            CHECK((sub ? ta_kernel_sub_s8(&p, a8, b8, r8) : ta_kernel_add_s8(&p, a8, b8, r8)) == TA_OK);
        CHECK(ta_kernel_use_impl(g_impl) == TA_OK);
        if (inplace) memcpy(f8, a8, sizeof a8), memcpy(f16, a16, sizeof a16);
        if (wide)
            CHECK((sub ? ta_kernel_sub_s16(&p, inplace ? f16 : a16, b16, f16)
                       : ta_kernel_add_s16(&p, inplace ? f16 : a16, b16, f16)) == TA_OK);
        else
            CHECK((sub ? ta_kernel_sub_s8(&p, inplace ? f8 : a8, b8, f8) : ta_kernel_add_s8(&p, inplace ? f8 : a8, b8, f8)) ==
                  TA_OK);
        CHECK(wide ? memcmp(r16, f16, (size_t)n * 2) == 0 : memcmp(r8, f8, (size_t)n) == 0);
    }
}

/* The micro-kernels on their own, at every length around the 4-byte steps
 * and at every alignment of the operands. */
static void test_dot(void) {
    int8_t buf[4][80];
    for (int k = 0; k < 4; k++) rnd_s8(buf[k], 80);
    for (int32_t n = 0; n <= 40; n++)
        for (int a = 0; a < 4; a++) {
            const int8_t *x0 = buf[0] + a, *x1 = buf[1] + (a + 1) % 4, *w0 = buf[2] + (a + 2) % 4,
                         *w1 = buf[3] + (a + 3) % 4;
            int32_t e[4] = {7, -7, 1, 0}, acc[4] = {7, -7, 1, 0}, acc2[2] = {7, -7};
            for (int32_t i = 0; i < n; i++) {
                e[0] += x0[i] * w0[i], e[1] += x0[i] * w1[i];
                e[2] += x1[i] * w0[i], e[3] += x1[i] * w1[i];
            }
            ta__dot_2x2(x0, x1, w0, w1, n, acc);
            ta__dot_1x2(x0, w0, w1, n, acc2);
            CHECK(memcmp(e, acc, sizeof e) == 0);
            CHECK(acc2[0] == e[0] && acc2[1] == e[1]);
        }
}

int main(void) {
    CHECK(ta_kernel_use_impl((ta_kernel_impl)7) == TA_E_INVALID_ARG);
    test_requant();
    test_dot();
    /* FAST (x86-64: AVX2 when the CPU has it), FAST capped at SSE4.1 and at
     * SSE2 (the same as FAST elsewhere), PORTABLE */
    const ta_kernel_impl impls[4] = {TA_KERNEL_IMPL_FAST, TA_KERNEL_IMPL_FAST, TA_KERNEL_IMPL_FAST,
                                     TA_KERNEL_IMPL_PORTABLE};
    for (int k = 0; k < 4; k++) {
#ifndef TA__X86_DISPATCH
        if (k > 0) break; /* one build of the fast kernels: PORTABLE is FAST */
#endif
        g_impl = impls[k];
        CHECK(ta_kernel_use_impl(g_impl) == TA_OK);
#ifdef TA__X86_DISPATCH
        static const int caps[4] = {TA__X86_AVX2, TA__X86_SSE41, TA__X86_SSE2, TA__X86_AVX2};
        ta__x86_cap(caps[k]);
        printf("kernels: %s, x86 level %d\n", k == 3 ? "portable" : "fast", ta__x86_level());
        /* each forced build is the one that runs (a CPU without SSE4.1 runs SSE2 under the cap) */
        if (k == 2) CHECK(ta__x86_level() == TA__X86_SSE2);
        if (k == 3) CHECK(ta__x86_level() == TA__X86_PORTABLE);
#endif
        test_conv(3000, false);
        test_conv(1500, true);
        test_depthwise(3000, false);
        test_depthwise(1000, true);
        test_fc(2000);
        test_addsub(500);
    }
    CHECK(ta_kernel_use_impl(TA_KERNEL_IMPL_FAST) == TA_OK);
#ifdef TA__X86_DISPATCH
    ta__x86_cap(2);
#endif
    printf("depthwise in place: %d cases equal to the reference\n", g_ip_cases);
    printf("1x1 with a weight pack: %d cases\n", g_pack_cases);
    CHECK(g_pack_cases > 100);
    CHECK(g_ip_cases > 500);
    return ta_test_finish("test_kernels_fast");
}
