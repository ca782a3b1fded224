/* The SLICE rewrite's rejoin (rewrite.h, pass 1): a CONCATENATION whose
 * consecutive inputs are stride-1 STRIDED_SLICEs tiling one tensor along
 * its axis reads that tensor instead, and a slice nothing else reads
 * disappears (its output ELIDED).  Random graphs (rank 2-4, any axis, 2-3
 * slices with random cuts, other concat inputs before and after the run,
 * int8 / int16 / float32, a slice kept for a second reader now and then)
 * executed op by op on private buffers through the real prepare and
 * kernels, the rewritten graph's concat output byte-identical to the
 * original's; and graphs that must not rejoin (slices out of order, a gap,
 * a slice short of the axis's end, a stride of 2, two sources) keep
 * their ops and inputs. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "runtime/ops.h"
#include "testutil.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/ops.h"
#include "tinyarena/rewrite.h"

#define MAXT 48

static uint64_t g_seed = 0x5e1f;
static int32_t rnd(int32_t n) { return n > 0 ? (int32_t)(ta__rng_next(&g_seed) % (uint64_t)n) : 0; }

static const float k_scale[1] = {0.05f};
static const int64_t k_zp = -3;

typedef struct {
    ta_graph g;
    void *mem;
    ta_dtype dt;
    int32_t consts[MAXT][5];
    int nconst;
} gbox;

static void g_begin(gbox *b, ta_dtype dt) {
    memset(b, 0, sizeof *b);
    ta_graph_limits lim = {.subgraphs = 1, .tensors = MAXT, .ops = MAXT, .indices = 4 * MAXT, .dims = 8 * MAXT};
    const size_t need = ta_graph_bytes(&lim);
    b->mem = malloc(need);
    b->dt = dt;
    CHECK(ta_graph_init(&b->g, &lim, b->mem, need) == TA_OK);
    CHECK(ta_graph_add_subgraph(&b->g, "main", NULL) == TA_OK);
}

static int32_t tensor(gbox *b, int32_t rank, const int32_t *shape, int q) {
    ta_tensor_desc d = {.name = "t", .dtype = b->dt, .rank = rank, .shape = shape};
    if (b->dt == TA_DTYPE_INT8) d.quant = (ta_quant){1, &k_scale[q], &k_zp, 0};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

static int32_t c32(gbox *b, const int32_t *v, int32_t n) {
    int32_t *keep = b->consts[b->nconst++];
    memcpy(keep, v, sizeof(int32_t) * (size_t)n);
    ta_tensor_desc d = {.name = "c", .dtype = TA_DTYPE_INT32, .rank = 1, .shape = &n, .flags = TA_TENSOR_CONST,
                        .data = keep, .data_bytes = sizeof(int32_t) * (size_t)n};
    int32_t id = -1;
    CHECK(ta_graph_add_tensor(&b->g, &d, &id) == TA_OK);
    return id;
}

/* y = x[.., lo:hi:stride, ..] along `axis` (whole elsewhere) */
static int32_t slice(gbox *b, int32_t x, int32_t axis, int32_t lo, int32_t hi, int32_t stride, int q) {
    const ta_tensor *xt = ta_graph_tensor(&b->g, 0, x);
    const int32_t r = xt->rank;
    int32_t beg[4] = {0}, end[4], str[4], shape[4];
    for (int32_t a = 0; a < r; a++) {
        end[a] = xt->shape[a];
        str[a] = 1;
        shape[a] = xt->shape[a];
    }
    beg[axis] = lo;
    end[axis] = hi;
    str[axis] = stride;
    shape[axis] = (hi - lo + stride - 1) / stride;
    const int32_t y = tensor(b, r, shape, q);
    int32_t in[4] = {x, c32(b, beg, r), c32(b, end, r), c32(b, str, r)};
    ta_op_options o = ta_op_options_default();
    ta_op_desc d = {.kind = TA_OP_STRIDED_SLICE, .inputs = in, .n_inputs = 4, .outputs = &y, .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &d, NULL) == TA_OK);
    return y;
}

static void concat(gbox *b, const int32_t *in, uint32_t n, int32_t y, int32_t axis) {
    ta_op_options o = ta_op_options_default();
    o.axis = axis;
    ta_op_desc d = {.kind = TA_OP_CONCATENATION, .inputs = in, .n_inputs = n, .outputs = &y, .n_outputs = 1, .opt = &o};
    CHECK(ta_graph_add_op(&b->g, &d, NULL) == TA_OK);
}

/* Runs subgraph 0 op by op on private buffers (graph inputs from `in`,
 * one per input in order); returns tensor `want`'s bytes (malloc'd). */
static unsigned char *execute(const ta_graph *g, unsigned char *const *in, int32_t want) {
    const ta_subgraph *s = &g->subgraphs[0];
    void *ptrs[MAXT] = {0};
    unsigned char *own[MAXT] = {0};
    for (uint32_t t = 0; t < s->n_tensors; t++) {
        const ta_tensor *tt = ta_graph_tensor(g, 0, (int32_t)t);
        if (tt->flags & TA_TENSOR_CONST) ptrs[t] = (void *)tt->data;
        else if (!(tt->flags & TA_TENSOR_ELIDED)) ptrs[t] = own[t] = calloc(1, tt->bytes + 1);
    }
    for (uint32_t i = 0; i < s->n_inputs; i++) memcpy(ptrs[s->inputs[i]], in[i], ta_graph_tensor(g, 0, s->inputs[i])->bytes);
    for (uint32_t k = 0; k < s->n_ops; k++) {
        ta__op_info info;
        ta_diag d;
        CHECK(ta__op_prepare(g, 0, k, NULL, 0, &info, &d) == TA_OK);
        void *rec = aligned_alloc(8, (info.data_bytes + 7) & ~(size_t)7);
        CHECK(ta__op_prepare(g, 0, k, rec, info.data_bytes, &info, &d) == TA_OK);
        CHECK(ta__op_invoke_checked(&ta_op_list_all, rec, ptrs, NULL, NULL, true, &d) == TA_OK);
        free(rec);
    }
    const size_t n = ta_graph_tensor(g, 0, want)->bytes;
    unsigned char *out = malloc(n);
    memcpy(out, ptrs[want], n);
    for (uint32_t t = 0; t < s->n_tensors; t++) free(own[t]);
    return out;
}

static void rewrite(const ta_graph *g, ta_graph *out, void **mem, ta_rewrite_stats *st) {
    ta_op_kind_set ip;
    ta_op_list_inplace_kinds(&ta_op_list_all, &ip);
    const size_t need = ta_rewrite_graph_bytes(g, TA_REWRITE_SLICE);
    *mem = malloc(need);
    memset(st, 0, sizeof *st);
    ta_diag d;
    CHECK(ta_rewrite_graph(g, TA_REWRITE_SLICE, &ip, *mem, need, out, st, &d) == TA_OK);
}

/* kinds: 0 a tiling run (rejoined), 1 out of order, 2 a gap, 3 short of
 * the end (the last slice stops early), 4 stride 2, 5 two sources */
static void one(int kind, int *rejoined, int *kept, int *elided) {
    static const ta_dtype dts[3] = {TA_DTYPE_INT8, TA_DTYPE_INT16, TA_DTYPE_FLOAT32};
    gbox b;
    g_begin(&b, dts[rnd(3)]);
    const int32_t r = 2 + rnd(3), axis = rnd(r);
    int32_t shape[4];
    for (int32_t a = 0; a < r; a++) shape[a] = 1 + rnd(4);
    if (shape[axis] < 4) shape[axis] = 4 + rnd(4);
    const int32_t n = shape[axis];
    const int32_t x = tensor(&b, r, shape, 0), x2 = tensor(&b, r, shape, 0);
    int32_t zs[4];
    memcpy(zs, shape, sizeof zs);
    zs[axis] = 1 + rnd(3);
    const int32_t zb = tensor(&b, r, zs, 0), za = tensor(&b, r, zs, 0);
    /* cuts: 2 or 3 slices covering 0 .. n */
    const int32_t m = 2 + rnd(2);
    int32_t cut[4] = {0, 0, 0, n};
    cut[1] = 1 + rnd(n - 2);
    cut[2] = m == 3 ? cut[1] + 1 + rnd(n - cut[1] - 1) : n;
    if (m == 2) cut[2] = n;
    int32_t sl[3];
    for (int32_t i = 0; i < m; i++) {
        const int32_t lo = cut[i], hi = i == m - 1 ? n : cut[i + 1];
        const int32_t src = kind == 5 && i == m - 1 ? x2 : x;
        int32_t h = kind == 3 && i == m - 1 ? hi - 1 : hi;
        int32_t l = kind == 2 && i == m - 1 ? lo + 1 : lo;
        if (h <= l) h = hi, l = lo, kind = 0; /* no room to break it: a tiling run after all */
        sl[i] = slice(&b, src, axis, l, h, kind == 4 && i == 0 && h - l > 1 ? 2 : 1, 0);
    }
    if (kind == 4 && cut[1] - cut[0] < 2) kind = 0; /* no stride 2 fitted: a tiling run after all */
    if (kind == 1) { /* swap the first two */
        const int32_t t = sl[0];
        sl[0] = sl[1];
        sl[1] = t;
    }
    int32_t in[6], k = 0, ysh[4];
    const bool before = rnd(2), after = rnd(2);
    if (before) in[k++] = zb;
    for (int32_t i = 0; i < m; i++) in[k++] = sl[i];
    if (after) in[k++] = za;
    memcpy(ysh, shape, sizeof ysh);
    ysh[axis] = 0;
    for (int32_t i = 0; i < k; i++) ysh[axis] += ta_graph_tensor(&b.g, 0, in[i])->shape[axis];
    const int32_t y = tensor(&b, r, ysh, 0);
    concat(&b, in, (uint32_t)k, y, rnd(2) ? axis : axis - r);
    /* a slice with a second reader (a graph output) stays */
    const bool keep = rnd(3) == 0;
    int32_t outs[2] = {y, sl[0]};
    const int32_t gin[4] = {x, x2, zb, za};
    CHECK(ta_graph_set_io(&b.g, gin, 4, outs, keep ? 2 : 1) == TA_OK);
    ta_diag d;
    if (ta_graph_validate(&b.g, &d) != TA_OK) {
        free(b.mem);
        return;
    }
    ta_graph g2;
    void *m2;
    ta_rewrite_stats st;
    rewrite(&b.g, &g2, &m2, &st);
    /* the structure */
    const ta_op *c2 = NULL;
    uint32_t slices_left = 0;
    for (uint32_t q = 0; q < g2.subgraphs[0].n_ops; q++) {
        const ta_op *o = ta_graph_op(&g2, 0, q);
        if (o->kind == TA_OP_CONCATENATION) c2 = o;
        slices_left += o->kind == TA_OP_STRIDED_SLICE;
    }
    CHECK(c2 != NULL);
    if (!c2) {
        free(m2);
        free(b.mem);
        return;
    }
    if (kind == 0) {
        CHECK(st.slices_rejoined == 1);
        CHECK(c2->n_inputs == (uint32_t)(k - m + 1));
        CHECK(c2->inputs[before ? 1 : 0] == x);
        CHECK(slices_left == (uint32_t)(keep ? 1 : 0));
        for (int32_t i = 0; i < m; i++) {
            const bool gone = (ta_graph_tensor(&g2, 0, sl[i])->flags & TA_TENSOR_ELIDED) != 0;
            CHECK(gone == !(keep && i == 0));
            *elided += gone;
        }
        (*rejoined)++;
    } else {
        CHECK(st.slices_rejoined == 0);
        CHECK(c2->n_inputs == (uint32_t)k && slices_left == (uint32_t)m);
        (*kept)++;
    }
    /* the bytes */
    unsigned char *ins[4];
    for (int i = 0; i < 4; i++) {
        const size_t nb = ta_graph_tensor(&b.g, 0, gin[i])->bytes;
        ins[i] = malloc(nb);
        for (size_t j = 0; j < nb; j++) ins[i][j] = (unsigned char)rnd(256);
        if (b.dt == TA_DTYPE_FLOAT32) /* finite floats: small integers */
            for (size_t j = 0; j + 4 <= nb; j += 4) {
                const float f = (float)(rnd(200) - 100);
                memcpy(ins[i] + j, &f, 4);
            }
    }
    unsigned char *o1 = execute(&b.g, ins, y), *o2 = execute(&g2, ins, y);
    CHECK(memcmp(o1, o2, ta_graph_tensor(&b.g, 0, y)->bytes) == 0);
    free(o1);
    free(o2);
    for (int i = 0; i < 4; i++) free(ins[i]);
    free(m2);
    free(b.mem);
}

int main(void) {
    int rejoined = 0, kept = 0, elided = 0;
    for (int iter = 0; iter < 1400; iter++) one(iter % 2 ? 0 : 1 + rnd(5), &rejoined, &kept, &elided);
    CHECK(rejoined > 700 && kept > 500 && elided > rejoined);
    printf("  %d concatenations rejoined (%d slices gone), %d kept, every output byte-identical\n", rejoined, elided,
           kept);
    return ta_test_finish("test_slice_rejoin");
}
