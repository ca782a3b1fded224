/* CONCATENATION in place and STRIDED_SLICE views (the CONCAT and SLICE
 * rewrites, rewrite.h): tensors as views,
 * "a group's buffer + a byte offset".  Small graphs where inputs must join
 * their slices (axis outermost: contiguous) and where they must not (a
 * channel axis in NHWC, a graph input, a slice off the 16-byte grid, the
 * same tensor twice); the groups' offsets, the planner's request (the
 * union), nested concatenations, an in-place op over a slice keeping its
 * offset; the kernel skipping an input already in place and copying the
 * others; slices that are one contiguous range of their input (negative
 * begins, shrink masks) and slices that are not; the kernel's own view test
 * (ta_strided_slice_view) against the rewrite's offsets; and a byte-level
 * execution of random concatenation and slice graphs from one planned arena
 * against private buffers. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "testutil.h"
#include "tinyarena/kernels.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/ops.h"
#include "tinyarena/plan.h"
#include "tinyarena/rewrite.h"

#define MAXT 160 /* tensors (and ops) of a test graph */

typedef struct {
    ta_graph g;
    void *mem;
} gbox;

static void g_begin(gbox *b) {
    ta_graph_limits lim = {.subgraphs = 1, .tensors = MAXT, .ops = MAXT, .indices = 4 * MAXT, .dims = 4 * MAXT};
    size_t need = ta_graph_bytes(&lim);
    b->mem = malloc(need);
    CHECK(ta_graph_init(&b->g, &lim, b->mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(&b->g, "main", NULL) == TA_OK);
}

static const float k_scale = 0.05f;
static const int64_t k_zp = -3;

static int32_t t8(gbox *b, int32_t h, int32_t w, int32_t c) {
    const int32_t shape[4] = {1, h, w, c};
    ta_tensor_desc d = {.name = "t", .dtype = TA_DTYPE_INT8, .rank = 4, .shape = shape};
    d.quant = (ta_quant){1, &k_scale, &k_zp, 0};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

static void op(gbox *b, ta_op_kind k, const int32_t *in, uint32_t n, int32_t out, int32_t axis) {
    ta_op_options o = ta_op_options_default();
    o.axis = axis;
    ta_op_desc d = {.kind = k, .inputs = in, .n_inputs = n, .outputs = &out, .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &d, NULL) == TA_OK);
}
static void op1(gbox *b, ta_op_kind k, int32_t in, int32_t out) { op(b, k, &in, 1, out, 0); }

/* a constant int32 vector (begin, end, strides); data lives in `keep` */
static int32_t c32(gbox *b, const int32_t *v, int32_t n, int32_t *keep) {
    memcpy(keep, v, sizeof(int32_t) * (size_t)n);
    ta_tensor_desc d = {.name = "c", .dtype = TA_DTYPE_INT32, .rank = 1, .shape = &n, .flags = TA_TENSOR_CONST,
                        .data = keep, .data_bytes = sizeof(int32_t) * (size_t)n};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

/* STRIDED_SLICE x[begin:end] (strides 1) -> y, with masks */
static int32_t g_consts[MAXT][12];
static int g_nconst;
static void slice_op(gbox *b, int32_t x, int32_t y, const int32_t *beg, const int32_t *end, int32_t rank,
                     int32_t shrink) {
    const int32_t ones[5] = {1, 1, 1, 1, 1};
    int32_t in[4] = {x, c32(b, beg, rank, g_consts[g_nconst++]), c32(b, end, rank, g_consts[g_nconst++]),
                     c32(b, ones, rank, g_consts[g_nconst++])};
    ta_op_options o = ta_op_options_default();
    o.shrink_axis_mask = shrink;
    ta_op_desc d = {.kind = TA_OP_STRIDED_SLICE, .inputs = in, .n_inputs = 4, .outputs = &y, .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &d, NULL) == TA_OK);
}

typedef struct {
    int32_t buffer_of[MAXT];
    size_t at[MAXT];
    ta_request reqs[MAXT];
    ta_buffer_origin org[MAXT];
    size_t n;
    ta_rewrite_stats st;
    ta_lifetimes lt;
    void *ltmem;
} piped;

static void pipe_run(const ta_graph *g, uint32_t flags, piped *p) {
    memset(p, 0, sizeof *p);
    ta_diag d;
    size_t need = ta_lifetime_bytes(g, 0);
    p->ltmem = malloc(need);
    CHECK(ta_lifetime_analyze(g, NULL, 0, p->ltmem, need, &p->lt, &d) == TA_OK);
    ta_op_kind_set ip;
    ta_op_list_inplace_kinds(&ta_op_list_all, &ip);
    need = ta_rewrite_buffers_bytes(g);
    void *bm = malloc(need);
    CHECK(ta_rewrite_buffers_at(g, &p->lt, flags, &ip, bm, need, p->buffer_of, p->at, &p->st, &d) == TA_OK);
    free(bm);
    ta_lifetime_options lo = {.buffer_of = p->buffer_of, .n_buffer_of = g->n_tensors, .buffer_at = p->at};
    CHECK(ta_lifetime_requests(g, &p->lt, &lo, p->reqs, p->org, MAXT, &p->n, &d) == TA_OK);
}

/* the request covering tensor t's group */
static const ta_request *req_of(const piped *p, int32_t t) {
    for (size_t i = 0; i < p->n; i++)
        if (p->org[i].kind == TA_BUFFER_TENSOR && (int32_t)p->org[i].index == p->buffer_of[t]) return &p->reqs[i];
    return NULL;
}

static void test_graphs(void) {
    /* in -> LOGISTIC -> a [1,2,4,4]; in -> TANH -> b [1,2,4,4]; concat on H
     * (axis 1, outermost non-1) -> y [1,4,4,4] -> LOGISTIC -> out */
    gbox b;
    g_begin(&b);
    int32_t in = t8(&b, 2, 4, 4), a = t8(&b, 2, 4, 4), c = t8(&b, 2, 4, 4), y = t8(&b, 4, 4, 4), out = t8(&b, 4, 4, 4);
    op1(&b, TA_OP_LOGISTIC, in, a);
    op1(&b, TA_OP_TANH, in, c);
    const int32_t ac[2] = {a, c};
    op(&b, TA_OP_CONCATENATION, ac, 2, y, 1);
    op1(&b, TA_OP_LOGISTIC, y, out);
    CHECK(ta_graph_set_io(&b.g, &in, 1, &out, 1) == TA_OK);
    piped p;
    pipe_run(&b.g, 0, &p);
    CHECK(p.buffer_of[a] == a && p.buffer_of[c] == c && p.st.concat_in_place == 0);
    free(p.ltmem);
    pipe_run(&b.g, TA_REWRITE_CONCAT, &p);
    CHECK(p.st.concat_in_place == 2 && p.buffer_of[a] == y && p.buffer_of[c] == y && p.at[a] == 0 && p.at[c] == 32);
    const ta_request *r = req_of(&p, y);
    /* one buffer of y's 64 B, live from a's producer to y's reader */
    CHECK(r && r->size == 64 && r->first == 1 && r->last == 4);
    CHECK_EQ_U(p.n, 3); /* in, the group, out */
    free(p.ltmem);
    free(b.mem);

    /* a channel concatenation (axis 3 of NHWC): every slice is 8 ranges, refused */
    g_begin(&b);
    in = t8(&b, 2, 4, 4), a = t8(&b, 2, 4, 4), c = t8(&b, 2, 4, 4), y = t8(&b, 2, 4, 8);
    op1(&b, TA_OP_LOGISTIC, in, a);
    op1(&b, TA_OP_TANH, in, c);
    const int32_t ac2[2] = {a, c};
    op(&b, TA_OP_CONCATENATION, ac2, 2, y, 3);
    CHECK(ta_graph_set_io(&b.g, &in, 1, &y, 1) == TA_OK);
    pipe_run(&b.g, TA_REWRITE_ALL, &p);
    CHECK(p.st.concat_in_place == 0 && p.buffer_of[a] != y && p.buffer_of[c] != y);
    free(p.ltmem);
    free(b.mem);

    /* a graph input, an input named twice, a slice at byte 3 (off the grid) */
    g_begin(&b);
    in = t8(&b, 1, 1, 3), a = t8(&b, 1, 1, 3), y = t8(&b, 3, 1, 3);
    int32_t y2 = t8(&b, 2, 1, 3);
    op1(&b, TA_OP_LOGISTIC, in, a);
    const int32_t iaa[3] = {in, a, a};
    op(&b, TA_OP_CONCATENATION, iaa, 3, y, 1);
    const int32_t aa[2] = {in, a};
    op(&b, TA_OP_CONCATENATION, aa, 2, y2, 1);
    const int32_t outs[2] = {y, y2};
    CHECK(ta_graph_set_io(&b.g, &in, 1, outs, 2) == TA_OK);
    pipe_run(&b.g, TA_REWRITE_ALL, &p);
    CHECK(p.st.concat_in_place == 0 && p.buffer_of[a] == a && p.buffer_of[in] == in);
    free(p.ltmem);
    free(b.mem);

    /* nested: a, c -> y (axis 1); y, e -> z (axis 1): a, c, y at their
     * slices of z; an in-place LOGISTIC over c after both concatenations
     * (c's last reader) lands on c's bytes, not at z's start */
    g_begin(&b);
    in = t8(&b, 2, 4, 4), a = t8(&b, 2, 4, 4), c = t8(&b, 2, 4, 4), y = t8(&b, 4, 4, 4);
    int32_t e = t8(&b, 2, 4, 4), z = t8(&b, 6, 4, 4), z2 = t8(&b, 6, 4, 4), cl = t8(&b, 2, 4, 4);
    op1(&b, TA_OP_LOGISTIC, in, a);
    op1(&b, TA_OP_TANH, in, c);
    op1(&b, TA_OP_TANH, a, e);
    const int32_t ac3[2] = {a, c};
    op(&b, TA_OP_CONCATENATION, ac3, 2, y, 1);
    const int32_t ye[2] = {y, e};
    op(&b, TA_OP_CONCATENATION, ye, 2, z, 1);
    op1(&b, TA_OP_LOGISTIC, z, z2);
    op1(&b, TA_OP_LOGISTIC, c, cl);
    const int32_t outs2[2] = {z2, cl};
    CHECK(ta_graph_set_io(&b.g, &in, 1, outs2, 2) == TA_OK);
    pipe_run(&b.g, TA_REWRITE_ALL, &p);
    CHECK(p.st.concat_in_place == 4);
    CHECK(p.buffer_of[a] == z && p.buffer_of[c] == z && p.buffer_of[y] == z && p.buffer_of[e] == z);
    CHECK(p.at[a] == 0 && p.at[c] == 32 && p.at[y] == 0 && p.at[e] == 64 && p.at[z] == 0);
    /* z2 is written in place over z only if z's group dies there: c is read later */
    CHECK(p.buffer_of[z2] == z2);
    CHECK(p.buffer_of[cl] == z && p.at[cl] == 32);
    r = req_of(&p, z);
    CHECK(r && r->size == 96);
    free(p.ltmem);
    free(b.mem);
    printf("  graphs: outermost-axis slices joined (offsets 0/32, nested 0/32/64), channel axis, graph input, "
           "twice-named and off-grid slices refused\n");
}

static void test_slices(void) {
    /* in -> LOGISTIC -> x [1,4,4,4] -> x[:, 1:3] -> y [1,2,4,4] -> LOGISTIC -> out */
    gbox b;
    g_begin(&b);
    g_nconst = 0;
    int32_t in = t8(&b, 4, 4, 4), x = t8(&b, 4, 4, 4), y = t8(&b, 2, 4, 4), out = t8(&b, 2, 4, 4);
    op1(&b, TA_OP_LOGISTIC, in, x);
    slice_op(&b, x, y, (const int32_t[]){0, 1, 0, 0}, (const int32_t[]){1, 3, 4, 4}, 4, 0);
    op1(&b, TA_OP_LOGISTIC, y, out);
    CHECK(ta_graph_set_io(&b.g, &in, 1, &out, 1) == TA_OK);
    piped p;
    pipe_run(&b.g, TA_REWRITE_SLICE, &p);
    CHECK(p.st.slice_views == 1 && p.buffer_of[y] == x && p.at[y] == 16);
    /* out is written in place over y (with INPLACE) only when x dies there: it does */
    free(p.ltmem);
    pipe_run(&b.g, TA_REWRITE_ALL, &p);
    CHECK(p.st.slice_views == 1 && p.buffer_of[y] == p.buffer_of[x] && p.at[y] == p.at[x] + 16);
    free(p.ltmem);
    free(b.mem);

    /* negative begin, a shrunk axis: x[:, -2] of [1,4,4,4] is [1,4,4] at 2 * 16 B */
    g_begin(&b);
    g_nconst = 0;
    in = t8(&b, 4, 4, 4), x = t8(&b, 4, 4, 4);
    const int32_t s3[3] = {1, 4, 4};
    ta_tensor_desc dy = {.name = "y", .dtype = TA_DTYPE_INT8, .rank = 3, .shape = s3};
    dy.quant = (ta_quant){1, &k_scale, &k_zp, 0};
    CHECK(ta_graph_add_tensor(&b.g, &dy, &y) == TA_OK);
    op1(&b, TA_OP_LOGISTIC, in, x);
    slice_op(&b, x, y, (const int32_t[]){0, -2, 0, 0}, (const int32_t[]){1, 0, 4, 4}, 4, 2);
    CHECK(ta_graph_set_io(&b.g, &in, 1, &y, 1) == TA_OK);
    pipe_run(&b.g, TA_REWRITE_ALL, &p);
    CHECK(p.st.slice_views == 1 && p.buffer_of[y] == p.buffer_of[x] && p.at[y] == p.at[x] + 32);
    free(p.ltmem);
    free(b.mem);

    /* not one range: columns of every row; off the 16-byte grid; a graph input sliced into a graph output */
    g_begin(&b);
    g_nconst = 0;
    in = t8(&b, 4, 4, 4), x = t8(&b, 4, 4, 4), y = t8(&b, 4, 2, 4);
    int32_t y2 = t8(&b, 1, 1, 3), y3 = t8(&b, 2, 4, 4);
    op1(&b, TA_OP_LOGISTIC, in, x);
    slice_op(&b, x, y, (const int32_t[]){0, 0, 1, 0}, (const int32_t[]){1, 4, 3, 4}, 4, 0);
    slice_op(&b, x, y2, (const int32_t[]){0, 0, 0, 1}, (const int32_t[]){1, 1, 1, 4}, 4, 0);
    slice_op(&b, in, y3, (const int32_t[]){0, 2, 0, 0}, (const int32_t[]){1, 4, 4, 4}, 4, 0);
    const int32_t outs[3] = {y, y2, y3};
    CHECK(ta_graph_set_io(&b.g, &in, 1, outs, 3) == TA_OK);
    pipe_run(&b.g, TA_REWRITE_ALL, &p);
    CHECK(p.st.slice_views == 0 && p.buffer_of[y] == y && p.buffer_of[y2] == y2 && p.buffer_of[y3] == y3);
    free(p.ltmem);
    free(b.mem);
    printf("  slices: one contiguous range joins its input at its offset (16, 32 B: a negative begin, a shrunk "
           "axis); columns, off-grid and input-to-output slices refused\n");
}

/* The kernel: an input already at its slice is not copied (its bytes would
 * be the same; a copy from an address onto itself is not one memcpy may
 * make), the others are. */
static void test_kernel(void) {
    uint8_t buf[48], other[16];
    for (int i = 0; i < 48; i++) buf[i] = (uint8_t)i;
    for (int i = 0; i < 16; i++) other[i] = (uint8_t)(200 + i);
    int64_t cb[3] = {16, 16, 16};
    ta_concat_params p = {.n_inputs = 3, .outer = 1, .copy_bytes = cb};
    const void *ins[3] = {buf, other, buf + 32};
    CHECK(ta_kernel_concatenation(&p, ins, buf) == TA_OK);
    for (int i = 0; i < 16; i++) CHECK(buf[i] == i && buf[16 + i] == 200 + i && buf[32 + i] == 32 + i);
}

/* ---- random graphs: a byte-level execution ------------------------------------- */

/* Chains of concatenations (random axes, shapes, input counts; some inputs
 * read again later, some graph inputs) planned with greedy over the rewritten
 * requests.  Every op "runs" on the arena: an elementwise op writes its
 * output as a function of its input (tag-mixed), a concatenation copies an
 * input unless it is already at its slice; the same graph runs on private
 * buffers; every graph output must be equal. */
static uint64_t g_seed = 0xca7;
static uint32_t rnd(uint32_t n) { return n ? (uint32_t)(ta__rng_next(&g_seed) % n) : 0; }

static void test_random(int graphs) {
    int joined = 0, ran = 0, views = 0;
    for (int it = 0; it < graphs; it++) {
        gbox b;
        g_begin(&b);
        g_nconst = 0;
        const int32_t w = 1 + (int32_t)rnd(3), ch = 16 * (1 + (int32_t)rnd(2)); /* rows of 16 or 32 B */
        int32_t pool[40], np = 0;
        const int32_t in = t8(&b, 1 + (int32_t)rnd(3), w, ch);
        pool[np++] = in;
        int32_t h[MAXT] = {0};
        h[in] = b.g.tensors[in].shape[1];
        const int n_ops = 4 + (int)rnd(10);
        for (int k = 0; k < n_ops && np < 38; k++) {
            if (rnd(4) == 0) {
                /* a slice of rows [h0, h0 + len) of a pool tensor: one range at h0 * w * ch */
                const int32_t x = pool[rnd((uint32_t)np)];
                const int32_t h0 = (int32_t)rnd((uint32_t)h[x]), len = 1 + (int32_t)rnd((uint32_t)(h[x] - h0));
                const int32_t y = t8(&b, len, w, ch);
                h[y] = len;
                slice_op(&b, x, y, (const int32_t[]){0, h0, 0, 0}, (const int32_t[]){1, h0 + len, w, ch}, 4, 0);
                pool[np++] = y;
            } else if (rnd(3) == 0) {
                /* elementwise from one pool tensor */
                const int32_t x = pool[rnd((uint32_t)np)];
                const int32_t y = t8(&b, h[x], w, ch);
                h[y] = h[x];
                op1(&b, rnd(2) ? TA_OP_LOGISTIC : TA_OP_TANH, x, y);
                pool[np++] = y;
            } else {
                /* concatenation of 2-3 fresh elementwise outputs (and maybe a pool tensor) on H */
                int32_t ins[4], ni = 0, hh = 0;
                const int m = 2 + (int)rnd(2);
                for (int j = 0; j < m; j++) {
                    const int32_t x = pool[rnd((uint32_t)np)];
                    int32_t t = x;
                    if (rnd(4)) {
                        t = t8(&b, h[x], w, ch);
                        h[t] = h[x];
                        op1(&b, TA_OP_TANH, x, t);
                    }
                    bool dup = false;
                    for (int q = 0; q < ni; q++) dup |= ins[q] == t;
                    if (dup) continue;
                    ins[ni++] = t;
                    hh += h[t];
                }
                const int32_t y = t8(&b, hh, w, ch);
                h[y] = hh;
                op(&b, TA_OP_CONCATENATION, ins, (uint32_t)ni, y, rnd(2) ? 1 : -3);
                pool[np++] = y;
                for (int q = 0; q < ni && np < 38; q++)
                    if (rnd(3) == 0) pool[np++] = ins[q]; /* read again later */
            }
        }
        const int32_t last = pool[np - 1];
        CHECK(ta_graph_set_io(&b.g, &in, 1, &last, 1) == TA_OK);
        piped p;
        pipe_run(&b.g, TA_REWRITE_ALL, &p);
        joined += (int)p.st.concat_in_place;
        views += (int)p.st.slice_views;
        /* plan */
        const ta_strategy *s = ta_strategy_find("greedy");
        size_t need = 0, *off = calloc(p.n ? p.n : 1, sizeof *off), arena = 0;
        ta_plan_options po;
        memset(&po, 0, sizeof po);
        ta_plan_result res;
        ta_diag d;
        CHECK(ta_plan_scratch_bytes(s, p.reqs, p.n, &po, &need) == TA_OK);
        void *work = malloc(need ? need : 1);
        CHECK(ta_plan_run(s, p.reqs, p.n, &po, work, need, off, &res, &d) == TA_OK);
        arena = res.arena_bytes;
        free(work);
        uint8_t *mem = calloc(arena ? arena : 1, 1);
        uint8_t *ptr[MAXT] = {0}, *priv[MAXT] = {0};
        for (uint32_t t = 0; t < b.g.n_tensors; t++) {
            priv[t] = malloc(b.g.tensors[t].bytes);
            for (size_t i = 0; i < p.n; i++)
                if (p.org[i].kind == TA_BUFFER_TENSOR && (int32_t)p.org[i].index == p.buffer_of[t])
                    ptr[t] = mem + off[i] + p.at[t];
        }
        for (size_t i = 0; i < b.g.tensors[in].bytes; i++) priv[in][i] = ptr[in][i] = (uint8_t)rnd(256);
        const ta_subgraph *sg = &b.g.subgraphs[0];
        for (uint32_t k = 0; k < sg->n_ops; k++) {
            const ta_op *o = &b.g.ops[sg->op_base + k];
            const int32_t y = o->outputs[0];
            if (o->kind == TA_OP_STRIDED_SLICE) {
                /* the kernel's own resolution and view test, as run_slice uses them */
                const int32_t x = o->inputs[0];
                const ta_tensor *xt = &b.g.tensors[x];
                ta_slice_params sp;
                CHECK(ta_strided_slice_resolve(&sp, xt->shape, xt->rank, b.g.tensors[o->inputs[1]].data,
                                               b.g.tensors[o->inputs[2]].data, b.g.tensors[o->inputs[3]].data, 0, 0, 0,
                                               false, 1) == TA_OK);
                size_t voff = 0;
                CHECK(ta_strided_slice_view(&sp, &voff));
                if (p.buffer_of[y] == p.buffer_of[x]) CHECK(p.at[y] == p.at[x] + voff && ptr[y] == ptr[x] + voff);
                if (ptr[y] != ptr[x] + voff) memcpy(ptr[y], ptr[x] + voff, b.g.tensors[y].bytes);
                memcpy(priv[y], priv[x] + voff, b.g.tensors[y].bytes);
            } else if (o->kind == TA_OP_CONCATENATION) {
                size_t at = 0;
                for (uint32_t j = 0; j < o->n_inputs; j++) {
                    const int32_t x = o->inputs[j];
                    const size_t nb = b.g.tensors[x].bytes;
                    if (ptr[x] != ptr[y] + at) memcpy(ptr[y] + at, ptr[x], nb); /* never a partial overlap */
                    memcpy(priv[y] + at, priv[x], nb);
                    at += nb;
                }
            } else {
                const int32_t x = o->inputs[0];
                const uint8_t tag = (uint8_t)(o->kind == TA_OP_TANH ? 0x5b : 0x3d);
                for (size_t i = 0; i < b.g.tensors[y].bytes; i++) {
                    ptr[y][i] = (uint8_t)(ptr[x][i] * 7u + tag);
                    priv[y][i] = (uint8_t)(priv[x][i] * 7u + tag);
                }
            }
        }
        CHECK(memcmp(ptr[last], priv[last], b.g.tensors[last].bytes) == 0);
        ran++;
        for (uint32_t t = 0; t < b.g.n_tensors; t++) free(priv[t]);
        free(mem), free(off), free(p.ltmem), free(b.mem);
    }
    CHECK(joined > graphs && views > graphs / 2);
    printf("  random graphs: %d executed from one greedy arena == private buffers, %d concatenation inputs in place, "
           "%d slice views\n", ran, joined, views);
}

int main(void) {
    test_graphs();
    test_slices();
    test_kernel();
    test_random(400);
    return ta_test_finish("test_concat_view");
}
