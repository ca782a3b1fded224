/* Kernels of TFLM's signal library (signal.c): window multiply/shift
 * rounding, auto-scale, kissfft, energy, filter bank, square root, log,
 * spectral subtraction, PCAN. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tinyarena/kernels.h"
#ifdef TINYARENA_GRAPH_H
#error "kernels.h includes graph.h: kernels need only tinyarena/types.h"
#endif
#include "common/util.h"
#include "kernel_test.h"
#include "runtime/kernels/fixedpoint.h"
#include "testutil.h"

/* ---- TFLM's signal library ------------------------------------------------ */

static void test_signal_math(void) {
    CHECK(ta_signal_msb32(0) == 32 && ta_signal_msb32(1) == 1 && ta_signal_msb32(3) == 2);
    CHECK(ta_signal_msb32(0x80000000u) == 32 && ta_signal_msb64((uint64_t)1 << 40) == 41 && ta_signal_msb64(0) == 64);
    /* square roots round to nearest: 2 -> 1 (1.41), 3 -> 2 (1.73), 24 -> 5 (4.90) */
    CHECK(ta_signal_sqrt32(0) == 0 && ta_signal_sqrt32(1) == 1 && ta_signal_sqrt32(2) == 1);
    CHECK(ta_signal_sqrt32(3) == 2 && ta_signal_sqrt32(24) == 5 && ta_signal_sqrt32(16) == 4);
    CHECK(ta_signal_sqrt32(0xFFFFFFFFu) == 0xFFFF); /* would round to 65536: capped */
    CHECK(ta_signal_sqrt64((uint64_t)1 << 40) == 1u << 20 && ta_signal_sqrt64((uint64_t)1 << 32) == 65536);
    CHECK(ta_signal_sqrt64(UINT64_MAX) == 0xFFFFFFFFu);
    /* property: r^2 - r < x <= r^2 + r (round to nearest), below the caps */
    uint64_t seed = 7;
    for (int i = 0; i < 20000; i++) {
        const uint64_t x = ta__rng_next(&seed) >> (ta__rng_next(&seed) % 64);
        const uint64_t r = ta_signal_sqrt64(x);
        if (r == 0xFFFFFFFFu) continue;
        CHECK(r * r + r >= x && (r == 0 || r * r - r < x));
    }
    /* log2 in Q16: exact at powers of two and at every table point, where
     * the fraction is 2^9 i plus the table's correction
     * round(2^16 log2(1 + i/128) - 2^9 i) */
    CHECK(ta_signal_log2_q16(1) == 0 && ta_signal_log2_q16(65536) == 16u << 16);
    int lut_ok = 1;
    for (uint32_t i = 0; i < 128; i++) {
        const double exact = 65536.0 * log2(1.0 + i / 128.0) - 512.0 * i;
        const uint32_t want = (16u << 16) + 512u * i + (uint32_t)floor(exact + 0.5);
        lut_ok &= ta_signal_log2_q16(65536u + 512u * i) == want;
    }
    CHECK(lut_ok);
    CHECK(ta_signal_log2_q16(3) == 103872); /* log2(3) = 1.58496 */
    /* natural log, scaled: ln(8) * 64 = 133.08, ln(65536) * 64 = 709.8 */
    CHECK(ta_signal_log32(8, 64) == 133 && ta_signal_log32(65536, 64) == 710 && ta_signal_log32(1000, 64) == 442);
    CHECK(ta_signal_log32(0xFFFFFFF8u, 64) == 1420);
    CHECK(ta_signal_log32(0xFFFFFFF8u, 2621440) == 18688); /* the uint32 product wraps, as TFLM's */
    for (uint32_t x = 2; x < 4000000; x = x * 3 / 2 + 1) CHECK(fabs(ta_signal_log32(x, 1024) - 1024.0 * log((double)x)) < 3.0);
}

static void test_signal_window_autoscale(void) {
    /* the product in int32, an arithmetic (flooring) shift, int16 saturation */
    const int16_t in[6] = {1000, -1000, 32767, -32768, 5, -5};
    const int16_t w[3] = {4096, 32767, 1};
    int16_t out[6];
    ta_signal_window_params p = {6, 3, 12};
    CHECK(ta_kernel_signal_window(&p, in, w, out) == TA_OK);
    /* 1000; -1000 * 32767 >> 12 = -7999.8 -> -8000; 32767 >> 12 = 7; -32768 * 4096 >> 12; 5 * 32767 >> 12 = 39;
     * -5 >> 12 = -1 */
    CHECK(out[0] == 1000 && out[1] == -8000 && out[2] == 7 && out[3] == -32768 && out[4] == 39 && out[5] == -1);
    p.shift = 0; /* saturation */
    const int16_t w1[3] = {2, 2, 2};
    CHECK(ta_kernel_signal_window(&p, in, w1, out) == TA_OK);
    CHECK(out[0] == 2000 && out[2] == 32767 && out[3] == -32768);
    p.window = 4; /* not whole frames */
    CHECK(ta_kernel_signal_window(&p, in, w, out) == TA_E_INVALID_ARG);

    /* auto scale: peak 200 has 8 bits, so 16 - 8 - 1 = 7 */
    const int16_t a[3] = {100, -200, 50};
    int16_t b[3];
    int32_t bits = -1;
    CHECK(ta_kernel_signal_fft_auto_scale(3, a, b, &bits) == TA_OK);
    CHECK(bits == 7 && b[0] == 12800 && b[1] == -25600 && b[2] == 6400);
    const int16_t z[2] = {0, 0};
    CHECK(ta_kernel_signal_fft_auto_scale(2, z, b, &bits) == TA_OK && bits == 0); /* msb(0) = 32 */
    /* TFLM's int16 maximum wraps at -32768; a later 5 then sets it: shift
     * 12, and -32768 * 4096 wraps to 0 */
    const int16_t m[2] = {-32768, 5};
    CHECK(ta_kernel_signal_fft_auto_scale(2, m, b, &bits) == TA_OK);
    CHECK(bits == 12 && b[0] == 0 && b[1] == 20480);
    CHECK(ta_kernel_signal_fft_auto_scale(1, m, b, &bits) == TA_OK && bits == 0 && b[0] == -32768);
}

static void test_signal_rfft(void) {
    /* kissfft's twiddles: floor(0.5 + 32767 cos), sin of -2 pi i / n */
    int16_t tw8[12];
    CHECK(ta_signal_rfft_table_count(8) == 12 && ta_signal_rfft_twiddles(8, tw8) == TA_OK);
    const int16_t want_tw8[12] = {32767, 0, 0, -32767, -32767, 0, 0, 32767, -23170, -23170, -32767, 0};
    CHECK(!memcmp(tw8, want_tw8, sizeof want_tw8));
    const size_t n512 = ta_signal_rfft_table_count(512);
    CHECK(n512 == 2 * (256 + 128));
    int16_t *tw = malloc(n512 * sizeof *tw);
    CHECK(ta_signal_rfft_twiddles(512, tw) == TA_OK);
    CHECK(tw[64] == 23170 && tw[65] == -23170); /* e^(-i pi / 4) */
    CHECK(ta_signal_rfft_table_count(12) == 0 && ta_signal_rfft_table_count(2) == 0 && ta_signal_rfft_table_count(7) == 0);

    /* an impulse: every bin is the amplitude / N (radix 4, and 4 x 2) */
    int16_t in[16], out[20];
    memset(in, 0, sizeof in);
    in[0] = 16384;
    ta_signal_rfft_params p = {8, 8, 1, tw8};
    CHECK(ta_kernel_signal_rfft_s16(&p, in, out) == TA_OK);
    int flat = 1;
    for (int k = 0; k < 5; k++) flat &= out[2 * k] == 2048 && out[2 * k + 1] == 0;
    CHECK(flat);
    int16_t tw16[24];
    CHECK(ta_signal_rfft_twiddles(16, tw16) == TA_OK);
    const ta_signal_rfft_params p16 = {16, 16, 1, tw16};
    CHECK(ta_kernel_signal_rfft_s16(&p16, in, out) == TA_OK);
    flat = 1;
    for (int k = 0; k < 9; k++) flat &= out[2 * k] == 1024 && out[2 * k + 1] == 0;
    CHECK(flat);
    /* a cosine at bin 1 (16384 cos(2 pi t / 8)): 16384 / 2 less kissfft's
     * rounding, in bin 1; the rounding residue -1 in bin 3 */
    const int16_t cs[8] = {16384, 11585, 0, -11585, -16384, -11585, 0, 11585};
    CHECK(ta_kernel_signal_rfft_s16(&p, cs, out) == TA_OK);
    const int16_t want_cs[10] = {0, 0, 8190, 0, 0, 0, -1, 0, 0, 0};
    CHECK(!memcmp(out, want_cs, sizeof want_cs));
    /* zero padding is read, not copied: 6 samples padded to 8 equal 8 with zeros */
    int16_t out2[10];
    const int16_t cs6[8] = {16384, 11585, 0, -11585, -16384, -11585, 0, 0};
    p.input_length = 6;
    CHECK(ta_kernel_signal_rfft_s16(&p, cs, out) == TA_OK);
    p.input_length = 8;
    CHECK(ta_kernel_signal_rfft_s16(&p, cs6, out2) == TA_OK && !memcmp(out, out2, sizeof out2));
    /* two frames of 4 samples: each its own transform */
    p.input_length = 4;
    p.frames = 2;
    const int16_t fr[8] = {16384, 0, 0, 0, 16384, 0, 0, 0};
    CHECK(ta_kernel_signal_rfft_s16(&p, fr, out) == TA_OK && !memcmp(out, out + 10, 10 * sizeof *out) && out[0] == 2048);
    p.fft_length = 12;
    CHECK(ta_kernel_signal_rfft_s16(&p, fr, out) == TA_E_UNSUPPORTED);
    free(tw);
}

static void test_signal_energy_filter_bank(void) {
    /* energy: re^2 + im^2 in [start, end), 0 elsewhere; (-2^15)^2 * 2 = 2^31 */
    const int16_t c[8] = {3, 4, -32768, -32768, 100, 0, 1, 1};
    uint32_t e[4] = {9, 9, 9, 9};
    const ta_signal_energy_params ep = {4, 1, 3};
    CHECK(ta_kernel_signal_energy(&ep, c, e) == TA_OK);
    CHECK(e[0] == 0 && e[1] == 2147483648u && e[2] == 10000 && e[3] == 0);

    /* filter bank: channel i gets weights * bins of band i plus unweights *
     * bins of band i - 1; the first band only feeds channel 1 */
    const uint32_t in[4] = {10, 20, 30, 40};
    const int16_t wt[4] = {100, 200, 300, 400}, uw[4] = {1, 2, 3, 4};
    const int16_t fs[3] = {0, 1, 2}, ws[3] = {0, 1, 2}, wd[3] = {1, 1, 2};
    ta_signal_filter_bank_tables t = {wt, uw, fs, ws, wd};
    const ta_signal_filter_bank_params fp = {2, 4, 4};
    uint64_t out[2] = {0, 0};
    CHECK(ta_kernel_signal_filter_bank(&fp, &t, in, out) == TA_OK);
    CHECK(out[0] == 10 + 200 * 20 && out[1] == 2 * 20 + 300 * 30 + 400 * 40);
    /* a negative weight is taken modulo 2^64, as TFLM's int16 * uint64 */
    const int16_t neg[4] = {-1, 200, 300, 400};
    t.weights = neg;
    const int16_t wd1[3] = {1, 0, 0};
    t.widths = wd1;
    const ta_signal_filter_bank_params f1 = {1, 4, 4};
    uint64_t o1[1];
    CHECK(ta_kernel_signal_filter_bank(&f1, &t, in, o1) == TA_OK && o1[0] == 10); /* channel 0 (dropped) was -10 */
    const ta_signal_filter_bank_params f0 = {0, 4, 4};
    CHECK(ta_kernel_signal_filter_bank(&f0, &t, in, o1) == TA_OK);
    /* a band past the input or the weights is refused before anything is written */
    const int16_t far[3] = {0, 1, 3}, wide[3] = {1, 1, 2};
    t.weights = wt;
    t.freq_starts = far;
    t.widths = wide;
    out[0] = 77;
    CHECK(ta_kernel_signal_filter_bank(&fp, &t, in, out) == TA_E_INVALID_ARG && out[0] == 77);
    CHECK(ta_signal_filter_bank_check(&fp, &t) == TA_E_INVALID_ARG);

    /* square root, scaled down by the auto-scale bits (count modulo 32) */
    const uint64_t sq[4] = {0, (uint64_t)1 << 40, 17, UINT64_MAX};
    uint32_t so[4];
    CHECK(ta_kernel_signal_filter_bank_sqrt(4, sq, 2, so) == TA_OK);
    CHECK(so[0] == 0 && so[1] == 1u << 18 && so[2] == 1 && so[3] == 0x3FFFFFFFu);
    CHECK(ta_kernel_signal_filter_bank_sqrt(4, sq, 33, so) == TA_OK && so[1] == 1u << 19);
}

static void test_signal_noise(void) {
    /* spectral subtraction, two channels (odd: the alternate coefficients) */
    ta_signal_spectral_subtraction_params p = {2, 1024, 15360, 2048, 14336, 819, 10, 14, false};
    uint32_t state[2] = {0, 0}, out[2], noise[2];
    const uint32_t in1[2] = {1000, 50};
    CHECK(ta_kernel_signal_spectral_subtraction(&p, in1, out, noise, state) == TA_OK);
    /* s = 1000 << 10; noise = s * 1024 >> 14 = 64000; (s - 64000) >> 10 = 937 (floor 49) */
    CHECK(state[0] == 64000 && state[1] == 6400 && out[0] == 937 && out[1] == 43);
    CHECK(noise[0] == 64000 && noise[1] == 6400);
    const uint32_t in2[2] = {0, 50};
    uint32_t st2[2] = {64000, 6400};
    CHECK(ta_kernel_signal_spectral_subtraction(&p, in2, out, noise, state) == TA_OK);
    /* the estimate (60000) exceeds the signal (0): nothing subtracted, and
     * without clamping the estimate stays */
    CHECK(state[0] == 60000 && state[1] == 12000 && out[0] == 0 && out[1] == 38);
    p.clamping = true;
    CHECK(ta_kernel_signal_spectral_subtraction(&p, in2, out, noise, st2) == TA_OK && st2[0] == 0 && noise[0] == 0);
    p.spectral_subtraction_bits = 64;
    CHECK(ta_kernel_signal_spectral_subtraction(&p, in2, out, noise, st2) == TA_E_INVALID_ARG);

    /* PCAN with the start of micro_speech's gain table */
    int16_t lut[125];
    memset(lut, 0, sizeof lut);
    const int16_t head[8] = {32636, 32633, 32630, -6, 0, 0, 32624, -12};
    memcpy(lut, head, sizeof head);
    const ta_signal_pcan_params pp = {3, 6, 125};
    const uint32_t x[3] = {10, 1000, 1}, nz[3] = {0, 3, 1};
    uint32_t y[3];
    CHECK(ta_kernel_signal_pcan(&pp, x, nz, lut, y) == TA_OK);
    /* noise 0: gain lut[0]; snr = 10 * 32636 >> 6 = 5099 < 2^13: 5099^2 >> 20 = 24 */
    CHECK(y[0] == 24);
    /* noise 3 (msb 2): lut[2..4], frac 512: ((0 - 6 * 32) * 512 + 2^14) >> 15 = -3, gain 32627;
     * snr = 509796 >= 2^13: (509796 >> 6) - 64 = 7901 */
    CHECK(y[1] == 7901);
    CHECK(y[2] == ((1u * 32633u >> 6) * (1u * 32633u >> 6)) >> 20);
    lut[1] = -1; /* a negative gain is taken as uint32 */
    CHECK(ta_kernel_signal_pcan(&pp, x, nz, lut, y) == TA_OK && y[2] == (0xFFFFFFFFu >> 6 >> 6) - 64);
    const ta_signal_pcan_params small = {3, 6, 124};
    CHECK(ta_kernel_signal_pcan(&small, x, nz, lut, y) == TA_E_INVALID_ARG);

    /* filter bank log: x << 3, then ln x * 64, 0 for x <= 1, at most 32767 */
    const uint32_t li[4] = {0, 1, 8192, 0xFFFFFFFFu};
    int16_t lo[4];
    ta_signal_filter_bank_log_params lp = {4, 3, 64};
    CHECK(ta_kernel_signal_filter_bank_log(&lp, li, lo) == TA_OK);
    CHECK(lo[0] == 0 && lo[1] == 133 && lo[2] == 710 && lo[3] == 1420);
    lp.input_correction_bits = 0;
    lp.output_scale = 4096; /* ln(65536) * 4096 = 45426: saturates */
    const uint32_t big[4] = {65536, 1, 0, 2};
    CHECK(ta_kernel_signal_filter_bank_log(&lp, big, lo) == TA_OK && lo[0] == 32767 && lo[1] == 0 && lo[3] > 0);
}

int main(void) {
    test_signal_math();
    test_signal_window_autoscale();
    test_signal_rfft();
    test_signal_energy_filter_bank();
    test_signal_noise();
    return ta_test_finish("test_kernels_signal");
}
