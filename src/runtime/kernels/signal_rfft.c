/*
 * SignalRfft, int16 (TFLM signal library): the fixed-point real FFT of
 * kissfft 1.3.0 as TFLM builds it (FIXED_POINT 16), bit for bit.
 *
 * A real FFT of N = 2n samples is one n-point complex FFT of the samples
 * taken as n complex pairs (even sample real, odd sample imaginary), then a
 * split step that separates the two interleaved spectra with the "super
 * twiddles" e^(-i pi ((k + 1) / n + 1/2)).
 *
 * The complex FFT is kissfft's mixed-radix decimation in time: the stages
 * (radix 4 while four divides, then radix 2) recurse down to single
 * elements gathered from the input at growing strides, then each stage
 * combines its sub-transforms with butterflies.  Fixed-point details that
 * decide every bit:
 *  - every butterfly first divides its inputs by its radix: x * (32767 / p)
 *    rounded as (x + 2^14) >> 15 (kissfft's C_FIXDIV), so the output is the
 *    transform divided by N;
 *  - complex products are rounded the same way from their int32 sums;
 *  - sums and differences wrap to int16 (C's conversion, no saturation);
 *  - the split step halves with an arithmetic shift.
 * Where kissfft computes into a temporary buffer in its state, this runs in
 * the output frame itself (n complex values, the frame holds n + 1): the
 * split step reads bins k and n - k before it writes them, so it is safe in
 * place, and no scratch is needed.  Zero padding to N is read, not copied.
 */
#include <math.h>

#include "runtime/kernels/fixedpoint.h"

typedef struct {
    int32_t r, i;
} cpx;

static int16_t wrap16(int64_t v) {
    const uint32_t u = (uint32_t)(uint64_t)v & 0xFFFFu;
    return (int16_t)(u >= 0x8000u ? (int32_t)u - 0x10000 : (int32_t)u);
}

/* kissfft's sround: Q15 product sum back to int16, rounding half up. */
static int16_t sround(int64_t x) { return wrap16((x + (1 << 14)) >> 15); }

static cpx cmul(cpx a, cpx b) {
    const cpx m = {sround((int64_t)a.r * b.r - (int64_t)a.i * b.i), sround((int64_t)a.r * b.i + (int64_t)a.i * b.r)};
    return m;
}

/* C_FIXDIV(c, p): c * (32767 / p), rounded. */
static cpx fixdiv(cpx c, int32_t p) {
    const int32_t k = 32767 / p;
    const cpx d = {sround((int64_t)c.r * k), sround((int64_t)c.i * k)};
    return d;
}

static cpx cadd(cpx a, cpx b) {
    const cpx s = {wrap16(a.r + b.r), wrap16(a.i + b.i)};
    return s;
}
static cpx csub(cpx a, cpx b) {
    const cpx s = {wrap16(a.r - b.r), wrap16(a.i - b.i)};
    return s;
}

/* Complex element k of an interleaved int16 array. */
static cpx ld(const int16_t *a, size_t k) {
    const cpx c = {a[2 * k], a[2 * k + 1]};
    return c;
}
static void st(int16_t *a, size_t k, cpx c) {
    a[2 * k] = (int16_t)c.r;
    a[2 * k + 1] = (int16_t)c.i;
}

typedef struct {
    const int16_t *in; /* the frame's samples */
    int32_t in_len;    /* samples present; the rest of the N are zero */
    const int16_t *tw; /* n twiddles */
    int16_t *out;      /* the n-point transform */
} fft_plan;

static void bfly2(const fft_plan *f, size_t at, size_t fstride, size_t m) {
    for (size_t k = 0; k < m; k++) {
        cpx a = fixdiv(ld(f->out, at + k), 2), b = fixdiv(ld(f->out, at + k + m), 2);
        const cpx t = cmul(b, ld(f->tw, k * fstride));
        st(f->out, at + k + m, csub(a, t));
        st(f->out, at + k, cadd(a, t));
    }
}

static void bfly4(const fft_plan *f, size_t at, size_t fstride, size_t m) {
    for (size_t k = 0; k < m; k++) {
        int16_t *o = f->out;
        const cpx x0 = fixdiv(ld(o, at + k), 4), x1 = fixdiv(ld(o, at + k + m), 4);
        const cpx x2 = fixdiv(ld(o, at + k + 2 * m), 4), x3 = fixdiv(ld(o, at + k + 3 * m), 4);
        const cpx s0 = cmul(x1, ld(f->tw, k * fstride));
        const cpx s1 = cmul(x2, ld(f->tw, 2 * k * fstride));
        const cpx s2 = cmul(x3, ld(f->tw, 3 * k * fstride));
        const cpx s5 = csub(x0, s1);
        const cpx y0 = cadd(x0, s1);
        const cpx s3 = cadd(s0, s2), s4 = csub(s0, s2);
        st(o, at + k + 2 * m, csub(y0, s3));
        st(o, at + k, cadd(y0, s3));
        const cpx y1 = {wrap16(s5.r + s4.i), wrap16(s5.i - s4.r)};
        const cpx y3 = {wrap16(s5.r - s4.i), wrap16(s5.i + s4.r)};
        st(o, at + k + m, y1);
        st(o, at + k + 3 * m, y3);
    }
}

/* The sub-transform of n_here points whose inputs are complex elements
 * first, first + fstride, ... into out[at, at + n_here). */
static void work(const fft_plan *f, size_t at, size_t first, size_t fstride, size_t n_here) {
    const size_t p = n_here % 4 == 0 ? 4 : 2, m = n_here / p;
    if (m == 1) {
        for (size_t q = 0; q < p; q++) {
            const size_t s = 2 * (first + q * fstride); /* sample index of the pair */
            const cpx c = {s < (size_t)f->in_len ? f->in[s] : 0, s + 1 < (size_t)f->in_len ? f->in[s + 1] : 0};
            st(f->out, at + q, c);
        }
    } else {
        for (size_t q = 0; q < p; q++) work(f, at + q * m, first + q * fstride, fstride * p, m);
    }
    if (p == 4) bfly4(f, at, fstride, m);
    else bfly2(f, at, fstride, m);
}

/* n = fft_length / 2: a power of two >= 2 (0 otherwise). */
static size_t half_length(int32_t fft_length) {
    if (fft_length < 4 || fft_length % 2) return 0;
    const uint32_t n = (uint32_t)fft_length / 2;
    return (n & (n - 1)) ? 0 : n;
}

size_t ta_signal_rfft_table_count(int32_t fft_length) {
    const size_t n = half_length(fft_length);
    return n ? 2 * (n + n / 2) : 0;
}

ta_status ta_signal_rfft_twiddles(int32_t fft_length, int16_t *table) {
    const size_t n = half_length(fft_length);
    if (!n) return TA_E_UNSUPPORTED;
    if (!table) return TA_E_INVALID_ARG;
    /* kissfft's constants and operation order, in double */
    const double pi = 3.14159265358979323846;
    for (size_t i = 0; i < n; i++) {
        const double phase = -2 * pi * (double)i / (double)n;
        table[2 * i] = (int16_t)floor(.5 + 32767 * cos(phase));
        table[2 * i + 1] = (int16_t)floor(.5 + 32767 * sin(phase));
    }
    int16_t *super = table + 2 * n;
    for (size_t i = 0; i < n / 2; i++) {
        const double phase = -pi * ((double)(i + 1) / (double)n + .5);
        super[2 * i] = (int16_t)floor(.5 + 32767 * cos(phase));
        super[2 * i + 1] = (int16_t)floor(.5 + 32767 * sin(phase));
    }
    return TA_OK;
}

ta_status ta_kernel_signal_rfft_s16(const ta_signal_rfft_params *p, const int16_t *input, int16_t *output) {
    if (!p || !input || !output || !p->twiddles) return TA_E_INVALID_ARG;
    const size_t n = half_length(p->fft_length);
    if (!n) return TA_E_UNSUPPORTED;
    if (p->input_length < 1 || p->input_length > p->fft_length || p->frames < 1) return TA_E_INVALID_ARG;
    const int16_t *super = p->twiddles + 2 * n;
    for (int32_t fr = 0; fr < p->frames; fr++) {
        int16_t *out = output + (size_t)fr * 2 * (n + 1);
        const fft_plan f = {input + (size_t)fr * (size_t)p->input_length, p->input_length, p->twiddles, out};
        work(&f, 0, 0, 1, n);
        /* split: DC and Nyquist from bin 0, then bins k and n - k together */
        const cpx dc = fixdiv(ld(out, 0), 2);
        const cpx b0 = {wrap16(dc.r + dc.i), 0}, bn = {wrap16(dc.r - dc.i), 0};
        st(out, 0, b0);
        st(out, n, bn);
        for (size_t k = 1; k <= n / 2; k++) {
            const cpx fk = fixdiv(ld(out, k), 2);
            const cpx nk = ld(out, n - k), conj = {nk.r, wrap16(-nk.i)};
            const cpx fnk = fixdiv(conj, 2);
            const cpx f1 = cadd(fk, fnk), f2 = csub(fk, fnk);
            const cpx tw = cmul(f2, ld(super, k - 1));
            const cpx lo = {wrap16(ta__asr(f1.r + tw.r, 1)), wrap16(ta__asr(f1.i + tw.i, 1))};
            const cpx hi = {wrap16(ta__asr(f1.r - tw.r, 1)), wrap16(ta__asr(tw.i - f1.i, 1))};
            st(out, k, lo);
            st(out, n - k, hi);
        }
    }
    return TA_OK;
}
