/* The OVERLAP rewrite's backward walk for PAD / PADV2 (walk.h
 * ta_walk_pad_backward, kernels/pad_backward.c) through the real prepare
 * and kernel: random pads (rank 1-4, paddings 0-3 before and after each
 * axis, 1-, 2-, 4- and 8-byte elements, PADV2 with a constant value).
 * ta_rewrite_overlaps_for declares the relation (TA_OVERLAP_ABOVE, d = -the
 * padding bytes before the first input element); the op then runs in one
 * buffer with its input placed exactly as high as the relation allows
 * (X at Y + first) and at random lower places, under poison mode's walk
 * check, and must give the bytes of a run on disjoint buffers; with X one
 * element higher (d - 1 element) the check must refuse the op
 * (TA_E_OVERLAP) before it writes, and the kernel run there without the
 * check must indeed corrupt some outputs (the bound is tight).  Without
 * INPUTS no relation is declared over the graph input. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/ops.h"
#include "one_op_harness.h"
#include "testutil.h"
#include "tinyarena/kernels.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/ops.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/walk.h"

static uint64_t g_seed = 0xbadbac;
static int32_t rnd(int32_t n) { return n > 0 ? (int32_t)(ta__rng_next(&g_seed) % (uint64_t)n) : 0; }

typedef struct {
    ta_graph g;
    void *mem;
    int32_t x, y;
    size_t xs, ys, es, first;
    int32_t pads[8];
    int64_t value;
} one_op;

static void build(one_op *b) {
    memset(b, 0, sizeof *b);
    one_op_begin(&b->g, &b->mem);
    static const ta_dtype dts[4] = {TA_DTYPE_INT8, TA_DTYPE_INT16, TA_DTYPE_FLOAT32, TA_DTYPE_INT64};
    const ta_dtype dt = dts[rnd(4)];
    b->es = ta_dtype_size(dt);
    const int32_t r = 1 + rnd(4);
    int32_t sx[4], sy[4];
    size_t first = 0;
    for (int32_t a = 0; a < r; a++) {
        sx[a] = 1 + rnd(5);
        b->pads[2 * a] = rnd(4);
        b->pads[2 * a + 1] = rnd(4);
        sy[a] = sx[a] + b->pads[2 * a] + b->pads[2 * a + 1];
        first = first * (size_t)sy[a] + (size_t)b->pads[2 * a];
    }
    b->first = first * b->es;
    b->x = one_op_tensor(&b->g, dt, r, sx, 0, NULL, 0);
    const int32_t ps[2] = {r, 2};
    const bool v2 = rnd(3) == 0;
    b->value = (int64_t)rnd(1000) - 500;
    int32_t in[3] = {b->x, one_op_tensor(&b->g, TA_DTYPE_INT32, 2, ps, TA_TENSOR_CONST, b->pads, 8 * (size_t)r), -1};
    if (v2) {
        const int32_t one[1] = {1};
        in[2] = one_op_tensor(&b->g, dt, 1, one, TA_TENSOR_CONST, &b->value, b->es);
    }
    b->y = one_op_tensor(&b->g, dt, r, sy, 0, NULL, 0);
    ta_op_options o = ta_op_options_default();
    ta_op_desc od = {.kind = v2 ? TA_OP_PADV2 : TA_OP_PAD, .inputs = in, .n_inputs = v2 ? 3u : 2u, .outputs = &b->y,
                     .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &od, NULL) == TA_OK);
    CHECK(ta_graph_set_io(&b->g, &b->x, 1, &b->y, 1) == TA_OK);
    b->xs = b->g.tensors[b->x].bytes;
    b->ys = b->g.tensors[b->y].bytes;
}

/* The relation pass 3 declares on this one-op graph (with INPUTS: x is the
 * graph input; without, none). */
static bool declared(const one_op *b, ta_overlap *rel) {
    static const ta_op_kind kinds[2] = {TA_OP_PAD, TA_OP_PADV2};
    return one_op_declared(&b->g, b->x, b->y, b->xs, b->ys, kinds, 2, ONE_OP_NO_INPUTS, rel);
}

static void test_random(void) {
    int cases = 0, mismatches = 0, higher = 0, caught = 0, corrupted = 0, placements = 0;
    for (int iter = 0; iter < 3000; iter++) {
        one_op b;
        build(&b);
        cases++;
        ta_overlap rel;
        const bool has = declared(&b, &rel);
        CHECK(has);
        if (!has) {
            free(b.mem);
            continue;
        }
        CHECK(rel.kind == TA_OVERLAP_ABOVE && rel.d == -(int64_t)b.first);
        unsigned char *x0 = malloc(b.xs), *yref = malloc(b.ys);
        for (size_t i = 0; i < b.xs; i++) x0[i] = (unsigned char)rnd(256);
        CHECK(one_op_run(&b.g, b.x, b.y, x0, yref, true) == TA_OK);
        /* one buffer: Y at its start, X as high as the relation allows
         * (X at Y + first: Y starts `first` bytes below X), then lower */
        const size_t cap = b.ys + b.xs + b.es;
        unsigned char *buf = malloc(cap);
        for (int k = 0; k < 4; k++) {
            const size_t xat = k == 0 ? b.first : (size_t)rnd((int32_t)b.first + 1);
            const size_t yat = k == 3 ? (size_t)rnd((int32_t)b.xs + 1) + xat : 0; /* k 3: Y above X */
            if (yat + b.ys > cap) continue;
            memset(buf, 0xee, cap);
            memcpy(buf + xat, x0, b.xs);
            const ta_status st = one_op_run(&b.g, b.x, b.y, buf + xat, buf + yat, true);
            CHECK(st == TA_OK);
            placements++;
            if (st || memcmp(buf + yat, yref, b.ys) != 0) {
                if (mismatches++ < 3) fprintf(stderr, "iter %d: output over the input differs (X at %zu, Y at %zu)\n", iter, xat, yat);
            }
        }
        /* one element higher: refused before any write while it overlaps */
        const size_t xat = b.first + b.es;
        if (xat < b.ys) {
            memset(buf, 0xee, cap);
            memcpy(buf + xat, x0, b.xs);
            const ta_status st = one_op_run(&b.g, b.x, b.y, buf + xat, buf, true);
            CHECK(st == TA_E_OVERLAP);
            caught += st == TA_E_OVERLAP;
            higher++;
            /* unchecked there, the backward kernel overwrites an input
             * element before it reads it whenever the element after the
             * first copied one is an output element */
            memset(buf, 0xee, cap);
            memcpy(buf + xat, x0, b.xs);
            CHECK(one_op_run(&b.g, b.x, b.y, buf + xat, buf, false) == TA_OK);
            corrupted += memcmp(buf, yref, b.ys) != 0;
        }
        free(buf);
        free(x0);
        free(yref);
        free(b.mem);
    }
    CHECK(mismatches == 0);
    CHECK(caught == higher && higher > cases / 2 && corrupted > higher / 4);
    printf("  random pads: %d cases, %d placements exact, %d one element higher caught, %d of those corrupt unchecked\n",
           cases, placements - mismatches, caught, corrupted);
}

static void test_walk_api(void) {
    ta_overlap rel;
    CHECK(ta_walk_pad_backward(10, 20, 4, &rel, NULL) == TA_OK && rel.kind == TA_OVERLAP_ABOVE && rel.d == -4);
    CHECK(ta_walk_pad_backward(10, 20, 11, &rel, NULL) == TA_E_INVALID_ARG);
    CHECK(ta_walk_pad_backward(10, 20, 0, NULL, NULL) == TA_E_INVALID_ARG);
    /* ta_kernel_pad_first: 2x3 padded by (1, 0) rows and (2, 1) columns: row 1, column 2 of a 6-wide output */
    ta_pad_params p = {.rank = 2, .in_shape = {2, 3}, .before = {1, 2}, .after = {0, 1}, .elem_size = 2};
    CHECK(ta_kernel_pad_first(&p) == (6 + 2) * 2);
    p.in_shape[0] = 0;
    CHECK(ta_kernel_pad_first(&p) == SIZE_MAX);
}

int main(void) {
    test_walk_api();
    test_random();
    return ta_test_finish("test_pad_overlap");
}
