/* The OVERLAP rewrite through the real prepare and kernels: random CONV_2D
 * (int8 per-channel, float32; any kernel size, stride, dilation, SAME,
 * VALID or explicit padding, 1-2 batches), AVERAGE_POOL_2D and MAX_POOL_2D
 * (int8, float32) geometries.  For each, ta_rewrite_overlaps declares the
 * relation of walk.h's ROWS walk; the op then runs with its output placed
 * exactly where that relation lets it start (Y ending d bytes below X's
 * end) in one buffer, under poison mode's walk check, and must give the
 * bytes of a run on disjoint buffers -- with every kernel implementation
 * (reference, fast at each x86 level, portable).  With Y one element
 * further up (d minus one element: one byte for int8) the walk check must
 * refuse the op (TA_E_OVERLAP) before a row lands on input bytes still to
 * be read. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/kernels/kernels_fast.h"
#include "runtime/ops.h"
#include "testutil.h"
#include "tinyarena/kernels.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/ops.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/walk.h"

static uint64_t g_seed = 0x0e21a9;
static int32_t rnd(int32_t n) { return n > 0 ? (int32_t)(ta__rng_next(&g_seed) % (uint64_t)n) : 0; }

typedef struct {
    ta_graph g;
    void *mem;
    int32_t x, y;
    size_t xs, ys; /* tensor bytes */
    size_t elem;
    ta_conv_geometry cg;
} one_op;

static int32_t add_t(one_op *b, ta_dtype dt, int32_t rank, const int32_t *shape, uint32_t flags, const void *data,
                     size_t data_bytes, ta_quant q) {
    ta_tensor_desc d = {.name = "t", .dtype = dt, .rank = rank, .shape = shape, .flags = flags, .data = data,
                        .data_bytes = data_bytes, .quant = q};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

/* Runs op 0 of the graph with x's data at xp and the output at yp; the
 * walk check on.  Returns the status. */
static ta_status run(const one_op *b, void *xp, void *yp) {
    const ta_subgraph *s = &b->g.subgraphs[0];
    void *ptrs[8] = {0};
    for (uint32_t t = 0; t < s->n_tensors && t < 8; t++) {
        const ta_tensor *tt = ta_graph_tensor(&b->g, 0, (int32_t)t);
        ptrs[t] = (tt->flags & TA_TENSOR_CONST) ? (void *)tt->data : NULL;
    }
    ptrs[b->x] = xp;
    ptrs[b->y] = yp;
    ta__op_info info;
    ta_diag d;
    if (ta__op_prepare(&b->g, 0, 0, NULL, 0, &info, &d)) {
        fprintf(stderr, "prepare: %s\n", d.msg);
        return TA_E_MALFORMED;
    }
    void *rec = aligned_alloc(8, (info.data_bytes + 7) & ~(size_t)7);
    ta_status st = ta__op_prepare(&b->g, 0, 0, rec, info.data_bytes, &info, &d);
    if (!st) st = ta__op_invoke_checked(&ta_op_list_all, rec, ptrs, NULL, NULL, true, &d);
    free(rec);
    return st;
}

static float rnd_float(void) { return ((float)rnd(20001) - 10000.0f) / 1000.0f; }

/* The relation ta_rewrite_overlaps declares on this one-op graph (lifetime
 * rules as the runtime's); false when it declares none. */
static bool declared(const one_op *b, ta_overlap *rel) {
    ta_diag d;
    size_t lb = ta_lifetime_bytes(&b->g, 0);
    void *lm = malloc(lb);
    ta_lifetimes lt;
    CHECK(ta_lifetime_analyze(&b->g, NULL, 0, lm, lb, &lt, &d) == TA_OK);
    ta_request reqs[4];
    ta_buffer_origin org[4];
    size_t n = 0;
    CHECK(ta_lifetime_requests(&b->g, &lt, NULL, reqs, org, 4, &n, &d) == TA_OK);
    ta_op_kind_set walks;
    ta_op_list_overlap_kinds(&ta_op_list_all, &walks);
    size_t wb = ta_rewrite_overlaps_bytes(&b->g), n_ov = 0;
    void *wm = malloc(wb);
    ta_rewrite_stats st;
    memset(&st, 0, sizeof st);
    CHECK(ta_rewrite_overlaps(&b->g, &lt, NULL, NULL, &walks, reqs, org, n, wm, wb, rel, 1, &n_ov, &st, &d) == TA_OK);
    CHECK(st.overlapped == n_ov);
    if (n_ov) {
        /* on the requests; back to the tensors' bytes (both start their request) */
        const ta_request *rx = &reqs[rel->x], *ry = &reqs[rel->y];
        CHECK(org[rel->x].index == (uint32_t)b->x && org[rel->y].index == (uint32_t)b->y);
        rel->d -= (int64_t)(ta_request_padded(rx) - b->xs) - (int64_t)(ta_request_padded(ry) - b->ys);
    }
    free(wm);
    free(lm);
    return n_ov == 1;
}

/* A random op; false when the geometry has no output. */
static bool build(one_op *b, int kind, bool f32, unsigned char **wdata, unsigned char **bdata) {
    memset(b, 0, sizeof *b);
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 8, .ops = 2, .indices = 16, .dims = 32};
    size_t need = ta_graph_bytes(&lim);
    b->mem = malloc(need);
    CHECK(ta_graph_init(&b->g, &lim, b->mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(&b->g, "main", NULL) == TA_OK);
    const ta_dtype dt = f32 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT8;
    const bool conv = kind == 0;
    const int32_t N = 1 + rnd(2), H = 1 + rnd(8), W = 1 + rnd(8), C = 1 + rnd(6);
    const int32_t OC = conv ? 1 + rnd(6) : C, KH = 1 + rnd(3), KW = 1 + rnd(3);
    const int32_t sh = 1 + rnd(3), sw = 1 + rnd(3), dh = conv ? 1 + rnd(2) : 1, dw = conv ? 1 + rnd(2) : 1;
    ta_op_options o = ta_op_options_default();
    const int pmode = rnd(conv ? 3 : 2);
    o.padding = pmode == 0 ? TA_PAD_SAME : pmode == 1 ? TA_PAD_VALID : TA_PAD_EXPLICIT;
    o.stride_h = sh, o.stride_w = sw, o.dilation_h = dh, o.dilation_w = dw;
    o.filter_h = KH, o.filter_w = KW;
    o.activation = rnd(2) ? TA_ACT_RELU6 : TA_ACT_NONE;
    const int32_t eh = (KH - 1) * dh + 1, ew = (KW - 1) * dw + 1;
    int32_t OH, OW;
    if (o.padding == TA_PAD_EXPLICIT) {
        o.pad_top = rnd(3), o.pad_bottom = rnd(3), o.pad_left = rnd(3), o.pad_right = rnd(3);
        OH = H + o.pad_top + o.pad_bottom >= eh ? (H + o.pad_top + o.pad_bottom - eh) / sh + 1 : 0;
        OW = W + o.pad_left + o.pad_right >= ew ? (W + o.pad_left + o.pad_right - ew) / sw + 1 : 0;
    } else if (o.padding == TA_PAD_SAME) {
        OH = (H + sh - 1) / sh, OW = (W + sw - 1) / sw;
    } else {
        OH = H >= eh ? (H - eh) / sh + 1 : 0, OW = W >= ew ? (W - ew) / sw + 1 : 0;
    }
    if (OH <= 0 || OW <= 0) return false;
    static float in_scale, out_scale, wscales[8];
    static int64_t in_zp, out_zp;
    static const int64_t zeros[8];
    in_scale = 0.02f + (float)rnd(100) / 1000.0f;
    out_scale = kind == 0 ? 0.05f + (float)rnd(100) / 500.0f : in_scale;
    in_zp = rnd(40) - 20;
    out_zp = kind == 0 ? rnd(40) - 20 : in_zp;
    for (int i = 0; i < 8; i++) wscales[i] = 0.001f + (float)rnd(1000) / 100000.0f;
    const ta_quant qin = f32 ? (ta_quant){0} : (ta_quant){1, &in_scale, &in_zp, 0};
    const ta_quant qout = f32 ? (ta_quant){0} : (ta_quant){1, &out_scale, &out_zp, 0};
    const int32_t sx[4] = {N, H, W, C}, so[4] = {N, OH, OW, OC};
    b->elem = f32 ? 4 : 1;
    b->x = add_t(b, dt, 4, sx, 0, NULL, 0, qin);
    int32_t in[3] = {b->x, -1, -1};
    if (conv) {
        const int32_t swt[4] = {OC, KH, KW, C}, sb[1] = {OC};
        const size_t nw = (size_t)OC * KH * KW * C;
        *wdata = malloc(nw * b->elem);
        *bdata = malloc((size_t)OC * 4);
        for (size_t i = 0; i < nw; i++) {
            if (f32) {
                float v = rnd_float();
                memcpy(*wdata + 4 * i, &v, 4);
            } else {
                (*wdata)[i] = (unsigned char)rnd(256);
            }
        }
        for (int32_t i = 0; i < OC; i++) {
            int32_t v = rnd(2001) - 1000;
            float fv = rnd_float();
            memcpy(*bdata + 4 * i, f32 ? (const void *)&fv : (const void *)&v, 4);
        }
        in[1] = add_t(b, dt, 4, swt, TA_TENSOR_CONST, *wdata, nw * b->elem,
                      f32 ? (ta_quant){0} : (ta_quant){(uint32_t)OC, wscales, zeros, 0});
        in[2] = add_t(b, f32 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT32, 1, sb, TA_TENSOR_CONST, *bdata, (size_t)OC * 4,
                      (ta_quant){0});
    }
    b->y = add_t(b, dt, 4, so, 0, NULL, 0, qout);
    const ta_op_kind k = conv ? TA_OP_CONV_2D : kind == 1 ? TA_OP_AVERAGE_POOL_2D : TA_OP_MAX_POOL_2D;
    ta_op_desc od = {.kind = k, .inputs = in, .n_inputs = conv ? 3 : 1, .outputs = &b->y, .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &od, NULL) == TA_OK);
    CHECK(ta_graph_set_io(&b->g, &b->x, 1, &b->y, 1) == TA_OK);
    b->xs = (size_t)N * H * W * C * b->elem;
    b->ys = (size_t)N * OH * OW * OC * b->elem;
    b->cg = (ta_conv_geometry){N, H, W, C, OH, OW, OC, KH, KW, sh, sw, dh, dw, 0, 0, (int32_t)b->elem, (int32_t)b->elem};
    return true;
}

static void test_random(void) {
    /* reference, fast (x86-64: the widest build), fast capped at SSE4.1,
     * portable, fast capped at SSE2 */
    static const ta_kernel_impl impls[5] = {TA_KERNEL_IMPL_REFERENCE, TA_KERNEL_IMPL_FAST, TA_KERNEL_IMPL_FAST,
                                            TA_KERNEL_IMPL_PORTABLE, TA_KERNEL_IMPL_FAST};
    int cases = 0, overlapped = 0, caught = 0, none = 0, mismatches = 0;
    for (int iter = 0; iter < 1200; iter++) {
        const int kind = iter % 3;
        const bool f32 = (iter / 3) & 1;
        unsigned char *wdata = NULL, *bdata = NULL;
        one_op b;
        if (!build(&b, kind, f32, &wdata, &bdata)) {
            free(b.mem);
            continue;
        }
        cases++;
        ta_overlap rel;
        if (!declared(&b, &rel)) {
            none++;
        } else {
            overlapped++;
            const int64_t xs = (int64_t)b.xs, ys = (int64_t)b.ys, e = (int64_t)b.elem;
            CHECK(rel.kind == TA_OVERLAP_BELOW && rel.d < xs && rel.d >= -ys && rel.d % e == 0);
            /* X at ys + 64 (8-aligned), Y ending d below X's end */
            const int64_t x0 = ys + 64, y0 = x0 + xs - rel.d - ys;
            unsigned char *mem = aligned_alloc(16, (size_t)(x0 + xs + ys + 64 + 15) & ~(size_t)15);
            unsigned char *xd = malloc(b.xs), *ref = malloc(b.ys);
            for (size_t i = 0; i < b.xs; i += b.elem) {
                if (f32) {
                    float v = rnd_float();
                    memcpy(xd + i, &v, 4);
                } else {
                    xd[i] = (unsigned char)rnd(256);
                }
            }
            for (int k = 0; k < 5; k++) {
                CHECK(ta_kernel_use_impl(impls[k]) == TA_OK);
#ifdef TA__X86_DISPATCH
                ta__x86_cap(k == 2 ? TA__X86_SSE41 : k == 4 ? TA__X86_SSE2 : TA__X86_AVX2);
#else
                if (k >= 2) break;
#endif
                unsigned char *xcopy = malloc(b.xs);
                memcpy(xcopy, xd, b.xs);
                CHECK(run(&b, xcopy, ref) == TA_OK);
                CHECK(memcmp(xcopy, xd, b.xs) == 0); /* disjoint: the input stays */
                free(xcopy);
                memset(mem, 0x5A, (size_t)(x0 + xs + ys + 64));
                memcpy(mem + x0, xd, b.xs);
                const ta_status st = run(&b, mem + x0, mem + y0);
                CHECK(st == TA_OK);
                if (st == TA_OK && memcmp(mem + y0, ref, b.ys) != 0) {
                    mismatches++;
                    fprintf(stderr, "overlap kind %d %s: output differs at d=%lld (N%d H%d W%d C%d OC%d K%dx%d s%d,%d)\n",
                            kind, f32 ? "f32" : "s8", (long long)rel.d, b.cg.batches, b.cg.in_h, b.cg.in_w, b.cg.in_c,
                            b.cg.out_c, b.cg.filter_h, b.cg.filter_w, b.cg.stride_h, b.cg.stride_w);
                }
                /* one element tighter: a row must land on bytes still to be read */
                if (y0 + e < x0 + xs) {
                    memcpy(mem + x0, xd, b.xs);
                    const ta_status s2 = run(&b, mem + x0, mem + y0 + e);
                    CHECK(s2 == TA_E_OVERLAP);
                    if (k == 0) caught += s2 == TA_E_OVERLAP;
                }
            }
            free(mem);
            free(xd);
            free(ref);
        }
        free(wdata);
        free(bdata);
        free(b.mem);
    }
    CHECK(ta_kernel_use_impl(TA_KERNEL_IMPL_FAST) == TA_OK);
#ifdef TA__X86_DISPATCH
    ta__x86_cap(2);
#endif
    printf("  overlap walks: %d random conv/pool cases, %d with a relation (%d without), %d mismatches, d - 1 element "
           "caught in %d\n",
           cases, overlapped, none, mismatches, caught);
    CHECK(overlapped > cases / 2 && mismatches == 0 && caught > overlapped / 2);
}

/* The relation on the requests is the walk's on the tensors, moved by the
 * padding of both requests (rewrite.h), for person_detect's 1x1 conv. */
static void test_person_detect_1x1(void) {
    one_op b;
    memset(&b, 0, sizeof b);
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 8, .ops = 2, .indices = 16, .dims = 32};
    size_t need = ta_graph_bytes(&lim);
    b.mem = malloc(need);
    CHECK(ta_graph_init(&b.g, &lim, b.mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(&b.g, "main", NULL) == TA_OK);
    static float sc = 0.05f, ws[16];
    static int64_t zp = -3;
    static const int64_t zeros[16];
    static int8_t w[16 * 8];
    static int32_t bias[16];
    for (int i = 0; i < 16; i++) ws[i] = 0.01f;
    const ta_quant q = {1, &sc, &zp, 0};
    const int32_t sx[4] = {1, 48, 48, 8}, sy[4] = {1, 48, 48, 16}, sw[4] = {16, 1, 1, 8}, sb[1] = {16};
    b.x = add_t(&b, TA_DTYPE_INT8, 4, sx, 0, NULL, 0, q);
    int32_t in[3] = {b.x, add_t(&b, TA_DTYPE_INT8, 4, sw, TA_TENSOR_CONST, w, sizeof w, (ta_quant){16, ws, zeros, 0}),
                     add_t(&b, TA_DTYPE_INT32, 1, sb, TA_TENSOR_CONST, bias, sizeof bias, (ta_quant){0})};
    b.y = add_t(&b, TA_DTYPE_INT8, 4, sy, 0, NULL, 0, q);
    ta_op_options o = ta_op_options_default();
    o.padding = TA_PAD_SAME;
    ta_op_desc od = {.kind = TA_OP_CONV_2D, .inputs = in, .n_inputs = 3, .outputs = &b.y, .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b.g, &od, NULL) == TA_OK);
    CHECK(ta_graph_set_io(&b.g, &b.x, 1, &b.y, 1) == TA_OK);
    b.xs = 18432;
    b.ys = 36864;
    ta_overlap rel;
    CHECK(declared(&b, &rel));
    CHECK(rel.d == 384);
    free(b.mem);
}

int main(void) {
    test_person_detect_1x1();
    test_random();
    return ta_test_finish("test_overlap_run");
}
