/* Overlap relations from kernel walks (walk.h). */
#include "tinyarena/walk.h"

#include "common/util.h"

#define INF INT64_MAX

/* Lowest in-bounds input index along one axis for output position o, or -1
 * when the whole window is padding.  (The window's lowest in-bounds row and
 * lowest in-bounds column give its lowest input byte: NHWC is row-major.) */
static int64_t first_in(int64_t o, int64_t stride, int64_t pad, int64_t dil, int64_t taps, int64_t size) {
    int64_t base = o * stride - pad, k = 0;
    if (base < 0) k = (-base + dil - 1) / dil; /* first tap at or after index 0 */
    if (k >= taps) return -1;
    int64_t i = base + k * dil;
    return i < size ? i : -1;
}

ta_status ta_walk_conv2d(const ta_conv_geometry *g, ta_conv_walk walk, ta_overlap *rel, ta_diag *d) {
    if (!g || !rel) return ta_diag_set(d, TA_E_INVALID_ARG, "NULL argument");
    if (walk != TA_CONV_WALK_REREAD && walk != TA_CONV_WALK_PIXEL && walk != TA_CONV_WALK_ROWS)
        return ta_diag_set(d, TA_E_BAD_REQUEST, "unknown conv walk %d", (int)walk);
    const int32_t pos[] = {g->batches,  g->in_h,     g->in_w,     g->in_c,       g->out_h,      g->out_w,
                           g->out_c,    g->filter_h, g->filter_w, g->stride_h,   g->stride_w,   g->dilation_h,
                           g->dilation_w};
    for (size_t i = 0; i < sizeof pos / sizeof pos[0]; i++)
        if (pos[i] < 1) return ta_diag_set(d, TA_E_BAD_REQUEST, "conv geometry: dimension %zu is %ld (< 1)", i, (long)pos[i]);
    if (g->pad_top < 0 || g->pad_left < 0)
        return ta_diag_set(d, TA_E_BAD_REQUEST, "conv geometry: negative padding");
    if (g->in_elem < 1 || g->in_elem > 8 || g->out_elem < 1 || g->out_elem > 8)
        return ta_diag_set(d, TA_E_BAD_REQUEST, "conv geometry: element size out of 1..8");
    /* sizes: each factor < 2^31, checked product by product against 2^40 */
    const int64_t cap = (int64_t)TA_PLAN_MAX_ARENA;
    int64_t xs = g->batches, ys = g->batches;
    const int32_t xf[] = {g->in_h, g->in_w, g->in_c, g->in_elem}, yf[] = {g->out_h, g->out_w, g->out_c, g->out_elem};
    for (int i = 0; i < 4; i++) {
        if (xs > cap / xf[i] || ys > cap / yf[i])
            return ta_diag_set(d, TA_E_OVERFLOW, "conv geometry: a tensor above 2^40 bytes");
        xs *= xf[i];
        ys *= yf[i];
    }
    int64_t pixels = (int64_t)g->batches * g->out_h * g->out_w;
    if (pixels > INT32_MAX) return ta_diag_set(d, TA_E_OVERFLOW, "conv geometry: more than 2^31 output pixels");
    const int64_t pix_in = (int64_t)g->in_c * g->in_elem;    /* bytes per input pixel */
    const int64_t pix_out = (int64_t)g->out_c * g->out_elem; /* bytes per output pixel */
    /*
     * Y at X.offset + delta (delta <= 0: Y below).  The write of output
     * bytes [w0, w1) at a moment when the lowest input byte still to be read
     * is `need` is safe iff delta + w1 <= need.  Walking the pixels
     * backwards keeps `after`, the lowest byte any later pixel reads; the
     * largest safe delta is the minimum over all writes.
     *   REREAD: channels 0..C-2 of pixel p are written while p's window is
     *   still to be read again (need = min(first(p), after)); channel C-1
     *   after its last read (need = after).
     *   PIXEL: every channel after the window's only read (need = after).
     */
    int64_t delta = INF, after = INF;
    if (walk == TA_CONV_WALK_ROWS) {
        /* One step per output row: its writes may come before any of its
         * reads, so they must all land below the first byte of its first
         * input row.  They must miss every later row's reads too; taking
         * the minimum of first(r) - end(r) over all rows covers that, as
         * end grows with r (a later row may start lower: with dilation, a
         * window in the top padding can skip the row the next one starts
         * at). */
        const int64_t row_out = (int64_t)g->out_w * pix_out, row_in = (int64_t)g->in_w * pix_in;
        for (int64_t r = 0; r < (int64_t)g->batches * g->out_h; r++) {
            int64_t b = r / g->out_h, oy = r % g->out_h;
            int64_t iy = first_in(oy, g->stride_h, g->pad_top, g->dilation_h, g->filter_h, g->in_h);
            if (iy < 0) { /* a row of padding only: the runtime cannot cut it out, no overlap */
                rel->kind = TA_OVERLAP_BELOW;
                rel->d = xs;
                return TA_OK;
            }
            delta = TA_MIN(delta, (b * g->in_h + iy) * row_in - (r + 1) * row_out);
        }
        pixels = 0; /* the pixel walk below has nothing to add */
    }
    for (int64_t p = pixels - 1; p >= 0; p--) {
        int64_t b = p / ((int64_t)g->out_h * g->out_w), rem = p % ((int64_t)g->out_h * g->out_w);
        int64_t oy = rem / g->out_w, ox = rem % g->out_w;
        int64_t iy = first_in(oy, g->stride_h, g->pad_top, g->dilation_h, g->filter_h, g->in_h);
        int64_t ix = first_in(ox, g->stride_w, g->pad_left, g->dilation_w, g->filter_w, g->in_w);
        int64_t first = iy < 0 || ix < 0 ? INF : ((b * g->in_h + iy) * g->in_w + ix) * pix_in;
        int64_t end = (p + 1) * pix_out; /* this pixel's writes end here */
        if (after != INF) delta = TA_MIN(delta, after - end);
        if (walk == TA_CONV_WALK_REREAD && g->out_c > 1) {
            int64_t need = TA_MIN(first, after);
            if (need != INF) delta = TA_MIN(delta, need - (end - g->out_elem));
        }
        after = TA_MIN(after, first);
    }
    /* d from delta: Y.end <= X.end - d  <=>  delta <= xs - ys - d */
    if (delta == INF || delta > xs) delta = xs; /* every placement is safe */
    int64_t dd = xs - ys - delta;
    if (dd > xs) dd = xs;   /* no overlap is safe: X's size permits none */
    if (dd < -ys) dd = -ys; /* (only with delta = xs) */
    rel->kind = TA_OVERLAP_BELOW;
    rel->d = dd;
    return TA_OK;
}

ta_status ta_walk_gather(uint64_t x_bytes, uint64_t y_bytes, uint64_t first, ta_overlap *rel, ta_diag *diag) {
    if (!rel) return ta_diag_set(diag, TA_E_INVALID_ARG, "walk: NULL relation");
    if (first > x_bytes || y_bytes > x_bytes - first || x_bytes > ((uint64_t)1 << 40))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "walk: a gather of %llu bytes from %llu past %llu",
                           (unsigned long long)y_bytes, (unsigned long long)first, (unsigned long long)x_bytes);
    rel->kind = TA_OVERLAP_BELOW;
    rel->d = (int64_t)(x_bytes - y_bytes - first);
    return TA_OK;
}

ta_status ta_walk_pad_backward(uint64_t x_bytes, uint64_t y_bytes, uint64_t first, ta_overlap *rel, ta_diag *diag) {
    if (!rel) return ta_diag_set(diag, TA_E_INVALID_ARG, "walk: NULL relation");
    if (first > y_bytes || x_bytes > y_bytes - first || y_bytes > ((uint64_t)1 << 40))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "walk: a pad of %llu bytes to %llu from %llu",
                           (unsigned long long)x_bytes, (unsigned long long)y_bytes, (unsigned long long)first);
    rel->kind = TA_OVERLAP_ABOVE;
    rel->d = -(int64_t)first;
    return TA_OK;
}

ta_status ta_walk_concat(uint64_t outer, uint64_t before, uint64_t mine, uint64_t after, ta_overlap *rel,
                         ta_diag *diag) {
    if (!rel) return ta_diag_set(diag, TA_E_INVALID_ARG, "walk: NULL relation");
    const uint64_t cap = (uint64_t)1 << 40;
    if (!mine || !outer || before > cap || mine > cap || after > cap || before + mine + after > cap ||
        outer > cap / (before + mine + after))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "walk: a concatenation of %llu steps of %llu + %llu + %llu bytes",
                           (unsigned long long)outer, (unsigned long long)before, (unsigned long long)mine,
                           (unsigned long long)after);
    /* Y + (before + after) * (outer - 1) + before <= X, in ends: Y's end
     * <= X's end + after (the derivation is walk.h's) */
    rel->kind = TA_OVERLAP_BELOW;
    rel->d = -(int64_t)after;
    return TA_OK;
}
