/*
 * DEPTHWISE_CONV_2D int8 in place (DWINPLACE), the fast path: 3x3 filters,
 * depth multiplier 1, channels a multiple of 4, one batch -- MobileNet's
 * in-place layers.  depthwise_conv2d_inplace.c runs it where it applies
 * (ta__dwip_s8_fast) and keeps its one-channel kernel for the rest.
 *
 * What it writes, and where, is the one-channel kernel's: the output over
 * the input's buffer, from its start or ending where the input ends (at
 * pixel base = in.h * in.w - P, P = out.h * out.w), and nothing outside the
 * declared scratch of P bytes.  Only the order differs.
 *
 * Order.  Channels in groups of 4 (one word: on the DSP cores two SXTB16
 * and four SMLABB/SMLATT a tap, as the out-of-place 3x3 kernel; elsewhere
 * four products in C, byte loads only), and in a
 * group the output pixels in raster order (from the last pixel backwards
 * at the end).  Output pixel j of the group goes to slot base + j: channels
 * c0..c0+3 of that input pixel, which only this group reads (later groups
 * read their own channels, earlier groups' slots hold their outputs).  A
 * slot is written once no output pixel still to come in this group reads
 * it:
 *  - forwards, every pixel after (oy, ox) reads input pixels at or past
 *    min(first(oy, ox + 1), first(oy + 1, 0)), first(y, x) = the pixel
 *    index of the window's top-left tap (y * sh - ph, x * sw - pw) with
 *    each coordinate clamped to [0, in.h] and [0, in.w]: a lower bound of
 *    what the window reads, growing with x and with y;
 *  - backwards, every pixel before it reads at or below
 *    max(last(oy, ox - 1), last(oy - 1, out.w - 1)), last(y, x) = the
 *    same from the bottom-right tap (+ 2 dh, + 2 dw), clamped to
 *    [-1, in.h - 1] and [-1, in.w - 1]: an upper bound.
 * A pixel whose slot is free when it is computed goes straight there (its
 * own taps are all read before its 4 bytes are stored); the others wait,
 * in order, in a ring of D entries of 4 bytes in the scratch, and leave as
 * soon as their slot is free.  D, the most that ever wait, follows from the
 * geometry alone: a dry run of the same schedule counts it first, and the
 * path is taken only when 4 * D fits the P-byte scratch (D is 0 for
 * MobileNet's stride-2 layers: every slot lies before what is still to be
 * read; in.w + 2 for stride 1 with a pad of 1).  Otherwise, or with
 * several batches, the one-channel kernel runs.
 *
 * Why it is bit-exact: each output byte is the out-of-place 3x3 kernel's
 * sum, sum(w * x) over the 9 taps plus the fold (bias + input_offset * the
 * 9 weights' sum) modulo 2^32, requantised by requant.h's exact forms; a
 * window clipped by padding reads the byte -input_offset for its outside
 * taps (ta__dw3_ok: an int8), whose term w * (x + input_offset) is 0.  And
 * every tap reads an input byte no store has reached (above).
 */
#include "runtime/kernels/conv_common.h"
#include "runtime/kernels/dot_s8.h"
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"
#include "runtime/kernels/requant.h"

/* The geometry the schedule needs (pixels, not bytes; ta__dwip_s8_fast
 * checks that every figure below fits int32). */
typedef struct ip_geo {
    int32_t ih, iw, oh, ow, sh, sw, ph, pw, dh, dw;
    int32_t base; /* the output's first slot */
    bool rev;     /* at the end: pixels from the last backwards */
} ip_geo;

/* The pixel index of a window's top-left tap, clamped into [0, ih] x
 * [0, iw]: a lower bound of what the window reads (a window starting past
 * the image reads nothing), and growing with x and with y. */
static inline int32_t ip_first(const ip_geo *g, int32_t y, int32_t x) {
    int32_t iy = y * g->sh - g->ph, ix = x * g->sw - g->pw;
    iy = iy < 0 ? 0 : iy > g->ih ? g->ih : iy;
    ix = ix < 0 ? 0 : ix > g->iw ? g->iw : ix;
    return iy * g->iw + ix;
}

/* The same from the bottom-right tap, clamped into [-1, ih - 1] x
 * [-1, iw - 1]: an upper bound. */
static inline int32_t ip_last(const ip_geo *g, int32_t y, int32_t x) {
    int32_t iy = y * g->sh - g->ph + 2 * g->dh, ix = x * g->sw - g->pw + 2 * g->dw;
    iy = iy < -1 ? -1 : iy > g->ih - 1 ? g->ih - 1 : iy;
    ix = ix < -1 ? -1 : ix > g->iw - 1 ? g->iw - 1 : ix;
    return iy * g->iw + ix;
}

/* The schedule's bound after computing output pixel (y, x): a slot s is
 * free once v(s) < B, v(s) = s forwards and -s backwards (so v grows with
 * the processing step either way); B bounds what the pixels still to come
 * may read (above). */
static TA__ALWAYS_INLINE int32_t ip_bound(const ip_geo *g, int32_t y, int32_t x) {
    int32_t b = INT32_MAX;
    if (!g->rev) {
        if (x + 1 < g->ow) b = ip_first(g, y, x + 1);
        if (y + 1 < g->oh) {
            const int32_t r = ip_first(g, y + 1, 0);
            b = r < b ? r : b;
        }
        return b;
    }
    if (x > 0) b = -ip_last(g, y, x - 1);
    if (y > 0) {
        const int32_t r = -ip_last(g, y - 1, g->ow - 1);
        b = r < b ? r : b;
    }
    return b;
}

/* v of the slot of processing step k (npix output pixels). */
static inline int32_t ip_v(const ip_geo *g, int32_t k, int32_t npix) {
    return g->rev ? -(g->base + npix - 1 - k) : g->base + k;
}

/* The output pixel of step k, as y, x stepped along (no division). */
static inline void ip_step(const ip_geo *g, int32_t *y, int32_t *x) {
    if (!g->rev) {
        if (++*x == g->ow) *x = 0, ++*y;
    } else if (--*x < 0) {
        *x = g->ow - 1, --*y;
    }
}

/* The most steps that ever wait for their slot (the ring's entries). */
static int32_t ip_ring(const ip_geo *g) {
    const int32_t npix = g->oh * g->ow;
    int32_t wait = 0, most = 0, f = 0; /* f: the oldest waiting step */
    int32_t y = g->rev ? g->oh - 1 : 0, x = g->rev ? g->ow - 1 : 0;
    for (int32_t k = 0; k < npix; k++, ip_step(g, &y, &x)) {
        const int32_t b = ip_bound(g, y, x);
        if (wait == 0 && ip_v(g, k, npix) < b) {
            f = k + 1;
            continue;
        }
        wait++;
        most = wait > most ? wait : most;
        for (; wait > 0 && ip_v(g, f, npix) < b; f++) wait--;
    }
    return most;
}

/* One tap t of the group at xp: the 4 channels' products added to a0..a3. */
#if defined(TA__DOT_DSP)
#define IP_TAP(xp, t)                                                                                                  \
    do {                                                                                                               \
        const uint32_t xv_ = ta__ld32(xp);                                                                             \
        const int32_t x02_ = __sxtb16(xv_), x13_ = ta__sxtb16_ror8(xv_);                                               \
        a0 = __smlabb(x02_, (int32_t)wx[2 * (t)], a0);                                                                 \
        a2 = __smlatt(x02_, (int32_t)wx[2 * (t)], a2);                                                                 \
        a1 = __smlabb(x13_, (int32_t)wx[2 * (t) + 1], a1);                                                             \
        a3 = __smlatt(x13_, (int32_t)wx[2 * (t) + 1], a3);                                                             \
    } while (0)
#else
#define IP_TAP(xp, t)                                                                                                  \
    do {                                                                                                               \
        const int8_t *xq_ = (xp);                                                                                      \
        a0 += xq_[0] * wt[t][0];                                                                                       \
        a1 += xq_[1] * wt[t][1];                                                                                       \
        a2 += xq_[2] * wt[t][2];                                                                                       \
        a3 += xq_[3] * wt[t][3];                                                                                       \
    } while (0)
#endif

/* One group of 4 channels from c0: all its output pixels, in the order and
 * through the ring above (nring 0: the dry run found every slot free when
 * its pixel is computed, so no bound is computed).  mode: 2 the short
 * requantisation (ta__rqs) with the int8 range, 3 the same with the
 * activation clamp, 0 ta__rq_s8.  One copy for the three: the mode is a
 * branch per pixel (4 outputs), where three inlined copies cost 3 KB. */
static __attribute__((noinline)) void ip_group(const ta_dwconv_params *p, const ip_geo *g, int8_t *data,
                                               const int8_t *filter, const int32_t *bias, int8_t *ring, int32_t nring,
                                               int32_t c0, int mode) {
    const int32_t C = p->input.c, ih = g->ih, iw = g->iw;
    const ptrdiff_t sx = (ptrdiff_t)g->dw * C, sy = (ptrdiff_t)g->dh * iw * C;
    const ta__rq_out ro = ta__rq_out_make(&p->q);
    const uint32_t padw = (uint32_t)(uint8_t)(int8_t)(-p->q.input_offset) * 0x01010101u;
    const int8_t *in = data + c0;
    int32_t ws[4] = {0, 0, 0, 0};
#if defined(TA__DOT_DSP)
    uint32_t wx[18]; /* each tap's 4 weights as two int16 pairs */
    for (int32_t t = 0; t < 9; t++) {
        const uint32_t wv = ta__ld32(filter + (ptrdiff_t)t * C + c0);
        wx[2 * t] = (uint32_t)__sxtb16(wv), wx[2 * t + 1] = (uint32_t)ta__sxtb16_ror8(wv);
    }
#else
    int8_t wt[9][4];
    for (int32_t t = 0; t < 9; t++) memcpy(wt[t], filter + (ptrdiff_t)t * C + c0, 4);
#endif
    for (int32_t t = 0; t < 9; t++)
        for (int32_t c = 0; c < 4; c++) ws[c] += filter[(ptrdiff_t)t * C + c0 + c];
    ta__rq rq[4];
    ta__rqs rs[4];
    uint32_t fold[4];
    memset(rs, 0, sizeof rs); /* (set below in the modes that read it) */
    for (int32_t c = 0; c < 4; c++) {
        rq[c] = ta__rq_make(&p->q, c0 + c);
        fold[c] = ta__fold(bias, c0 + c, p->q.input_offset, ws[c]);
        if (mode >= 2) (void)ta__rqs_make(&p->q, c0 + c, fold[c], 9, &rs[c]); /* ta__dwip_s8_fast checked it */
    }
    const int32_t npix = g->oh * g->ow;
    int32_t f = 0, wait = 0, rw = 0, rr = 0; /* oldest waiting step, how many, ring write and read entries */
    int32_t k = 0;
    for (int32_t r = 0; r < g->oh; r++) {
        const int32_t oy = g->rev ? g->oh - 1 - r : r;
        const int32_t iy0 = oy * g->sh - g->ph;
        const bool full_y = iy0 >= 0 && iy0 + 2 * g->dh < ih;
        const int8_t *xrow = full_y ? in + (ptrdiff_t)iy0 * iw * C : in;
        int8_t *orow = data + (ptrdiff_t)(g->base + oy * g->ow) * C + c0;
        for (int32_t q = 0; q < g->ow; q++, k++) {
            const int32_t ox = g->rev ? g->ow - 1 - q : q;
            const int32_t b = nring ? ip_bound(g, oy, ox) : INT32_MAX;
            const bool direct = wait == 0 && (!nring || ip_v(g, k, npix) < b);
            int8_t *op = direct ? orow + (ptrdiff_t)ox * C : ring + 4 * rw;
            /* the window: in place when inside the image, else gathered with
         * the pad byte for its outside taps */
            const int32_t ix0 = ox * g->sw - g->pw;
            const int8_t *x;
            ptrdiff_t tx, ty;
            uint32_t win[9];
            if (full_y && ix0 >= 0 && ix0 + 2 * g->dw < iw) {
                x = xrow + (ptrdiff_t)ix0 * C;
                tx = sx, ty = sy;
            } else {
                for (int32_t fy = 0; fy < 3; fy++) {
                    const int32_t iy = iy0 + fy * g->dh;
                    for (int32_t fx = 0; fx < 3; fx++) {
                        const int32_t ix = ix0 + fx * g->dw;
                        if ((uint32_t)iy < (uint32_t)ih && (uint32_t)ix < (uint32_t)iw)
                            memcpy(&win[3 * fy + fx], in + ((ptrdiff_t)iy * iw + ix) * C, 4);
                        else
                            win[3 * fy + fx] = padw;
                    }
                }
                x = (const int8_t *)win;
                tx = 4, ty = 12;
            }
            /* the 9 taps written out (GCC -O2 does not unroll the loops) */
            int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
            IP_TAP(x, 0);
            IP_TAP(x + tx, 1);
            IP_TAP(x + 2 * tx, 2);
            x += ty;
            IP_TAP(x, 3);
            IP_TAP(x + tx, 4);
            IP_TAP(x + 2 * tx, 5);
            x += ty;
            IP_TAP(x, 6);
            IP_TAP(x + tx, 7);
            IP_TAP(x + 2 * tx, 8);
            /* every tap is read: the stores may reach this pixel's own slot */
            if (mode == 2) {
                op[0] = ta__rqs_s8(&rs[0], ro, true, a0);
                op[1] = ta__rqs_s8(&rs[1], ro, true, a1);
                op[2] = ta__rqs_s8(&rs[2], ro, true, a2);
                op[3] = ta__rqs_s8(&rs[3], ro, true, a3);
            } else if (mode == 3) {
                op[0] = ta__rqs_s8(&rs[0], ro, false, a0);
                op[1] = ta__rqs_s8(&rs[1], ro, false, a1);
                op[2] = ta__rqs_s8(&rs[2], ro, false, a2);
                op[3] = ta__rqs_s8(&rs[3], ro, false, a3);
            } else {
                op[0] = ta__rq_s8(&rq[0], ro, (uint32_t)a0 + fold[0]);
                op[1] = ta__rq_s8(&rq[1], ro, (uint32_t)a1 + fold[1]);
                op[2] = ta__rq_s8(&rq[2], ro, (uint32_t)a2 + fold[2]);
                op[3] = ta__rq_s8(&rq[3], ro, (uint32_t)a3 + fold[3]);
            }
            if (direct) {
                f = k + 1;
                continue;
            }
            wait++;
            rw = rw + 1 == nring ? 0 : rw + 1;
            /* the waiting pixels whose slots are free now, oldest first */
            for (; wait > 0 && ip_v(g, f, npix) < b; f++, wait--) {
                const int32_t jf = g->rev ? npix - 1 - f : f;
                memcpy(data + (ptrdiff_t)(g->base + jf) * C + c0, ring + 4 * rr, 4);
                rr = rr + 1 == nring ? 0 : rr + 1;
            }
        }
    }
}

bool ta__dwip_s8_fast(const ta_dwconv_params *p, int8_t *data, bool at_end, const int8_t *filter, const int32_t *bias,
                      int8_t *scratch, size_t scratch_bytes) {
    const ta_dims4 in = p->input, out = p->output;
    const int32_t C = in.c;
    if (!ta__dw3_ok(p) || p->depth_multiplier != 1 || in.n != 1 || !ta__rq_ok(&p->q, C)) return false;
    /* the schedule's figures in int32: the image with a row and a column
     * more, and the windows' corners (y * stride - pad + 2 dilation) */
    const int64_t lim = INT32_MAX / 4;
    if (((int64_t)in.h + 1) * ((int64_t)in.w + 1) * C > lim || (int64_t)out.h * p->stride_h + 2 * p->dilation_h > lim ||
        (int64_t)out.w * p->stride_w + 2 * p->dilation_w > lim || p->pad_h > lim || p->pad_w > lim)
        return false;
    const ip_geo g = {in.h,
                      in.w,
                      out.h,
                      out.w,
                      p->stride_h,
                      p->stride_w,
                      p->pad_h,
                      p->pad_w,
                      p->dilation_h,
                      p->dilation_w,
                      at_end ? in.h * in.w - out.h * out.w : 0,
                      at_end};
    const int32_t nring = ip_ring(&g);
    if ((size_t)nring * 4 > scratch_bytes) return false;
    const bool rqs = TA__RQS && ta__rqs_layer_ok(&p->q, C);
    const bool full = p->q.act_min == -128 && p->q.act_max == 127;
    for (int32_t c0 = 0; c0 < C; c0 += 4) {
        /* the short requantisation when all 4 channels' windows allow it */
        bool small = rqs;
        for (int32_t c = 0; small && c < 4; c++) {
            int32_t ws = 0;
            for (int32_t t = 0; t < 9; t++) ws += filter[(ptrdiff_t)t * C + c0 + c];
            ta__rqs unused;
            small = ta__rqs_make(&p->q, c0 + c, ta__fold(bias, c0 + c, p->q.input_offset, ws), 9, &unused);
        }
        ip_group(p, &g, data, filter, bias, scratch, nring, c0, small && full ? 2 : small ? 3 : 0);
    }
    return true;
}
#undef IP_TAP
