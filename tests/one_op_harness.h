/* The one-op harness of the OVERLAP tests (test_overlap_run.c,
 * test_pad_overlap.c, test_slice_overlap.c): a graph holding one op, input
 * 0 (x) -> output 0 (y); the relation the OVERLAP rewrite declares on it;
 * and a run of the op through the real prepare and kernel with x and y at
 * any addresses, so a test can place them in one buffer as the relation
 * allows.  Header-only: static functions, each test keeps its own random
 * stream and checks. */
#ifndef TA_TEST_ONE_OP_HARNESS_H
#define TA_TEST_ONE_OP_HARNESS_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ops.h"
#include "testutil.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/ops.h"
#include "tinyarena/rewrite.h"

/* An empty graph with room for one op and its tensors (*mem: free it). */
static inline void one_op_begin(ta_graph *g, void **mem) {
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 8, .ops = 2, .indices = 16, .dims = 32};
    const size_t need = ta_graph_bytes(&lim);
    *mem = malloc(need);
    CHECK(ta_graph_init(g, &lim, *mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(g, "main", NULL) == TA_OK);
}

/* Adds a tensor named "t" (quantised with q); its index. */
static inline int32_t one_op_tensor_q(ta_graph *g, ta_dtype dt, int32_t rank, const int32_t *shape, uint32_t flags,
                                      const void *data, size_t bytes, ta_quant q) {
    ta_tensor_desc d = {.name = "t", .dtype = dt, .rank = rank, .shape = shape, .flags = flags, .data = data,
                        .data_bytes = bytes, .quant = q};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(g, &d, &id) == TA_OK);
    return id;
}

static inline int32_t one_op_tensor(ta_graph *g, ta_dtype dt, int32_t rank, const int32_t *shape, uint32_t flags,
                                    const void *data, size_t bytes) {
    return one_op_tensor_q(g, dt, rank, shape, flags, data, bytes, (ta_quant){0});
}

/* What one_op_declared checks besides the relation itself. */
enum {
    ONE_OP_TENSOR_BYTES = 1, /* move d from the requests back to the tensors' bytes (both start their request) */
    ONE_OP_NO_INPUTS = 2,    /* without TA_REWRITE_INPUTS nothing is declared over the graph input x */
    ONE_OP_STATS = 4,        /* the rewrite's stats count the relations it declared */
};

/* The relation pass 3 (ta_rewrite_overlaps_for, every rewrite: x is the
 * graph input) declares on the one-op graph g, lifetime rules as the
 * runtime's; false when it declares none.  The runtime's op table must
 * list each of kinds[0 .. n_kinds) as a walking kind; a relation found is
 * between x's and y's requests; flags: ONE_OP_*.  xs, ys: the tensors'
 * bytes. */
static inline bool one_op_declared(const ta_graph *g, int32_t x, int32_t y, size_t xs, size_t ys,
                                   const ta_op_kind *kinds, size_t n_kinds, unsigned flags, ta_overlap *rel) {
    ta_diag d;
    const size_t lb = ta_lifetime_bytes(g, 0);
    void *lm = malloc(lb);
    ta_lifetimes lt;
    CHECK(ta_lifetime_analyze(g, NULL, 0, lm, lb, &lt, &d) == TA_OK);
    ta_request reqs[8];
    ta_buffer_origin org[8];
    size_t n = 0;
    CHECK(ta_lifetime_requests(g, &lt, NULL, reqs, org, 8, &n, &d) == TA_OK);
    ta_op_kind_set walks;
    ta_op_list_overlap_kinds(&ta_op_list_all, &walks);
    if (n_kinds) {
        bool all = true;
        for (size_t k = 0; k < n_kinds; k++) all = all && ta_op_kind_set_has(&walks, kinds[k]);
        CHECK(all);
    }
    const size_t wb = ta_rewrite_overlaps_bytes(g);
    void *wm = malloc(wb);
    size_t n_ov = 0;
    ta_rewrite_stats st;
    memset(&st, 0, sizeof st);
    CHECK(ta_rewrite_overlaps_for(g, &lt, TA_REWRITE_ALL, NULL, NULL, &walks, reqs, org, n, wm, wb, rel, 1, &n_ov,
                                  (flags & ONE_OP_STATS) ? &st : NULL, &d) == TA_OK);
    if (flags & ONE_OP_STATS) CHECK(st.overlapped == n_ov);
    if (flags & ONE_OP_NO_INPUTS) {
        size_t n_kept = 0;
        ta_overlap tmp;
        CHECK(ta_rewrite_overlaps_for(g, &lt, TA_REWRITE_ALL & ~TA_REWRITE_INPUTS, NULL, NULL, &walks, reqs, org, n, wm,
                                      wb, &tmp, 1, &n_kept, NULL, &d) == TA_OK);
        CHECK(n_kept == 0);
    }
    if (n_ov) {
        CHECK(org[rel->x].index == (uint32_t)x && org[rel->y].index == (uint32_t)y);
        const ta_request *rx = &reqs[rel->x], *ry = &reqs[rel->y];
        if (flags & ONE_OP_TENSOR_BYTES)
            rel->d -= (int64_t)(ta_request_padded(rx) - xs) - (int64_t)(ta_request_padded(ry) - ys);
    }
    free(wm);
    free(lm);
    return n_ov == 1;
}

/* Runs op 0 of g with x's data at xp and the output at yp (constants in
 * place), poison mode's walk check on or off; the status (TA_E_MALFORMED,
 * printed, when prepare refuses the op). */
static inline ta_status one_op_run(const ta_graph *g, int32_t x, int32_t y, void *xp, void *yp, bool check) {
    void *ptrs[8] = {0};
    for (uint32_t t = 0; t < g->subgraphs[0].n_tensors && t < 8; t++) {
        const ta_tensor *tt = ta_graph_tensor(g, 0, (int32_t)t);
        ptrs[t] = (tt->flags & TA_TENSOR_CONST) ? (void *)tt->data : NULL;
    }
    ptrs[x] = xp;
    ptrs[y] = yp;
    ta__op_info info;
    ta_diag d;
    if (ta__op_prepare(g, 0, 0, NULL, 0, &info, &d)) {
        fprintf(stderr, "prepare: %s\n", d.msg);
        return TA_E_MALFORMED;
    }
    void *rec = aligned_alloc(8, (info.data_bytes + 7) & ~(size_t)7);
    ta_status st = ta__op_prepare(g, 0, 0, rec, info.data_bytes, &info, &d);
    if (!st) st = ta__op_invoke_checked(&ta_op_list_all, rec, ptrs, NULL, NULL, check, &d);
    free(rec);
    return st;
}
#endif
