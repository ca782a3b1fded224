/* The OVERLAP rewrite's concatenation relation (walk.h ta_walk_concat)
 * through the real prepare and kernel: random CONCATENATION ops (rank 1-4,
 * any axis, negative axes, 1 to 4 inputs of random extents along it, 1-,
 * 2- and 4-byte elements).  ta_rewrite_overlaps_for declares one relation,
 * for the largest input; the op then runs with its output placed exactly
 * where the relation lets it start (Y ending d bytes below that input's
 * end, in one buffer with it) under poison mode's walk check and must give
 * the bytes of a run on disjoint buffers; with Y one element higher (d
 * minus one element: the input's first block of the last step is written
 * over before its read whenever a write precedes that read) the walk check
 * must refuse the op (TA_E_OVERLAP) before it writes, and so must it with
 * a second input inside the output (more than one step). */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/ops.h"
#include "testutil.h"
#include "tinyarena/kernels.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/ops.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/walk.h"

static uint64_t g_seed = 0xc0ca7;
static int32_t rnd(int32_t n) { return n > 0 ? (int32_t)(ta__rng_next(&g_seed) % (uint64_t)n) : 0; }

#define MAX_IN 4

typedef struct {
    ta_graph g;
    void *mem;
    int32_t n_in, x[MAX_IN], y;
    size_t xs[MAX_IN], ys, es, outer;
} one_op;

static int32_t add_t(one_op *b, ta_dtype dt, int32_t rank, const int32_t *shape) {
    ta_tensor_desc d = {.name = "t", .dtype = dt, .rank = rank, .shape = shape};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

static void build(one_op *b) {
    memset(b, 0, sizeof *b);
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 8, .ops = 2, .indices = 16, .dims = 32};
    const size_t need = ta_graph_bytes(&lim);
    b->mem = malloc(need);
    CHECK(ta_graph_init(&b->g, &lim, b->mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(&b->g, "main", NULL) == TA_OK);
    static const ta_dtype dts[3] = {TA_DTYPE_INT8, TA_DTYPE_INT16, TA_DTYPE_FLOAT32};
    const ta_dtype dt = dts[rnd(3)];
    b->es = ta_dtype_size(dt);
    const int32_t r = 1 + rnd(4), axis = rnd(r);
    int32_t shape[4], total = 0;
    for (int32_t a = 0; a < r; a++) shape[a] = 1 + rnd(6);
    b->n_in = 1 + rnd(MAX_IN);
    for (int32_t i = 0; i < b->n_in; i++) {
        int32_t s[4];
        memcpy(s, shape, sizeof s);
        s[axis] = 1 + rnd(5);
        total += s[axis];
        b->x[i] = add_t(b, dt, r, s);
        b->xs[i] = b->g.tensors[b->x[i]].bytes;
    }
    shape[axis] = total;
    b->outer = 1;
    for (int32_t a = 0; a < axis; a++) b->outer *= (size_t)shape[a];
    b->y = add_t(b, dt, r, shape);
    ta_op_options o = ta_op_options_default();
    o.axis = rnd(2) ? axis : axis - r; /* negative: from the end */
    ta_op_desc od = {.kind = TA_OP_CONCATENATION, .inputs = b->x, .n_inputs = (uint32_t)b->n_in, .outputs = &b->y,
                     .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &od, NULL) == TA_OK);
    CHECK(ta_graph_set_io(&b->g, b->x, (uint32_t)b->n_in, &b->y, 1) == TA_OK);
    b->ys = b->g.tensors[b->y].bytes;
}

/* The relation pass 3 declares on this one-op graph (with INPUTS: the
 * inputs are graph inputs), moved back to the tensors' bytes; *xi: the
 * input it is for. */
static bool declared(const one_op *b, ta_overlap *rel, int32_t *xi) {
    ta_diag d;
    const size_t lb = ta_lifetime_bytes(&b->g, 0);
    void *lm = malloc(lb);
    ta_lifetimes lt;
    CHECK(ta_lifetime_analyze(&b->g, NULL, 0, lm, lb, &lt, &d) == TA_OK);
    ta_request reqs[8];
    ta_buffer_origin org[8];
    size_t n = 0;
    CHECK(ta_lifetime_requests(&b->g, &lt, NULL, reqs, org, 8, &n, &d) == TA_OK);
    ta_op_kind_set walks;
    ta_op_list_overlap_kinds(&ta_op_list_all, &walks);
    CHECK(ta_op_kind_set_has(&walks, TA_OP_CONCATENATION));
    const size_t wb = ta_rewrite_overlaps_bytes(&b->g);
    void *wm = malloc(wb);
    size_t n_ov = 0;
    CHECK(ta_rewrite_overlaps_for(&b->g, &lt, TA_REWRITE_ALL, NULL, NULL, &walks, reqs, org, n, wm, wb, rel, 1, &n_ov,
                                  NULL, &d) == TA_OK);
    /* without INPUTS, nothing over a graph input */
    size_t n_kept = 0;
    ta_overlap tmp;
    CHECK(ta_rewrite_overlaps_for(&b->g, &lt, TA_REWRITE_ALL & ~TA_REWRITE_INPUTS, NULL, NULL, &walks, reqs, org, n, wm,
                                  wb, &tmp, 1, &n_kept, NULL, &d) == TA_OK);
    CHECK(n_kept == 0);
    *xi = -1;
    if (n_ov) {
        for (int32_t i = 0; i < b->n_in; i++)
            if (org[rel->x].index == (uint32_t)b->x[i]) *xi = i;
        CHECK(*xi >= 0 && org[rel->y].index == (uint32_t)b->y);
        if (*xi < 0) n_ov = 0;
    }
    if (n_ov) {
        const ta_request *rx = &reqs[rel->x], *ry = &reqs[rel->y];
        rel->d -= (int64_t)(ta_request_padded(rx) - b->xs[*xi]) - (int64_t)(ta_request_padded(ry) - b->ys);
    }
    free(wm);
    free(lm);
    return n_ov == 1;
}

/* Runs the op with input i's data at xp[i] and the output at yp, the walk
 * check on. */
static ta_status run(const one_op *b, void *const *xp, void *yp) {
    void *ptrs[8] = {0};
    for (int32_t i = 0; i < b->n_in; i++) ptrs[b->x[i]] = xp[i];
    ptrs[b->y] = yp;
    ta__op_info info;
    ta_diag d;
    if (ta__op_prepare(&b->g, 0, 0, NULL, 0, &info, &d)) return TA_E_MALFORMED;
    void *rec = aligned_alloc(8, (info.data_bytes + 7) & ~(size_t)7);
    ta_status st = ta__op_prepare(&b->g, 0, 0, rec, info.data_bytes, &info, &d);
    if (!st) st = ta__op_invoke_checked(&ta_op_list_all, rec, ptrs, NULL, NULL, true, &d);
    free(rec);
    return st;
}

static void test_random(void) {
    int cases = 0, exact = 0, caught = 0, higher = 0, two = 0, mismatches = 0, multi = 0;
    for (int iter = 0; iter < 3000; iter++) {
        one_op b;
        build(&b);
        cases++;
        ta_overlap rel;
        int32_t xi;
        CHECK(declared(&b, &rel, &xi));
        if (xi < 0) {
            free(b.mem);
            continue;
        }
        /* the largest input (the first of equals) */
        for (int32_t i = 0; i < b.n_in; i++) CHECK(b.xs[i] < b.xs[xi] || (b.xs[i] == b.xs[xi] && i >= xi));
        size_t after = 0; /* per step: every input has the output's steps */
        for (int32_t i = xi + 1; i < b.n_in; i++) after += b.xs[i] / b.outer;
        CHECK(rel.kind == TA_OVERLAP_BELOW && rel.d == -(int64_t)after);
        multi += b.n_in > 1;
        /* the reference: disjoint buffers */
        unsigned char *x0[MAX_IN], *yref = malloc(b.ys);
        void *xp[MAX_IN];
        for (int32_t i = 0; i < b.n_in; i++) {
            x0[i] = malloc(b.xs[i]);
            for (size_t k = 0; k < b.xs[i]; k++) x0[i][k] = (unsigned char)rnd(256);
            xp[i] = x0[i];
        }
        CHECK(run(&b, xp, yref) == TA_OK);
        /* one buffer: X at ys + es, Y ending d below X's end */
        const size_t xoff = b.ys + b.es, total = xoff + b.xs[xi] + after + b.es;
        const size_t ystart = xoff + b.xs[xi] - (size_t)rel.d - b.ys;
        unsigned char *buf = malloc(total);
        memcpy(buf + xoff, x0[xi], b.xs[xi]);
        xp[xi] = buf + xoff;
        CHECK(run(&b, xp, buf + ystart) == TA_OK);
        if (memcmp(buf + ystart, yref, b.ys) != 0) {
            fprintf(stderr, "iter %d: output over its input differs (d %lld)\n", iter, (long long)rel.d);
            mismatches++;
        } else {
            exact++;
        }
        /* one element higher: refused before writing (when that still
         * overlaps the input) */
        memcpy(buf + xoff, x0[xi], b.xs[xi]);
        if (ystart + b.es < xoff + b.xs[xi]) {
            const ta_status st = run(&b, xp, buf + ystart + b.es);
            CHECK(st == TA_E_OVERLAP);
            caught += st == TA_E_OVERLAP;
            higher++;
        }
        /* a second input inside the output as well (over the first: only
         * the check is run, it refuses before any write); with one step
         * the first is in its slot (the CONCAT rewrite's placement) */
        if (b.n_in > 1 && b.outer > 1) {
            void *xq[MAX_IN];
            memcpy(xq, xp, sizeof xq);
            xq[xi == 0 ? 1 : 0] = buf + xoff;
            const ta_status s2 = run(&b, xq, buf + ystart);
            CHECK(s2 == TA_E_OVERLAP);
            two += s2 == TA_E_OVERLAP;
        }
        free(buf);
        for (int32_t i = 0; i < b.n_in; i++) free(x0[i]);
        free(yref);
        free(b.mem);
    }
    CHECK(mismatches == 0);
    CHECK(exact > 2000 && caught == higher && higher > 2000 && multi > 1500 && two > 500);
    printf("  random concatenations: %d cases, %d exact with the output over the largest input (%d of several), %d one "
           "element higher caught, %d with two inputs over the output caught\n",
           cases, exact, multi, caught, two);
}

/* The walk's figures: yolov8n_192's neck concat and the refusals. */
static void test_walk_figures(void) {
    ta_overlap r;
    CHECK(ta_walk_concat(24 * 24, 0, 128, 64, &r, NULL) == TA_OK && r.kind == TA_OVERLAP_BELOW && r.d == -64);
    CHECK(ta_walk_concat(24 * 24, 64, 128, 0, &r, NULL) == TA_OK && r.d == 0);
    CHECK(ta_walk_concat(1, 0, 5, 0, &r, NULL) == TA_OK && r.d == 0);
    CHECK(ta_walk_concat(4, 1, 0, 1, &r, NULL) == TA_E_INVALID_ARG);
    CHECK(ta_walk_concat(0, 1, 1, 1, &r, NULL) == TA_E_INVALID_ARG);
    CHECK(ta_walk_concat((uint64_t)1 << 40, 1, 1, 1, &r, NULL) == TA_E_INVALID_ARG);
    CHECK(ta_walk_concat(1, 0, 1, 0, NULL, NULL) == TA_E_INVALID_ARG);
}

int main(void) {
    test_walk_figures();
    test_random();
    return ta_test_finish("test_concat_overlap");
}
