/* Synthetic .tflite files (see gen_models.h).
 *
 * The writer lays the buffer out front to back.  A FlatBuffer table starts
 * with a signed offset back to its vtable, so each table is written right
 * after its own vtable; every uoffset (root, table field, vector element)
 * points forward, so it is written as a placeholder and patched when its
 * target is appended.  Everything is 4-byte aligned except the constant
 * data, which gets the schema's 16. */
#include "gen_models.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *b;
    size_t n, cap;
} fbw;

static void w_grow(fbw *w, size_t more) {
    if (w->n + more <= w->cap) return;
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < w->n + more) cap *= 2;
    unsigned char *nb = realloc(w->b, cap);
    if (!nb) {
        fprintf(stderr, "gen_models: out of memory\n");
        exit(2);
    }
    w->b = nb;
    w->cap = cap;
}

static void w_align(fbw *w, size_t a) {
    while (w->n % a) {
        w_grow(w, 1);
        w->b[w->n++] = 0;
    }
}

static size_t w_u32(fbw *w, uint32_t v) {
    w_grow(w, 4);
    size_t at = w->n;
    for (int i = 0; i < 4; i++) w->b[w->n++] = (unsigned char)(v >> (8 * i));
    return at;
}

static void w_put32(fbw *w, size_t at, uint32_t v) {
    for (int i = 0; i < 4; i++) w->b[at + i] = (unsigned char)(v >> (8 * i));
}

/* Points the uoffset at `at` to `target` (which lies after it). */
static void w_patch(fbw *w, size_t at, size_t target) { w_put32(w, at, (uint32_t)(target - at)); }

/* A table field: absent, a 32-bit scalar (a byte-sized field is stored in
 * the low byte of its 4-byte slot), or a uoffset patched later. */
enum { F_NONE, F_U32, F_U8, F_OFF };
typedef struct {
    int kind;
    uint32_t v;
} fld;

#define MAX_SLOTS 8

/* Writes a vtable and its table; pos[slot] gets each field's position
 * (offset fields are placeholders).  Returns the table's position. */
static size_t w_table(fbw *w, int nslots, const fld *f, size_t *pos) {
    w_align(w, 4);
    uint16_t voff[MAX_SLOTS];
    uint16_t tsize = 4;
    for (int s = 0; s < nslots; s++) {
        voff[s] = f[s].kind == F_NONE ? 0 : tsize;
        if (f[s].kind != F_NONE) tsize += 4;
    }
    size_t vt = w->n;
    uint16_t vsize = (uint16_t)(4 + 2 * nslots);
    w_grow(w, vsize + 2u);
    uint16_t hdr[2 + MAX_SLOTS] = {vsize, tsize};
    for (int s = 0; s < nslots; s++) hdr[2 + s] = voff[s];
    for (int k = 0; k < 2 + nslots; k++) {
        w->b[w->n++] = (unsigned char)hdr[k];
        w->b[w->n++] = (unsigned char)(hdr[k] >> 8);
    }
    w_align(w, 4);
    size_t t = w->n;
    w_u32(w, (uint32_t)(t - vt)); /* soffset: vtable = table - this */
    for (int s = 0; s < nslots; s++) {
        if (f[s].kind == F_NONE) {
            if (pos) pos[s] = 0;
            continue;
        }
        size_t at = w_u32(w, f[s].kind == F_OFF ? 0 : f[s].v);
        if (pos) pos[s] = at;
    }
    return t;
}

static size_t w_ivec(fbw *w, const int32_t *v, uint32_t n) {
    w_align(w, 4);
    size_t at = w_u32(w, n);
    for (uint32_t i = 0; i < n; i++) w_u32(w, (uint32_t)v[i]);
    return at;
}

static size_t w_string(fbw *w, const char *s) {
    w_align(w, 4);
    size_t len = strlen(s), at = w_u32(w, (uint32_t)len);
    w_grow(w, len + 1);
    memcpy(w->b + w->n, s, len + 1);
    w->n += len + 1;
    return at;
}

/* A vector of n uoffsets (placeholders); returns the position of element 0. */
static size_t w_offvec(fbw *w, uint32_t n, size_t *count_at) {
    w_align(w, 4);
    size_t c = w_u32(w, n);
    if (count_at) *count_at = c;
    for (uint32_t i = 0; i < n; i++) w_u32(w, 0);
    return c + 4;
}

/* ---- TFLite pieces ------------------------------------------------------ */

enum { OP_ADD = 0, OP_LOGISTIC = 14, OP_CALL = 31 };
enum { OPT_CALL = 16 };

/* Batch dimension of every tensor (the "dynamic" kind writes -1). */
static int32_t g_batch = 1;

/* A tensor table: float32 [batch, 16], buffer `buf`, named; returns its position. */
static size_t w_tensor(fbw *w, uint32_t buf, const char *name) {
    fld f[4] = {{F_OFF, 0}, {F_U8, 0 /* float32 */}, {F_U32, buf}, {F_OFF, 0}};
    size_t pos[4];
    size_t t = w_table(w, 4, f, pos);
    const int32_t shape[2] = {g_batch, 16};
    w_patch(w, pos[0], w_ivec(w, shape, 2));
    w_patch(w, pos[3], w_string(w, name));
    return t;
}

/* An operator table; call_sg >= 0 adds CallOptions{subgraph}. */
static size_t w_op(fbw *w, uint32_t opcode, const int32_t *in, uint32_t nin, const int32_t *out,
                   uint32_t nout, int32_t call_sg) {
    fld f[5] = {{F_U32, opcode}, {F_OFF, 0}, {F_OFF, 0}, {F_NONE, 0}, {F_NONE, 0}};
    if (call_sg >= 0) {
        f[3] = (fld){F_U8, OPT_CALL};
        f[4] = (fld){F_OFF, 0};
    }
    size_t pos[5];
    size_t t = w_table(w, 5, f, pos);
    w_patch(w, pos[1], w_ivec(w, in, nin));
    w_patch(w, pos[2], w_ivec(w, out, nout));
    if (call_sg >= 0) {
        fld o[1] = {{F_U32, (uint32_t)call_sg}};
        w_patch(w, pos[4], w_table(w, 1, o, NULL));
    }
    return t;
}

/* One subgraph's description for the writer. */
typedef struct {
    uint32_t n_tensors;
    uint32_t shared_table; /* 1: every tensor entry points at tensor 0's table */
    uint32_t (*tensor_buf)(uint32_t i, const void *ctx);
    const int32_t *inputs, *outputs;
    uint32_t n_inputs, n_outputs;
    uint32_t n_ops;
    /* op k: opcode index, inputs, outputs, CALL target (-1 none) */
    void (*op)(uint32_t k, const void *ctx, uint32_t *opcode, int32_t *in, uint32_t *nin, int32_t *out,
               uint32_t *nout, int32_t *call_sg);
    const void *ctx;
} sg_desc;

static size_t w_subgraph(fbw *w, const sg_desc *s) {
    fld f[5] = {{F_OFF, 0}, {F_OFF, 0}, {F_OFF, 0}, {F_OFF, 0}, {F_NONE, 0}};
    size_t pos[5];
    size_t t = w_table(w, 5, f, pos);
    size_t cnt;
    size_t tv = w_offvec(w, s->n_tensors, &cnt);
    w_patch(w, pos[0], cnt);
    char name[32];
    size_t first = 0;
    for (uint32_t i = 0; i < s->n_tensors; i++) {
        if (s->shared_table && i > 0) {
            w_patch(w, tv + 4 * i, first);
            continue;
        }
        snprintf(name, sizeof name, "t%u", i);
        size_t tt = w_tensor(w, s->tensor_buf ? s->tensor_buf(i, s->ctx) : 0, name);
        if (i == 0) first = tt;
        w_patch(w, tv + 4 * i, tt);
    }
    w_patch(w, pos[1], w_ivec(w, s->inputs, s->n_inputs));
    w_patch(w, pos[2], w_ivec(w, s->outputs, s->n_outputs));
    size_t ov = w_offvec(w, s->n_ops, &cnt);
    w_patch(w, pos[3], cnt);
    int32_t in[4], out[4];
    for (uint32_t k = 0; k < s->n_ops; k++) {
        uint32_t opcode, nin, nout;
        int32_t call;
        s->op(k, s->ctx, &opcode, in, &nin, out, &nout, &call);
        w_patch(w, ov + 4 * k, w_op(w, opcode, in, nin, out, nout, call));
    }
    return t;
}

/* The model: operator codes (LOGISTIC, ADD, CALL at indices 0, 1, 2), the
 * subgraphs, and buffers (0 empty; 1 with 64 bytes of float zeros when
 * const_buffer). */
static unsigned char *w_model(const sg_desc *sgs, uint32_t n_sgs, bool const_buffer, size_t *len) {
    fbw w = {0};
    size_t root = w_u32(&w, 0);
    w_grow(&w, 4);
    memcpy(w.b + w.n, "TFL3", 4);
    w.n += 4;
    fld f[5] = {{F_U32, 3}, {F_OFF, 0}, {F_OFF, 0}, {F_NONE, 0}, {F_OFF, 0}};
    size_t pos[5];
    size_t m = w_table(&w, 5, f, pos);
    w_patch(&w, root, m);
    /* operator codes */
    static const uint32_t codes[3] = {OP_LOGISTIC, OP_ADD, OP_CALL};
    size_t cnt;
    size_t cv = w_offvec(&w, 3, &cnt);
    w_patch(&w, pos[1], cnt);
    for (uint32_t i = 0; i < 3; i++) {
        fld c[4] = {{F_U8, codes[i]}, {F_NONE, 0}, {F_U32, 1}, {F_U32, codes[i]}};
        w_patch(&w, cv + 4 * i, w_table(&w, 4, c, NULL));
    }
    /* subgraphs */
    size_t sv = w_offvec(&w, n_sgs, &cnt);
    w_patch(&w, pos[2], cnt);
    for (uint32_t i = 0; i < n_sgs; i++) w_patch(&w, sv + 4 * i, w_subgraph(&w, &sgs[i]));
    /* buffers */
    uint32_t nb = const_buffer ? 2 : 1;
    size_t bv = w_offvec(&w, nb, &cnt);
    w_patch(&w, pos[4], cnt);
    w_patch(&w, bv, w_table(&w, 0, NULL, NULL));
    if (const_buffer) {
        fld d[1] = {{F_OFF, 0}};
        size_t dp;
        w_patch(&w, bv + 4, w_table(&w, 1, d, &dp));
        /* data vector: count word, then 16-byte aligned bytes */
        while ((w.n + 4) % 16) w_u32(&w, 0);
        size_t at = w_u32(&w, 64);
        w_grow(&w, 64);
        memset(w.b + w.n, 0, 64);
        w.n += 64;
        w_patch(&w, dp, at);
    }
    w_align(&w, 16);
    *len = w.n;
    return w.b;
}

/* ---- the kinds ---------------------------------------------------------- */

typedef struct {
    uint32_t n;
    uint32_t sg;
    uint32_t n_sgs;
} kctx;

static void op_chain(uint32_t k, const void *ctx, uint32_t *opcode, int32_t *in, uint32_t *nin, int32_t *out,
                     uint32_t *nout, int32_t *call) {
    (void)ctx;
    *opcode = 0;
    in[0] = (int32_t)k;
    out[0] = (int32_t)k + 1;
    *nin = *nout = 1;
    *call = -1;
}

static void op_fan(uint32_t k, const void *ctx, uint32_t *opcode, int32_t *in, uint32_t *nin, int32_t *out,
                   uint32_t *nout, int32_t *call) {
    (void)ctx;
    *opcode = 0;
    in[0] = 0;
    out[0] = (int32_t)k + 1;
    *nin = *nout = 1;
    *call = -1;
}

static void op_call(uint32_t k, const void *vctx, uint32_t *opcode, int32_t *in, uint32_t *nin, int32_t *out,
                    uint32_t *nout, int32_t *call) {
    const kctx *c = vctx;
    bool leaf = c->sg + 1 == c->n_sgs;
    *opcode = leaf ? 0 : 2;
    in[0] = 0;
    out[0] = 1;
    *nin = *nout = 1;
    *call = leaf ? -1 : (int32_t)(c->sg + 1);
}

/* shared: tensor 0 input, 1..n constants (buffer 1), n+1..2n the sums */
static void op_shared(uint32_t k, const void *vctx, uint32_t *opcode, int32_t *in, uint32_t *nin, int32_t *out,
                      uint32_t *nout, int32_t *call) {
    const kctx *c = vctx;
    *opcode = 1;
    in[0] = k == 0 ? 0 : (int32_t)(c->n + k);
    in[1] = (int32_t)(k + 1);
    out[0] = (int32_t)(c->n + k + 1);
    *nin = 2;
    *nout = 1;
    *call = -1;
}

static uint32_t buf_shared(uint32_t i, const void *vctx) {
    const kctx *c = vctx;
    return i >= 1 && i <= c->n ? 1u : 0u;
}

const char *const gen_model_kinds[] = {"chain", "outputs", "calls", "alias", "shared", "dynamic", NULL};

unsigned char *gen_model(const char *kind, uint32_t n, size_t *len) {
    if (!kind || n == 0 || n > 0x1000000u) return NULL;
    static const int32_t zero = 0, one = 1;
    kctx c = {n, 0, 1};
    g_batch = 1;
    if (!strcmp(kind, "dynamic")) {
        g_batch = -1;
        int32_t outv = (int32_t)n;
        sg_desc s = {n + 1, 0, NULL, &zero, &outv, 1, 1, n, op_chain, &c};
        unsigned char *b = w_model(&s, 1, false, len);
        g_batch = 1;
        return b;
    }
    if (!strcmp(kind, "chain")) {
        int32_t outv = (int32_t)n;
        sg_desc s = {n + 1, 0, NULL, &zero, &outv, 1, 1, n, op_chain, &c};
        return w_model(&s, 1, false, len);
    }
    if (!strcmp(kind, "outputs")) {
        int32_t *outs = malloc(n * sizeof *outs);
        if (!outs) return NULL;
        for (uint32_t i = 0; i < n; i++) outs[i] = (int32_t)i + 1;
        sg_desc s = {n + 1, 0, NULL, &zero, outs, 1, n, n, op_fan, &c};
        unsigned char *b = w_model(&s, 1, false, len);
        free(outs);
        return b;
    }
    if (!strcmp(kind, "calls")) {
        uint32_t nsg = n + 1;
        sg_desc *s = calloc(nsg, sizeof *s);
        kctx *cs = calloc(nsg, sizeof *cs);
        if (!s || !cs) {
            free(s);
            free(cs);
            return NULL;
        }
        for (uint32_t k = 0; k < nsg; k++) {
            cs[k] = (kctx){n, k, nsg};
            s[k] = (sg_desc){2, 0, NULL, &zero, &one, 1, 1, 1, op_call, &cs[k]};
        }
        unsigned char *b = w_model(s, nsg, false, len);
        free(s);
        free(cs);
        return b;
    }
    if (!strcmp(kind, "alias")) {
        sg_desc s = {n + 1, 1, NULL, &zero, &one, 1, 1, 1, op_chain, &c};
        return w_model(&s, 1, false, len);
    }
    if (!strcmp(kind, "shared")) {
        int32_t outv = (int32_t)(2 * n);
        sg_desc s = {2 * n + 1, 0, buf_shared, &zero, &outv, 1, 1, n, op_shared, &c};
        return w_model(&s, 1, true, len);
    }
    return NULL;
}
