/* Patch-based execution (patch.h): random chains of CONV_2D,
 * DEPTHWISE_CONV_2D, AVERAGE_POOL_2D and MAX_POOL_2D (int8 per-channel and
 * float32; strides 1-2, dilations 1-2, SAME, VALID and explicit padding)
 * run band by band under random band counts, through the real prepare and
 * the kernels' band calls (ta__op_invoke_band, what runtime_patch.c calls),
 * every intermediate in an allocation of exactly its largest band (ASan
 * catches a row outside it), and compared byte for byte with layer by
 * layer; the planner's view of the same chain (ta_patch_op_rows,
 * ta_patch_apply) must be the geometry prepare derived and buffers of
 * exactly those bands.  Plus ta_patch_choose on a hand-built chain whose
 * peak is its first layers, and the refusals. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/ops.h"
#include "testutil.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/patch.h"

static uint64_t g_seed = 0x9a7c4;
static uint32_t rnd(uint32_t n) { return n ? (uint32_t)(ta__rng_next(&g_seed) % n) : 0; }

static const float k_in_scale = 0.05f, k_out_scale = 0.07f;
static const int64_t k_in_zp = -3, k_out_zp = 5;

typedef struct {
    ta_graph g;
    void *mem;
    void *owned[64]; /* constant data */
    int n_owned;
} gbox;

static void g_begin(gbox *b) {
    ta_graph_limits lim = {.subgraphs = 1, .tensors = 128, .ops = 32, .indices = 512, .dims = 512};
    size_t need = ta_graph_bytes(&lim);
    b->mem = malloc(need);
    b->n_owned = 0;
    CHECK(ta_graph_init(&b->g, &lim, b->mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(&b->g, "main", NULL) == TA_OK);
}

static void g_free(gbox *b) {
    for (int i = 0; i < b->n_owned; i++) free(b->owned[i]);
    free(b->mem);
}

static int32_t tensor(gbox *b, ta_dtype dt, int32_t rank, const int32_t *shape, uint32_t flags, void *data,
                      size_t data_bytes, const ta_quant *q) {
    ta_tensor_desc d = {.name = "t", .dtype = dt, .rank = rank, .shape = shape, .flags = flags, .data = data,
                        .data_bytes = data_bytes};
    if (q) d.quant = *q;
    if (data) b->owned[b->n_owned++] = data;
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

/* A window op's output rows for its padding (0: the geometry does not fit). */
static int32_t out_extent(ta_padding pad, int32_t in, int32_t k, int32_t s, int32_t d, int32_t lead, int32_t trail) {
    const int32_t eff = (k - 1) * d + 1;
    if (pad == TA_PAD_SAME) return (in + s - 1) / s;
    const int32_t padded = in + (pad == TA_PAD_EXPLICIT ? lead + trail : 0);
    return padded >= eff ? (padded - eff) / s + 1 : 0;
}

static float rnd_float(void) { return ((float)rnd(2001) - 1000.0f) / 700.0f; }

typedef struct {
    int32_t t[16]; /* the chain's activations: t[0] the input, t[k + 1] op k's output */
    int n_ops;
    bool f32;
} chain;

/* A random window op (conv 3/8, depthwise 3/8, pools 2/8) on tensor `in`
 * of [1, *h, *w, *c]: its output (dims updated), or -1 when a drawn
 * geometry did not fit. */
static int32_t add_window(gbox *b, bool f32, int32_t in, int32_t *h_, int32_t *w_, int32_t *c_) {
    const ta_dtype dt = f32 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT8;
    const ta_quant qin = {1, &k_in_scale, &k_in_zp, 0};
    const int32_t h = *h_, w = *w_, c = *c_;
    const uint32_t kind = rnd(8);
    const bool pool = kind >= 6, dw = kind >= 3 && kind < 6;
    ta_op_options o = ta_op_options_default();
    const int32_t kh = 1 + (int32_t)rnd(3), kw = 1 + (int32_t)rnd(3);
    o.stride_h = 1 + (int32_t)rnd(2), o.stride_w = 1 + (int32_t)rnd(2);
    o.dilation_h = pool ? 1 : 1 + (int32_t)rnd(2), o.dilation_w = pool ? 1 : 1 + (int32_t)rnd(2);
    o.activation = rnd(2) ? TA_ACT_RELU : TA_ACT_NONE;
    const uint32_t pk = rnd(pool ? 2 : 3);
    o.padding = pk == 0 ? TA_PAD_SAME : pk == 1 ? TA_PAD_VALID : TA_PAD_EXPLICIT;
    if (o.padding == TA_PAD_EXPLICIT) {
        o.pad_top = (int32_t)rnd(3), o.pad_bottom = (int32_t)rnd(3);
        o.pad_left = (int32_t)rnd(3), o.pad_right = (int32_t)rnd(3);
    }
    const int32_t oh = out_extent(o.padding, h, kh, o.stride_h, o.dilation_h, o.pad_top, o.pad_bottom);
    const int32_t ow = out_extent(o.padding, w, kw, o.stride_w, o.dilation_w, o.pad_left, o.pad_right);
    if (oh < 1 || ow < 1) return -1;
    const int32_t dm = dw ? 1 + (int32_t)rnd(2) : 1;
    const int32_t oc = pool ? c : dw ? c * dm : 1 + (int32_t)rnd(6);
    int32_t oshape[4] = {1, oh, ow, oc};
    const float *os = &k_out_scale;
    const ta_quant qout = {1, os, &k_out_zp, 0};
    /* pools keep the input's quantisation */
    const int32_t out = tensor(b, dt, 4, oshape, 0, NULL, 0, f32 ? NULL : pool ? &qin : &qout);
    if (pool) {
        o.filter_h = kh, o.filter_w = kw;
        ta_op_desc d = {.kind = rnd(2) ? TA_OP_AVERAGE_POOL_2D : TA_OP_MAX_POOL_2D, .inputs = &in, .n_inputs = 1,
                        .outputs = &out, .n_outputs = 1, .opt = &o};
        CHECK(ta_graph_add_op(&b->g, &d, NULL) == TA_OK);
    } else {
        const size_t es = f32 ? 4 : 1;
        const int32_t wn = dw ? 1 : oc, wc = dw ? oc : c;
        const size_t nw = (size_t)wn * kh * kw * wc;
        unsigned char *wdata = malloc(nw * es);
        for (size_t i = 0; i < nw; i++) {
            if (f32) {
                const float v = rnd_float();
                memcpy(wdata + 4 * i, &v, 4);
            } else {
                wdata[i] = (unsigned char)(rnd(255) + 1); /* -127..127 */
            }
        }
        int32_t wshape[4] = {wn, kh, kw, wc}, bshape[1] = {oc};
        float *wscales = malloc(sizeof(float) * (size_t)oc);
        int64_t *wzp = calloc((size_t)oc, sizeof(int64_t));
        b->owned[b->n_owned++] = wscales;
        b->owned[b->n_owned++] = wzp;
        for (int32_t i = 0; i < oc; i++) wscales[i] = 0.002f + 0.001f * (float)rnd(8);
        const ta_quant qw = {(uint32_t)oc, wscales, wzp, dw ? 3 : 0};
        const int32_t wt = tensor(b, dt, 4, wshape, TA_TENSOR_CONST, wdata, nw * es, f32 ? NULL : &qw);
        unsigned char *bdata = malloc((size_t)oc * 4);
        for (int32_t i = 0; i < oc; i++) {
            if (f32) {
                const float v = rnd_float();
                memcpy(bdata + 4 * i, &v, 4);
            } else {
                const int32_t v = (int32_t)rnd(2001) - 1000;
                memcpy(bdata + 4 * i, &v, 4);
            }
        }
        const int32_t bt = tensor(b, f32 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT32, 1, bshape, TA_TENSOR_CONST, bdata,
                                  (size_t)oc * 4, NULL);
        o.depth_multiplier = dm;
        const int32_t ins[3] = {in, wt, bt};
        ta_op_desc d = {.kind = dw ? TA_OP_DEPTHWISE_CONV_2D : TA_OP_CONV_2D, .inputs = ins, .n_inputs = 3,
                        .outputs = &out, .n_outputs = 1, .opt = &o};
        CHECK(ta_graph_add_op(&b->g, &d, NULL) == TA_OK);
    }
    *h_ = oh, *w_ = ow, *c_ = oc;
    return out;
}

/* A random chain of n ops from a [1, h, w, c] input; false when a drawn
 * geometry did not fit (the caller draws again). */
static bool build_chain(gbox *b, chain *ch, int n) {
    const bool f32 = rnd(2);
    const ta_dtype dt = f32 ? TA_DTYPE_FLOAT32 : TA_DTYPE_INT8;
    const ta_quant qin = {1, &k_in_scale, &k_in_zp, 0};
    int32_t h = 6 + (int32_t)rnd(22), w = 1 + (int32_t)rnd(7), c = 1 + (int32_t)rnd(4);
    int32_t shape[4] = {1, h, w, c};
    ch->f32 = f32;
    ch->n_ops = n;
    ch->t[0] = tensor(b, dt, 4, shape, 0, NULL, 0, f32 ? NULL : &qin);
    for (int k = 0; k < n; k++) {
        const int32_t out = add_window(b, f32, ch->t[k], &h, &w, &c);
        if (out < 0) return false;
        ch->t[k + 1] = out;
        ta_patch_rows r;
        if (ta_patch_op_rows(&b->g, (uint32_t)k, &r, NULL) != TA_OK) return false; /* a row of all padding */
    }
    CHECK(ta_graph_set_io(&b->g, &ch->t[0], 1, &ch->t[n], 1) == TA_OK);
    return true;
}

typedef struct {
    void *rec[16];
    void *scratch[16];
} records;

static bool prepare_all(const ta_graph *g, int n, records *rs) {
    for (int k = 0; k < n; k++) {
        ta__op_info info;
        ta_diag d;
        rs->rec[k] = rs->scratch[k] = NULL;
        if (ta__op_prepare(g, 0, (uint32_t)k, NULL, 0, &info, &d)) return fprintf(stderr, "prepare: %s\n", d.msg), false;
        rs->rec[k] = aligned_alloc(8, (info.data_bytes + 7) & ~(size_t)7);
        rs->scratch[k] = info.scratch_bytes ? aligned_alloc(16, (info.scratch_bytes + 15) & ~(size_t)15) : NULL;
        if (ta__op_prepare(g, 0, (uint32_t)k, rs->rec[k], info.data_bytes, &info, &d))
            return fprintf(stderr, "prepare: %s\n", d.msg), false;
    }
    return true;
}

static void records_free(records *rs, int n) {
    for (int k = 0; k < n; k++) free(rs->rec[k]), free(rs->scratch[k]);
}

static size_t bytes_of(const ta_graph *g, int32_t t) { return ta_graph_tensor(g, 0, t)->bytes; }

/* Layer by layer, every tensor whole: allocates each non-constant tensor
 * (full[t], freed by the caller; ptrs[t] every tensor's bytes), fills
 * tensor `input` with random bytes (or random floats when f32) and runs the
 * n prepared ops.  False when an op fails. */
static bool layer_by_layer(const ta_graph *g, const records *rs, int n, int32_t input, bool f32, void **full, void **ptrs,
                           ta_diag *d) {
    const ta_subgraph *sg = &g->subgraphs[0];
    for (uint32_t t = 0; t < sg->n_tensors; t++) {
        const ta_tensor *tt = ta_graph_tensor(g, 0, (int32_t)t);
        if (tt->flags & TA_TENSOR_CONST) ptrs[t] = (void *)tt->data;
        else ptrs[t] = full[t] = malloc(tt->bytes);
    }
    unsigned char *x = full[input];
    const size_t xb = bytes_of(g, input);
    for (size_t i = 0; i < xb; i++) {
        if (f32) {
            if (i % 4 == 0) {
                const float v = rnd_float();
                memcpy(x + i, &v, 4);
            }
        } else {
            x[i] = (unsigned char)rnd(256);
        }
    }
    bool ok = true;
    for (int k = 0; ok && k < n; k++) ok = ta__op_invoke(rs->rec[k], ptrs, rs->scratch[k], d) == TA_OK;
    return ok;
}

/* One random chain under one band count: layer by layer against band by
 * band.  Returns false when the draw did not give a chain. */
static bool one_case(int *cases, int *mismatches) {
    gbox b;
    g_begin(&b);
    chain ch;
    const int n = 2 + (int)rnd(4);
    records rs;
    memset(&rs, 0, sizeof rs);
    if (!build_chain(&b, &ch, n) || !prepare_all(&b.g, n, &rs)) {
        records_free(&rs, n);
        g_free(&b);
        return false;
    }
    const ta_graph *g = &b.g;
    const ta_subgraph *sg = &g->subgraphs[0];
    /* layer by layer, every tensor whole */
    void *full[128] = {0}, *ptrs[128] = {0};
    ta_diag d;
    bool ok = layer_by_layer(g, &rs, n, ch.t[0], ch.f32, full, ptrs, &d);
    CHECK(ok);
    /* the geometry prepare derived is the planner's */
    ta_patch_rows geo[16];
    size_t in_row[16], out_row[16];
    for (int k = 0; ok && k < n; k++) {
        int32_t r6[6];
        ta_patch_rows pr;
        CHECK(ta__op_band_rows(&ta_op_list_all, rs.rec[k], r6, &in_row[k], &out_row[k]));
        geo[k] = (ta_patch_rows){r6[0], r6[1], r6[2], r6[3], r6[4], r6[5]};
        CHECK(ta_patch_op_rows(g, (uint32_t)k, &pr, NULL) == TA_OK);
        CHECK(memcmp(&pr, &geo[k], sizeof pr) == 0);
        CHECK(in_row[k] * (size_t)geo[k].in_h == bytes_of(g, ch.t[k]));
    }
    CHECK(ta_patch_chain(g, NULL, 0, 0) == n - 1);
    /* band by band: intermediates in allocations of exactly their largest band */
    const int32_t out_h = geo[n - 1].out_h;
    const int32_t bands = 2 + (int32_t)rnd((uint32_t)(out_h > 9 ? 8 : out_h - 1));
    if (bands > out_h) goto done;
    int32_t max_rows[16] = {0};
    int32_t rows[16][2];
    for (int32_t bd = 0; bd < bands; bd++) {
        ta_patch_band(out_h, bands, bd, &rows[n - 1][0], &rows[n - 1][1]);
        for (int k = n - 1; k > 0; k--) {
            int32_t pad;
            ta_patch_in_rows(&geo[k], rows[k][0], rows[k][1], &rows[k - 1][0], &rows[k - 1][1], &pad);
        }
        for (int k = 0; k < n - 1; k++)
            if (rows[k][1] - rows[k][0] > max_rows[k]) max_rows[k] = rows[k][1] - rows[k][0];
    }
    void *band_buf[16] = {0};
    for (int k = 0; k < n - 1; k++) band_buf[k] = malloc((size_t)max_rows[k] * out_row[k]);
    const size_t ob = bytes_of(g, ch.t[n]);
    unsigned char *out = malloc(ob);
    memset(out, 0xEE, ob);
    for (int32_t bd = 0; ok && bd < bands; bd++) {
        ta_patch_band(out_h, bands, bd, &rows[n - 1][0], &rows[n - 1][1]);
        for (int k = n - 1; k > 0; k--) {
            int32_t pad;
            ta_patch_in_rows(&geo[k], rows[k][0], rows[k][1], &rows[k - 1][0], &rows[k - 1][1], &pad);
        }
        for (int k = 0; ok && k < n; k++) {
            int32_t i0, i1, pad;
            ta_patch_in_rows(&geo[k], rows[k][0], rows[k][1], &i0, &i1, &pad);
            CHECK(0 <= i0 && i0 < i1 && i1 <= geo[k].in_h && pad >= 0);
            if (k) CHECK(i0 == rows[k - 1][0] && i1 == rows[k - 1][1]);
            const void *in = k ? band_buf[k - 1] : (unsigned char *)full[ch.t[0]] + (size_t)i0 * in_row[k];
            void *o = k == n - 1 ? out + (size_t)rows[k][0] * out_row[k] : band_buf[k];
            const ta__op_band_call bc = {in, o, i1 - i0, rows[k][1] - rows[k][0], pad, NULL, 0};
            ok = ta__op_invoke_band(&ta_op_list_all, rs.rec[k], ptrs, rs.scratch[k], &bc, &d) == TA_OK;
            CHECK(ok);
        }
    }
    (*cases)++;
    if (ok && memcmp(out, full[ch.t[n]], ob) != 0) {
        (*mismatches)++;
        fprintf(stderr, "patch: %d-op %s chain in %d bands differs from layer by layer\n", n,
                ch.f32 ? "float32" : "int8", bands);
    }
    /* the planner's transformation: the intermediates' requests are those bands */
    {
        const size_t lb = ta_lifetime_bytes(g, 0);
        void *lm = malloc(lb);
        ta_lifetimes lt;
        ta_lifetime_options lo;
        memset(&lo, 0, sizeof lo);
        size_t nr = 0;
        CHECK(ta_lifetime_analyze(g, NULL, 0, lm, lb, &lt, &d) == TA_OK);
        CHECK(ta_lifetime_requests(g, &lt, &lo, NULL, NULL, 0, &nr, &d) == TA_OK);
        ta_request *reqs = calloc(nr + 1, sizeof *reqs);
        ta_buffer_origin *orig = calloc(nr + 1, sizeof *orig);
        uint8_t *role = malloc(nr + 1);
        CHECK(ta_lifetime_requests(g, &lt, &lo, reqs, orig, nr, &nr, &d) == TA_OK);
        ta_patch_plan pp;
        memset(&pp, 0, sizeof pp);
        pp.n_stages = 1;
        pp.stages[0] = (ta_patch_stage){0, n - 1, bands, 0};
        size_t n_ov = 0;
        CHECK(ta_patch_apply(g, &lt, NULL, &pp, reqs, orig, nr, NULL, &n_ov, role, &d) == TA_OK);
        for (size_t i = 0; i < nr; i++) {
            for (int k = 0; k < n - 1; k++)
                if (orig[i].index == (uint32_t)(sg->tensor_base + (uint32_t)ch.t[k + 1]))
                    CHECK(reqs[i].size == (size_t)max_rows[k] * out_row[k]);
            if (orig[i].index == sg->tensor_base + (uint32_t)ch.t[0]) CHECK(reqs[i].last >= n);
            if (orig[i].index == sg->tensor_base + (uint32_t)ch.t[n]) CHECK(reqs[i].first <= 1); /* op 0's step */
        }
        /* a stage past the chain, or with more bands than rows, is refused */
        pp.stages[0].last_op = n;
        CHECK(ta_patch_apply(g, &lt, NULL, &pp, reqs, orig, nr, NULL, &n_ov, role, &d) == TA_E_BAD_REQUEST);
        pp.stages[0] = (ta_patch_stage){0, n - 1, out_h + 1, 0};
        CHECK(ta_patch_apply(g, &lt, NULL, &pp, reqs, orig, nr, NULL, &n_ov, role, &d) == TA_E_BAD_REQUEST);
        free(reqs);
        free(orig);
        free(role);
        free(lm);
    }
    for (int k = 0; k < n - 1; k++) free(band_buf[k]);
    free(out);
done:
    for (uint32_t t = 0; t < sg->n_tensors; t++) free(full[t]);
    records_free(&rs, n);
    g_free(&b);
    return true;
}

/* ta_patch_choose on a chain whose first layers dominate: it picks a stage
 * that lowers the peak, within the overhead cap; 0 disables it. */
static void test_choose(void) {
    int found = 0, tried = 0;
    for (int attempt = 0; attempt < 400 && tried < 60; attempt++) {
        gbox b;
        g_begin(&b);
        chain ch;
        if (!build_chain(&b, &ch, 2 + (int)rnd(4))) {
            g_free(&b);
            continue;
        }
        tried++;
        const ta_graph *g = &b.g;
        ta_diag d;
        const size_t lb = ta_lifetime_bytes(g, 0);
        void *lm = malloc(lb);
        ta_lifetimes lt;
        ta_lifetime_options lo;
        memset(&lo, 0, sizeof lo);
        size_t nr = 0;
        CHECK(ta_lifetime_analyze(g, NULL, 0, lm, lb, &lt, &d) == TA_OK);
        CHECK(ta_lifetime_requests(g, &lt, &lo, NULL, NULL, 0, &nr, &d) == TA_OK);
        ta_request *reqs = calloc(nr + 1, sizeof *reqs);
        ta_buffer_origin *orig = calloc(nr + 1, sizeof *orig);
        CHECK(ta_lifetime_requests(g, &lt, &lo, reqs, orig, nr, &nr, &d) == TA_OK);
        const size_t wb = ta_patch_work_bytes(g, nr, lt.n_steps);
        void *work = malloc(wb);
        ta_patch_plan pp;
        CHECK(ta_patch_choose(g, &lt, NULL, reqs, orig, nr, NULL, 0, 0, work, wb, &pp, &d) == TA_OK);
        CHECK(pp.n_stages == 0);
        CHECK(ta_patch_choose(g, &lt, NULL, reqs, orig, nr, NULL, 0, 10, work, wb - 1, &pp, &d) == TA_E_NO_MEMORY);
        CHECK(ta_patch_choose(g, &lt, NULL, reqs, orig, nr, NULL, 0, 10, work, wb, &pp, &d) == TA_OK);
        if (pp.n_stages) {
            found++;
            CHECK(pp.bytes_after < pp.bytes_before);
            CHECK((double)pp.extra_macs <= 0.10 * (double)pp.macs);
            uint64_t sum = 0;
            for (uint32_t i = 0; i < pp.n_stages; i++) {
                sum += pp.stages[i].extra_macs;
                if (i) CHECK(pp.stages[i - 1].last_op < pp.stages[i].first_op);
            }
            CHECK(sum == pp.extra_macs);
            /* and it applies */
            uint8_t *role = malloc(nr + 1);
            size_t n_ov = 0;
            CHECK(ta_patch_apply(g, &lt, NULL, &pp, reqs, orig, nr, NULL, &n_ov, role, &d) == TA_OK);
            free(role);
        }
        free(work);
        free(reqs);
        free(orig);
        free(lm);
        g_free(&b);
    }
    printf("  choose: %d random chains, a stage lowers the peak of %d\n", tried, found);
    CHECK(tried >= 40 && found > 0);
}

/* ---- stages as DAGs: elementwise ops and residuals ------------------------------ */

static const float k_s16_scale = 0.001f, k_logistic_scale = 1.0f / 256, k_tanh_scale = 1.0f / 128;
static const int64_t k_zero = 0, k_logistic_zp = -128;

typedef struct {
    int32_t t[40];   /* tensors in creation order: t[0] the stage input */
    int32_t h[40], w[40], c[40];
    int nt, n_ops;
    int dt;          /* 0 int8, 1 float32, 2 int16 */
    int32_t anchors; /* window and binary ops */
} dag_case;

static ta_dtype dag_dtype(int dt) { return dt == 1 ? TA_DTYPE_FLOAT32 : dt == 2 ? TA_DTYPE_INT16 : TA_DTYPE_INT8; }

/* An elementwise op on `a` (and b for binary kinds) of shape [1, h, w, c]:
 * its output, quantised as the kind needs. */
static int32_t add_elem(gbox *bx, int dt, ta_op_kind kind, int32_t a, int32_t b, int32_t h, int32_t w, int32_t c) {
    int32_t shape[4] = {1, h, w, c};
    const ta_quant q8 = {1, &k_out_scale, &k_out_zp, 0}, q16 = {1, &k_s16_scale, &k_zero, 0};
    const ta_quant ql = {1, &k_logistic_scale, &k_logistic_zp, 0}, qt = {1, &k_tanh_scale, &k_zero, 0};
    const ta_quant *q = dt == 1 ? NULL : dt == 2 ? &q16 : kind == TA_OP_LOGISTIC ? &ql : kind == TA_OP_TANH ? &qt : &q8;
    /* RELU6 keeps the input's quantisation in TFLM's int8 kernel: give it the same */
    if (dt == 0 && (kind == TA_OP_RELU6 || kind == TA_OP_RELU)) q = ta_graph_tensor(&bx->g, 0, a)->quant.count
                                                                   ? &ta_graph_tensor(&bx->g, 0, a)->quant
                                                                   : &q8;
    const int32_t out = tensor(bx, dag_dtype(dt), 4, shape, 0, NULL, 0, q);
    ta_op_options o = ta_op_options_default();
    if (kind == TA_OP_ADD || kind == TA_OP_SUB || kind == TA_OP_MUL) o.activation = rnd(2) ? TA_ACT_RELU : TA_ACT_NONE;
    const int32_t in[2] = {a, b};
    /* SILU (the SILU rewrite's fusion) names its sigmoid tensor */
    const int32_t sig = kind == TA_OP_SILU ? tensor(bx, dag_dtype(dt), 4, shape, 0, NULL, 0, dt == 1 ? NULL : &ql) : -1;
    ta_op_desc d = {.kind = kind, .inputs = in, .n_inputs = b >= 0 ? 2 : 1, .outputs = &out, .n_outputs = 1, .opt = &o,
                    .intermediates = &sig, .n_intermediates = sig >= 0 ? 1 : 0};
    CHECK(ta_graph_add_op(&bx->g, &d, NULL) == TA_OK);
    return out;
}

/* A random stage of n ops: window ops (not int16), unary elementwise ops
 * and binary ones whose second operand is an earlier tensor of the same
 * shape -- the stage input (held whole) or one the stage made (a skip
 * branch kept across the ops in between). */
static bool build_dag(gbox *b, dag_case *dc, int n) {
    dc->dt = (int)rnd(3);
    const bool f32 = dc->dt == 1;
    const ta_quant qin = {1, &k_in_scale, &k_in_zp, 0}, q16 = {1, &k_s16_scale, &k_zero, 0};
    int32_t h = 6 + (int32_t)rnd(22), w = 1 + (int32_t)rnd(6), c = 1 + (int32_t)rnd(4);
    int32_t shape[4] = {1, h, w, c};
    dc->nt = 1, dc->n_ops = n, dc->anchors = 0;
    dc->t[0] = tensor(b, dag_dtype(dc->dt), 4, shape, 0, NULL, 0, f32 ? NULL : dc->dt == 2 ? &q16 : &qin);
    dc->h[0] = h, dc->w[0] = w, dc->c[0] = c;
    for (int k = 0; k < n; k++) {
        const int32_t cur = dc->t[dc->nt - 1];
        const uint32_t pick = rnd(10);
        int32_t out;
        if (pick < 4 && dc->dt != 2) { /* a window op */
            out = add_window(b, f32, cur, &h, &w, &c);
            if (out < 0) return false;
            ta_patch_rows r;
            if (ta_patch_op_rows(&b->g, (uint32_t)k, &r, NULL) != TA_OK) return false;
            dc->anchors++;
        } else if (pick < 7) { /* unary */
            static const ta_op_kind k8[] = {TA_OP_RELU, TA_OP_RELU6, TA_OP_LOGISTIC, TA_OP_TANH, TA_OP_SILU};
            static const ta_op_kind kf[] = {TA_OP_RELU, TA_OP_RELU6, TA_OP_RELU_N1_TO_1, TA_OP_LOGISTIC, TA_OP_TANH,
                                            TA_OP_SILU};
            const ta_op_kind kind = dc->dt == 2 ? TA_OP_RELU : f32 ? kf[rnd(6)] : k8[rnd(5)];
            out = add_elem(b, dc->dt, kind, cur, -1, h, w, c);
        } else { /* binary: with an earlier tensor of this shape (the latest is cur itself) */
            int32_t other = cur;
            for (int i = dc->nt - 2; i >= 0; i--)
                if (dc->h[i] == h && dc->w[i] == w && dc->c[i] == c && rnd(2)) {
                    other = dc->t[i];
                    break;
                }
            const ta_op_kind kind = dc->dt == 2 ? (rnd(2) ? TA_OP_ADD : TA_OP_SUB)
                                                : (rnd(3) == 0 ? TA_OP_MUL : rnd(2) ? TA_OP_ADD : TA_OP_SUB);
            out = rnd(2) ? add_elem(b, dc->dt, kind, other, cur, h, w, c) : add_elem(b, dc->dt, kind, cur, other, h, w, c);
            dc->anchors++;
        }
        dc->t[dc->nt] = out, dc->h[dc->nt] = h, dc->w[dc->nt] = w, dc->c[dc->nt] = c;
        dc->nt++;
    }
    CHECK(ta_graph_set_io(&b->g, &dc->t[0], 1, &dc->t[dc->nt - 1], 1) == TA_OK);
    return dc->anchors > 0;
}

/* Runs the stage band by band as runtime_patch.c does (ta_patch_dag_rows,
 * ta__op_invoke_band), every intermediate in an allocation of exactly its
 * largest band; short: op `short_op`'s window one row shorter (its halo one
 * row short) when >= 0.  Writes the stage output into out. */
static bool run_dag_bands(const ta_graph *g, const records *rs, void *const *full, void **ptrs, const ta_patch_dag_op *dag0,
                          int n, int32_t bands, int short_op, unsigned char *out, int32_t *max_rows) {
    ta_patch_dag_op dag[32];
    memcpy(dag, dag0, sizeof(ta_patch_dag_op) * (size_t)n);
    if (short_op >= 0) dag[short_op].geo.taps--;
    const int32_t out_h = dag[n - 1].geo.out_h;
    int32_t rows[32][2];
    for (int k = 0; k < n; k++) max_rows[k] = 0;
    for (int32_t bd = 0; bd < bands; bd++) {
        int32_t o0, o1;
        ta_patch_band(out_h, bands, bd, &o0, &o1);
        ta_patch_dag_rows(dag, n, o0, o1, rows);
        for (int k = 0; k < n; k++) {
            CHECK(rows[k][0] < rows[k][1]); /* every op has a reader */
            if (rows[k][1] - rows[k][0] > max_rows[k]) max_rows[k] = rows[k][1] - rows[k][0];
        }
    }
    const ta_subgraph *sg = &g->subgraphs[0];
    void *band_buf[32] = {0};
    size_t row_of[32];
    for (int k = 0; k < n; k++) {
        const ta_op *op = ta_graph_op(g, 0, (uint32_t)k);
        row_of[k] = ta_graph_tensor(g, 0, op->outputs[0])->bytes / (size_t)dag[k].geo.out_h;
        if (k < n - 1) band_buf[k] = malloc((size_t)max_rows[k] * row_of[k]);
    }
    bool ok = true;
    ta_diag d;
    for (int32_t bd = 0; ok && bd < bands; bd++) {
        int32_t o0, o1;
        ta_patch_band(out_h, bands, bd, &o0, &o1);
        ta_patch_dag_rows(dag, n, o0, o1, rows);
        for (int k = 0; ok && k < n; k++) {
            const ta_op *op = ta_graph_op(g, 0, (uint32_t)k);
            int32_t i0, i1, pad;
            ta_patch_in_rows(&dag[k].geo, rows[k][0], rows[k][1], &i0, &i1, &pad);
            const void *in[2] = {NULL, NULL};
            for (int j = 0; j < dag[k].n_src; j++) {
                const int32_t p = dag[k].src[j], t = op->inputs[j];
                const size_t row = ta_graph_tensor(g, 0, t)->bytes / (size_t)dag[k].geo.in_h;
                CHECK(p < 0 || (rows[p][0] <= i0 && i1 <= rows[p][1]));
                in[j] = p < 0 ? (const unsigned char *)full[t] + (size_t)i0 * row
                              : (const unsigned char *)band_buf[p] + (size_t)(i0 - rows[p][0]) * row;
            }
            void *o = k == n - 1 ? out + (size_t)rows[k][0] * row_of[k] : band_buf[k];
            const bool elem = op->kind != TA_OP_CONV_2D && op->kind != TA_OP_DEPTHWISE_CONV_2D &&
                              op->kind != TA_OP_AVERAGE_POOL_2D && op->kind != TA_OP_MAX_POOL_2D;
            const ta__op_band_call bc = {in[0], o, i1 - i0, rows[k][1] - rows[k][0], pad, in[1],
                                         elem ? dag[k].geo.out_h : 0};
            ok = ta__op_invoke_band(&ta_op_list_all, rs->rec[k], ptrs, rs->scratch[k], &bc, &d) == TA_OK;
            if (!ok) fprintf(stderr, "band call: %s\n", d.msg);
        }
    }
    (void)sg;
    for (int k = 0; k < n; k++) free(band_buf[k]);
    return ok;
}

/* One random stage DAG under one band count: layer by layer against band
 * by band, the planner's view (validity, geometry, request sizes) against
 * what prepare derived, and a halo one row short. */
static bool one_dag(int *cases, int *mismatches, int *shorts, int *short_fails) {
    gbox b;
    g_begin(&b);
    dag_case dc;
    const int n = 2 + (int)rnd(7);
    records rs;
    memset(&rs, 0, sizeof rs);
    if (!build_dag(&b, &dc, n) || !prepare_all(&b.g, n, &rs)) {
        records_free(&rs, n);
        g_free(&b);
        return false;
    }
    const ta_graph *g = &b.g;
    const ta_subgraph *sg = &g->subgraphs[0];
    void *full[128] = {0}, *ptrs[128] = {0};
    ta_diag d;
    bool ok = layer_by_layer(g, &rs, n, dc.t[0], dc.dt == 1, full, ptrs, &d);
    CHECK(ok);
    /* the planner's stage: valid, its geometry prepare's */
    ta_patch_dag_op dag[32];
    CHECK(ta_patch_stage_valid(g, NULL, 0, n - 1, 0, dag));
    CHECK(ta_patch_chain(g, NULL, 0, 0) == n - 1);
    for (int k = 0; k < n; k++) {
        int32_t r6[6];
        size_t ir, orow;
        CHECK(ta__op_band_rows(&ta_op_list_all, rs.rec[k], r6, &ir, &orow));
        /* unary elementwise records do not know their rows (0) */
        if (r6[1]) CHECK(r6[0] == dag[k].geo.in_h && r6[1] == dag[k].geo.out_h && r6[2] == dag[k].geo.stride &&
                         r6[3] == dag[k].geo.pad && r6[4] == dag[k].geo.dilation && r6[5] == dag[k].geo.taps);
    }
    const int32_t out_h = dag[n - 1].geo.out_h;
    const int32_t bands = 2 + (int32_t)rnd((uint32_t)(out_h > 9 ? 8 : out_h - 1));
    const int32_t last_t = ta_graph_op(g, 0, (uint32_t)(n - 1))->outputs[0];
    const size_t ob = bytes_of(g, last_t);
    unsigned char *out = malloc(ob);
    int32_t max_rows[32];
    if (bands <= out_h) {
        memset(out, 0xEE, ob);
        ok = run_dag_bands(g, &rs, full, ptrs, dag, n, bands, -1, out, max_rows);
        CHECK(ok);
        (*cases)++;
        if (ok && memcmp(out, full[last_t], ob) != 0) {
            (*mismatches)++;
            fprintf(stderr, "patch: %d-op %s stage in %d bands differs from layer by layer\n", n,
                    dc.dt == 1 ? "float32" : dc.dt == 2 ? "int16" : "int8", bands);
        }
        /* the planner sizes each intermediate as those bands */
        const size_t lb = ta_lifetime_bytes(g, 0);
        void *lm = malloc(lb);
        ta_lifetimes lt;
        ta_lifetime_options lo;
        memset(&lo, 0, sizeof lo);
        size_t nr = 0;
        CHECK(ta_lifetime_analyze(g, NULL, 0, lm, lb, &lt, &d) == TA_OK);
        CHECK(ta_lifetime_requests(g, &lt, &lo, NULL, NULL, 0, &nr, &d) == TA_OK);
        ta_request *reqs = calloc(nr + 1, sizeof *reqs);
        ta_buffer_origin *orig = calloc(nr + 1, sizeof *orig);
        uint8_t *role = malloc(nr + 1);
        CHECK(ta_lifetime_requests(g, &lt, &lo, reqs, orig, nr, &nr, &d) == TA_OK);
        ta_patch_plan pp;
        memset(&pp, 0, sizeof pp);
        pp.n_stages = 1;
        pp.stages[0] = (ta_patch_stage){0, n - 1, bands, 0};
        size_t n_ov = 0;
        CHECK(ta_patch_apply(g, &lt, NULL, &pp, reqs, orig, nr, NULL, &n_ov, role, &d) == TA_OK);
        for (size_t i = 0; i < nr; i++)
            for (int k = 0; k < n - 1; k++) {
                const int32_t t = ta_graph_op(g, 0, (uint32_t)k)->outputs[0];
                if (orig[i].index == sg->tensor_base + (uint32_t)t)
                    CHECK(reqs[i].size == bytes_of(g, t) / (size_t)dag[k].geo.out_h * (size_t)max_rows[k]);
            }
        free(reqs);
        free(orig);
        free(role);
        free(lm);
        /* a halo one row short: a window op with a taller window reads one
         * real row fewer in some band */
        int cand[32], nc = 0;
        for (int k = 0; k < n; k++)
            if (dag[k].geo.taps > 1 && dag[k].geo.taps - 1 > dag[k].geo.pad) cand[nc++] = k;
        if (nc) {
            const int so = cand[rnd((uint32_t)nc)];
            int32_t mr2[32];
            memset(out, 0xEE, ob);
            if (run_dag_bands(g, &rs, full, ptrs, dag, n, bands, so, out, mr2)) {
                (*shorts)++;
                if (memcmp(out, full[last_t], ob) != 0) (*short_fails)++;
            }
        }
    }
    free(out);
    for (uint32_t t = 0; t < sg->n_tensors; t++) free(full[t]);
    records_free(&rs, n);
    g_free(&b);
    return true;
}

int main(void) {
    int cases = 0, mismatches = 0;
    for (int attempt = 0; attempt < 20000 && cases < 1500; attempt++) one_case(&cases, &mismatches);
    printf("  bands: %d random chains (conv, depthwise, pools; int8, float32), %d mismatches\n", cases, mismatches);
    CHECK(cases >= 1000 && mismatches == 0);
    int dags = 0, dag_mismatches = 0, shorts = 0, short_fails = 0;
    for (int attempt = 0; attempt < 20000 && dags < 1500; attempt++) one_dag(&dags, &dag_mismatches, &shorts, &short_fails);
    printf("  dags: %d random stages (window, elementwise and residual ops; int8, float32, int16), %d mismatches; "
           "a halo one row short differs in %d of %d\n",
           dags, dag_mismatches, short_fails, shorts);
    CHECK(dags >= 1000 && dag_mismatches == 0);
    CHECK(shorts > 100 && short_fails * 2 > shorts);
    test_choose();
    return ta_test_finish("test_patch");
}
