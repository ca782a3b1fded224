/* The OVERLAP rewrite's forward-gather relation (walk.h ta_walk_gather)
 * through the real prepare and kernel: random STRIDED_SLICE ops (rank 1-4,
 * positive strides 1-3, negative and masked begins and ends, shrink axes,
 * 1-, 2- and 4-byte elements).  ta_rewrite_overlaps_for declares the
 * relation; the op then runs with its output placed exactly where the
 * relation lets it start (Y ending d bytes below X's end, in one buffer)
 * under poison mode's walk check and must give the bytes of a run on
 * disjoint buffers; with Y one element further up (d minus one element)
 * the walk check must refuse the op (TA_E_OVERLAP) before it writes.
 * Negative strides and empty outputs get no relation. */
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

static uint64_t g_seed = 0x511ce0;
static int32_t rnd(int32_t n) { return n > 0 ? (int32_t)(ta__rng_next(&g_seed) % (uint64_t)n) : 0; }

typedef struct {
    ta_graph g;
    void *mem;
    int32_t x, y;
    size_t xs, ys, es;
    int32_t bv[4], ev[4], sv[4];
} one_op;

/* A random slice; false when its output is empty or prepare refuses it. */
static bool build(one_op *b, bool negative) {
    memset(b, 0, sizeof *b);
    one_op_begin(&b->g, &b->mem);
    static const ta_dtype dts[3] = {TA_DTYPE_INT8, TA_DTYPE_INT16, TA_DTYPE_FLOAT32};
    const ta_dtype dt = dts[rnd(3)];
    b->es = ta_dtype_size(dt);
    const int32_t r = 1 + rnd(4);
    int32_t sx[4];
    ta_op_options o = ta_op_options_default();
    for (int32_t a = 0; a < r; a++) {
        sx[a] = 1 + rnd(9);
        b->bv[a] = rnd(sx[a] + 2) - 1 - (rnd(4) == 0 ? sx[a] : 0); /* some negative: from the end */
        b->ev[a] = rnd(sx[a] + 3) - (rnd(4) == 0 ? sx[a] : 0);
        b->sv[a] = negative && a == r - 1 ? -1 - rnd(2) : 1 + rnd(3);
        if (rnd(5) == 0) o.begin_mask |= 1 << a;
        if (rnd(5) == 0) o.end_mask |= 1 << a;
        if (rnd(7) == 0) o.shrink_axis_mask |= 1 << a;
    }
    /* the output shape through the kernel's own resolution */
    ta_slice_params p;
    if (ta_strided_slice_resolve(&p, sx, r, b->bv, b->ev, b->sv, o.begin_mask, o.end_mask, o.shrink_axis_mask, false,
                                 b->es))
        return false;
    int32_t sy[4], ry = 0;
    size_t n = 1;
    for (int32_t a = 0; a < r; a++) {
        const int64_t st = p.start[a], sp = p.stop[a], sd = p.stride[a];
        const int64_t len = sd > 0 ? (sp - st + sd - 1) / sd : (st - sp - sd - 1) / -sd;
        const int32_t l = len > 0 ? (int32_t)len : 0;
        n *= (size_t)l;
        if (!(o.shrink_axis_mask & (1 << a))) sy[ry++] = l;
    }
    if (!n) return false;
    if (!ry) sy[ry++] = 1;
    b->x = one_op_tensor(&b->g, dt, r, sx, 0, NULL, 0);
    const int32_t rs[1] = {r};
    int32_t in[4] = {b->x, one_op_tensor(&b->g, TA_DTYPE_INT32, 1, rs, TA_TENSOR_CONST, b->bv, 4 * (size_t)r),
                     one_op_tensor(&b->g, TA_DTYPE_INT32, 1, rs, TA_TENSOR_CONST, b->ev, 4 * (size_t)r),
                     one_op_tensor(&b->g, TA_DTYPE_INT32, 1, rs, TA_TENSOR_CONST, b->sv, 4 * (size_t)r)};
    b->y = one_op_tensor(&b->g, dt, ry, sy, 0, NULL, 0);
    ta_op_desc od = {.kind = TA_OP_STRIDED_SLICE, .inputs = in, .n_inputs = 4, .outputs = &b->y, .n_outputs = 1,
                     .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &od, NULL) == TA_OK);
    CHECK(ta_graph_set_io(&b->g, &b->x, 1, &b->y, 1) == TA_OK);
    b->xs = b->g.tensors[b->x].bytes;
    b->ys = b->g.tensors[b->y].bytes;
    return b->ys == n * b->es;
}

/* The relation pass 3 declares on this one-op graph (with INPUTS: x is
 * the graph input; without, none), moved back to the tensors' bytes. */
static bool declared(const one_op *b, ta_overlap *rel) {
    static const ta_op_kind kinds[1] = {TA_OP_STRIDED_SLICE};
    return one_op_declared(&b->g, b->x, b->y, b->xs, b->ys, kinds, 1, ONE_OP_NO_INPUTS | ONE_OP_TENSOR_BYTES, rel);
}

static void test_random(void) {
    int cases = 0, related = 0, caught = 0, higher = 0, mismatches = 0, neg = 0;
    for (int iter = 0; iter < 3000; iter++) {
        const bool negative = iter % 8 == 7;
        one_op b;
        if (!build(&b, negative)) {
            free(b.mem);
            continue;
        }
        cases++;
        ta_overlap rel;
        const bool has = declared(&b, &rel);
        if (negative) {
            CHECK(!has); /* a backward walk: no forward-gather relation */
            neg++;
            free(b.mem);
            continue;
        }
        CHECK(has);
        if (!has) {
            free(b.mem);
            continue;
        }
        related++;
        CHECK(rel.kind == TA_OVERLAP_BELOW && rel.d >= 0 && rel.d <= (int64_t)(b.xs - b.ys));
        /* the reference: disjoint buffers */
        unsigned char *x0 = malloc(b.xs), *yref = malloc(b.ys);
        for (size_t i = 0; i < b.xs; i++) x0[i] = (unsigned char)rnd(256);
        CHECK(one_op_run(&b.g, b.x, b.y, x0, yref, true) == TA_OK);
        /* one buffer of X's size: X at 0, Y ending d below X's end */
        const size_t ystart = b.xs - (size_t)rel.d - b.ys;
        unsigned char *buf = malloc(b.xs + b.es);
        memcpy(buf, x0, b.xs);
        CHECK(one_op_run(&b.g, b.x, b.y, buf, buf + ystart, true) == TA_OK);
        if (memcmp(buf + ystart, yref, b.ys) != 0) {
            fprintf(stderr, "iter %d: output over the input differs (d %lld)\n", iter, (long long)rel.d);
            mismatches++;
        }
        /* one element higher: the check refuses before writing (when that
         * still overlaps the input: y's end inside the buffer) */
        memcpy(buf, x0, b.xs);
        if (ystart + b.es < b.xs) {
            const ta_status st = one_op_run(&b.g, b.x, b.y, buf, buf + ystart + b.es, true);
            CHECK(st == TA_E_OVERLAP);
            caught += st == TA_E_OVERLAP;
            higher++;
        }
        free(buf);
        free(x0);
        free(yref);
        free(b.mem);
    }
    CHECK(mismatches == 0);
    CHECK(related > 1000 && caught == higher && higher > related / 2 && neg > 50);
    printf("  random slices: %d cases, %d relations, %d exact, %d one element higher caught, %d backward with none\n",
           cases, related, related - mismatches, caught, neg);
}

int main(void) {
    test_random();
    return ta_test_finish("test_slice_overlap");
}
