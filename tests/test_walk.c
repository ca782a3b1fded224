/* Overlap relations from kernel walks (walk.h): the 1x1 convolution of
 * person_detect's peak by hand, then random CONV_2D geometries (kernel size,
 * stride, dilation, padding, element sizes, batches) against a byte-level
 * simulation of the walk: at the derived d no input byte is overwritten
 * before its last read, and at d - 1 one is. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tinyarena/walk.h"

/* Runs the walk with X at x0 and Y at y0 in a tagged memory; returns true
 * when every read finds its input byte intact. */
static bool simulate(const ta_conv_geometry *g, ta_conv_walk walk, int64_t x0, int64_t y0, int32_t *mem) {
    const int64_t pin = (int64_t)g->in_c * g->in_elem, pout = (int64_t)g->out_c * g->out_elem;
    int64_t xs = (int64_t)g->batches * g->in_h * g->in_w * pin;
    for (int64_t i = 0; i < xs; i++) mem[x0 + i] = (int32_t)i;
    if (walk == TA_CONV_WALK_ROWS) {
        /* the adversary's row: every write first, then every byte of every
         * input row a window of the row touches, all columns */
        for (int32_t b = 0; b < g->batches; b++)
            for (int32_t oy = 0; oy < g->out_h; oy++) {
                int64_t r0 = (((int64_t)b * g->out_h + oy) * g->out_w) * pout;
                for (int64_t k = 0; k < (int64_t)g->out_w * pout; k++) mem[y0 + r0 + k] = -1;
                for (int32_t fy = 0; fy < g->filter_h; fy++) {
                    int32_t iy = oy * g->stride_h - g->pad_top + fy * g->dilation_h;
                    if (iy < 0 || iy >= g->in_h) continue;
                    int64_t at = ((int64_t)b * g->in_h + iy) * g->in_w * pin;
                    for (int64_t k = 0; k < (int64_t)g->in_w * pin; k++)
                        if (mem[x0 + at + k] != (int32_t)(at + k)) return false;
                }
            }
        return true;
    }
    for (int32_t b = 0; b < g->batches; b++)
        for (int32_t oy = 0; oy < g->out_h; oy++)
            for (int32_t ox = 0; ox < g->out_w; ox++) {
                int64_t p = ((int64_t)b * g->out_h + oy) * g->out_w + ox;
                for (int32_t oc = 0; oc < g->out_c; oc++) {
                    if (walk == TA_CONV_WALK_REREAD || oc == 0) {
                        for (int32_t fy = 0; fy < g->filter_h; fy++)
                            for (int32_t fx = 0; fx < g->filter_w; fx++) {
                                int32_t iy = oy * g->stride_h - g->pad_top + fy * g->dilation_h;
                                int32_t ix = ox * g->stride_w - g->pad_left + fx * g->dilation_w;
                                if (iy < 0 || iy >= g->in_h || ix < 0 || ix >= g->in_w) continue;
                                int64_t at = (((int64_t)b * g->in_h + iy) * g->in_w + ix) * pin;
                                for (int64_t k = 0; k < pin; k++)
                                    if (mem[x0 + at + k] != (int32_t)(at + k)) return false;
                            }
                    }
                    for (int32_t e = 0; e < g->out_elem; e++) mem[y0 + p * pout + (int64_t)oc * g->out_elem + e] = -1;
                }
            }
    return true;
}

/* An output row whose windows touch no input row (padding only): the ROWS
 * walk declares no overlap there, so d - 1 need not break it. */
static bool padding_row(const ta_conv_geometry *g) {
    for (int32_t oy = 0; oy < g->out_h; oy++) {
        bool any = false;
        for (int32_t fy = 0; fy < g->filter_h; fy++) {
            int32_t iy = oy * g->stride_h - g->pad_top + fy * g->dilation_h;
            any |= iy >= 0 && iy < g->in_h;
        }
        if (!any) return true;
    }
    return false;
}

static void test_conv1x1_person_detect(void) {
    ta_conv_geometry g = {1, 48, 48, 8, 48, 48, 16, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1};
    ta_overlap r = {0, 1, TA_OVERLAP_ABOVE, 12345};
    CHECK(ta_walk_conv2d(&g, TA_CONV_WALK_REREAD, &r, NULL) == TA_OK);
    CHECK(r.kind == TA_OVERLAP_BELOW);
    CHECK(r.d == 7);
    CHECK(r.x == 0 && r.y == 1);
    CHECK(ta_walk_conv2d(&g, TA_CONV_WALK_PIXEL, &r, NULL) == TA_OK);
    CHECK(r.d == -8);
    CHECK(ta_walk_conv2d(&g, TA_CONV_WALK_ROWS, &r, NULL) == TA_OK);
    CHECK(r.d == 384); /* the last output row (768 B) ends below the last input row (384 B) */
    ta_conv_geometry s = {1, 24, 24, 16, 24, 24, 8, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1};
    /* a 1x1 that shrinks 16 -> 8 channels: pixel p's outputs [8p, 8p+8)
     * stay below its own inputs [16p, 16p+16) from p = 1 on; only pixel 0's
     * first channels, written before its window is read again, need Y to
     * start 7 bytes below X (X 9,216 B, Y 4,608 B: d = 9,216 - 4,608 - (-7)) */
    CHECK(ta_walk_conv2d(&s, TA_CONV_WALK_REREAD, &r, NULL) == TA_OK);
    CHECK(r.d == 4615);
    CHECK(ta_walk_conv2d(&s, TA_CONV_WALK_PIXEL, &r, NULL) == TA_OK);
    CHECK(r.d == 4600); /* pixel 0's outputs may even cover its own inputs: Y starts 8 B above X */
    ta_diag d;
    ta_conv_geometry bad = g;
    bad.stride_h = 0;
    CHECK(ta_walk_conv2d(&bad, TA_CONV_WALK_REREAD, &r, &d) == TA_E_BAD_REQUEST);
    bad = g;
    bad.in_elem = 9;
    CHECK(ta_walk_conv2d(&bad, TA_CONV_WALK_REREAD, &r, &d) == TA_E_BAD_REQUEST);
    bad = g;
    bad.in_h = bad.in_w = bad.in_c = 1 << 20;
    CHECK(ta_walk_conv2d(&bad, TA_CONV_WALK_REREAD, &r, &d) == TA_E_OVERFLOW);
    CHECK(ta_walk_conv2d(NULL, TA_CONV_WALK_REREAD, &r, &d) == TA_E_INVALID_ARG);
    CHECK(ta_walk_conv2d(&g, (ta_conv_walk)5, &r, &d) == TA_E_BAD_REQUEST);
}

static uint64_t rs;
static int32_t rnd(int32_t m) {
    rs = rs * 6364136223846793005ull + 1442695040888963407ull;
    return (int32_t)((rs >> 33) % (uint64_t)m);
}

static void test_random_geometries(void) {
    int tight = 0, runs = 0;
    for (int round = 0; round < 3000; round++) {
        rs = 0x77616c6bull + (uint64_t)round * 104729u;
        ta_conv_geometry g;
        memset(&g, 0, sizeof g);
        g.batches = 1 + rnd(2);
        g.in_h = 1 + rnd(7);
        g.in_w = 1 + rnd(7);
        g.in_c = 1 + rnd(4);
        g.out_c = 1 + rnd(5);
        g.filter_h = 1 + rnd(3);
        g.filter_w = 1 + rnd(3);
        g.stride_h = 1 + rnd(3);
        g.stride_w = 1 + rnd(3);
        g.dilation_h = 1 + rnd(2);
        g.dilation_w = 1 + rnd(2);
        g.pad_top = rnd(3);
        g.pad_left = rnd(3);
        static const int32_t el[] = {1, 2, 4};
        g.in_elem = el[rnd(3)];
        g.out_elem = el[rnd(3)];
        int32_t ph = g.pad_top + rnd(3), pw = g.pad_left + rnd(3); /* bottom/right */
        int32_t eh = g.dilation_h * (g.filter_h - 1) + 1, ew = g.dilation_w * (g.filter_w - 1) + 1;
        if (g.in_h + g.pad_top + ph < eh || g.in_w + g.pad_left + pw < ew) continue;
        g.out_h = (g.in_h + g.pad_top + ph - eh) / g.stride_h + 1;
        g.out_w = (g.in_w + g.pad_left + pw - ew) / g.stride_w + 1;
        int64_t xs = (int64_t)g.batches * g.in_h * g.in_w * g.in_c * g.in_elem;
        int64_t ys = (int64_t)g.batches * g.out_h * g.out_w * g.out_c * g.out_elem;
        int32_t *mem = malloc((size_t)(2 * ys + xs + 16) * sizeof *mem);
        for (int w = 0; w < 3; w++) {
            ta_overlap r;
            CHECK(ta_walk_conv2d(&g, (ta_conv_walk)w, &r, NULL) == TA_OK);
            CHECK(r.d >= -ys && r.d <= xs);
            int64_t x0 = ys + 8;
            /* the tightest placement the relation permits: Y ends d below X's end */
            int64_t y0 = x0 + xs - r.d - ys;
            runs++;
            if (!simulate(&g, (ta_conv_walk)w, x0, y0, mem)) {
                fprintf(stderr, "round %d walk %d: d=%lld breaks the walk\n", round, w, (long long)r.d);
                CHECK(false);
            }
            if (w == TA_CONV_WALK_ROWS && padding_row(&g)) {
                CHECK(r.d == xs);
                continue;
            }
            if (r.d > -ys && y0 + 1 < x0 + xs) { /* d - 1 still overlaps: it must break */
                bool ok = simulate(&g, (ta_conv_walk)w, x0, y0 + 1, mem);
                if (ok) fprintf(stderr, "round %d walk %d: d-1=%lld also works\n", round, w, (long long)r.d - 1);
                CHECK(!ok);
                tight++;
            }
        }
        free(mem);
    }
    CHECK(tight > runs / 2);
    fprintf(stderr, "conv walks: %d geometries x walks, d - 1 caught in %d\n", runs, tight);
}

int main(void) {
    test_conv1x1_person_detect();
    test_random_geometries();
    return ta_test_finish("test_walk");
}
