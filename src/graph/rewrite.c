/* Rewrites that lower what must be live without changing an output bit
 * (see rewrite.h for when each applies and why it is exact). */
#include <string.h>

#include "common/util.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/walk.h"

/* ---- flag names ----------------------------------------------------------- */

static const struct {
    const char *name;
    uint32_t flag;
} k_names[] = {{"alias", TA_REWRITE_ALIAS},
               {"inplace", TA_REWRITE_INPLACE},
               {"fusepad", TA_REWRITE_FUSEPAD},
               {"order", TA_REWRITE_ORDER},
               {"overlap", TA_REWRITE_OVERLAP},
               {"dwinplace", TA_REWRITE_DWINPLACE},
               {"concat", TA_REWRITE_CONCAT},
               {"slice", TA_REWRITE_SLICE}};
#define N_NAMES (sizeof k_names / sizeof k_names[0])

ta_status ta_rewrite_parse(const char *list, uint32_t *flags, ta_diag *d) {
    if (!list || !flags) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite list: NULL argument");
    uint32_t f = 0;
    const char *p = list;
    for (;;) {
        const char *e = strchr(p, ',');
        const size_t n = e ? (size_t)(e - p) : strlen(p);
        bool known = false;
        if (n == 3 && !strncmp(p, "all", 3)) f |= TA_REWRITE_ALL, known = true;
        else if (n == 4 && !strncmp(p, "none", 4)) known = true;
        for (size_t k = 0; k < N_NAMES && !known; k++)
            if (strlen(k_names[k].name) == n && !strncmp(p, k_names[k].name, n)) f |= k_names[k].flag, known = true;
        if (!known) {
            char word[41];
            const size_t m = n < sizeof word - 1 ? n : sizeof word - 1;
            memcpy(word, p, m);
            word[m] = '\0';
            return ta_diag_set(d, TA_E_INVALID_ARG, "unknown rewrite '%s' (alias, inplace, fusepad, order, overlap, dwinplace, concat, slice, all, none)", word);
        }
        if (!e) break;
        p = e + 1;
    }
    *flags = f;
    return TA_OK;
}

const char *ta_rewrite_names(uint32_t flags, char *buf, size_t len) {
    if (!buf || !len) return buf;
    buf[0] = '\0';
    size_t at = 0;
    for (size_t k = 0; k < N_NAMES; k++) {
        if (!(flags & k_names[k].flag)) continue;
        const char *w = k_names[k].name;
        if (at && at + 1 < len) buf[at++] = ',';
        for (; *w && at + 1 < len; w++) buf[at++] = *w;
        buf[at] = '\0';
    }
    if (!at) {
        const char *w = "none";
        for (; *w && at + 1 < len; w++) buf[at++] = *w;
        buf[at] = '\0';
    }
    return buf;
}

/* ---- shared helpers ------------------------------------------------------- */

static const ta_tensor *tensor0(const ta_graph *g, int32_t local) {
    return local >= 0 ? ta_graph_tensor(g, 0, local) : NULL;
}

static int32_t zp_of(const ta_tensor *t) {
    return t->quant.count && t->quant.zero_point ? (int32_t)t->quant.zero_point[0] : 0;
}

/* Ops whose effect is more than their outputs (subgraphs, resource
 * variables: an ASSIGN_VARIABLE must stay after the READ_VARIABLE before
 * it): never reordered, aliased or run in place. */
static bool control_flow(const ta_op *op) {
    return op->kind == TA_OP_IF || op->kind == TA_OP_WHILE || op->kind == TA_OP_CALL_ONCE ||
           op->kind == TA_OP_CALL || op->kind == TA_OP_VAR_HANDLE || op->kind == TA_OP_READ_VARIABLE ||
           op->kind == TA_OP_ASSIGN_VARIABLE;
}

/* Uses (as an op input) and producers of each tensor of subgraph 0; `last_user`
 * is the last op reading it (meaningful when uses == 1).  Counts saturate. */
typedef struct {
    uint16_t *uses, *producers;
    uint32_t *last_user;
} tensor_usage;

static void count_usage(const ta_graph *g, tensor_usage *u) {
    const ta_subgraph *s = &g->subgraphs[0];
    memset(u->uses, 0, s->n_tensors * sizeof *u->uses);
    memset(u->producers, 0, s->n_tensors * sizeof *u->producers);
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        for (uint32_t i = 0; i < op->n_inputs; i++) {
            const int32_t t = op->inputs[i];
            if (t < 0 || (uint32_t)t >= s->n_tensors) continue;
            if (u->uses[t] < UINT16_MAX) u->uses[t]++;
            u->last_user[t] = k;
        }
        for (uint32_t i = 0; i < op->n_outputs; i++) {
            const int32_t t = op->outputs[i];
            if (t >= 0 && (uint32_t)t < s->n_tensors && u->producers[t] < UINT16_MAX) u->producers[t]++;
        }
    }
}


static bool same_shape(const ta_tensor *a, const ta_tensor *b) {
    if (a->rank != b->rank) return false;
    for (int32_t i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i]) return false;
    return true;
}

/* Elementwise-compatible: the same element count and element size, a type
 * with whole-byte elements. */
static bool same_elements(const ta_tensor *a, const ta_tensor *b) {
    const size_t ea = ta_dtype_size(a->dtype), eb = ta_dtype_size(b->dtype);
    return ea && ea == eb && a->dtype != TA_DTYPE_INT4 && b->dtype != TA_DTYPE_INT4 &&
           ta_tensor_elements(a) == ta_tensor_elements(b) && a->bytes == b->bytes;
}

/* Whether op's output may be written over its input i as far as the op
 * itself goes: its kind is in `inplace` (the runtime's op table knows which
 * kernels read element i before writing it: ta_op_list_inplace_kinds; the
 * graph layer does not), shapes (no broadcasting), element count and size.
 * Whether that input's bytes are still needed is the caller's question. */
static bool inplace_candidate(const ta_graph *g, const ta_op_kind_set *inplace, const ta_op *op, uint32_t i) {
    if (!ta_op_kind_set_has(inplace, op->kind) || op->n_outputs != 1 || i >= op->n_inputs) return false;
    const ta_tensor *y = tensor0(g, op->outputs[0]), *x = tensor0(g, op->inputs[i]);
    if (!x || !y || op->inputs[i] == op->outputs[0] || !ta_lifetime_is_planned(x) || !same_elements(x, y)) return false;
    if (op->n_inputs == 2) {
        /* a binary op: every input exactly the output's shape, so the kernel
         * reads element i of each before writing element i */
        const ta_tensor *a = tensor0(g, op->inputs[0]), *c = tensor0(g, op->inputs[1]);
        return a && c && same_shape(a, y) && same_shape(c, y) && a->dtype == y->dtype && c->dtype == y->dtype;
    }
    return op->n_inputs == 1;
}

/* RESHAPE-like: the output may share the input's bytes (same dtype, same bytes). */
static bool alias_candidate(const ta_graph *g, const ta_op *op) {
    if (op->kind != TA_OP_RESHAPE && op->kind != TA_OP_SQUEEZE && op->kind != TA_OP_EXPAND_DIMS) return false;
    if (op->n_outputs != 1 || op->n_inputs < 1 || op->inputs[0] == op->outputs[0]) return false;
    const ta_tensor *x = tensor0(g, op->inputs[0]), *y = tensor0(g, op->outputs[0]);
    return x && y && ta_lifetime_is_planned(x) && ta_lifetime_is_planned(y) && x->dtype == y->dtype && x->bytes == y->bytes;
}

/* ---- pass 1: FUSEPAD (and ORDER) ------------------------------------------ */

/* The search keeps this many states per step; the model's own order wins
 * unless a strictly lower peak is found.  Subgraphs with more ops keep it.
 * A trail entry packs a state's parent (6 bits) and op position (10 bits),
 * so that the search's memory stays small next to the graph's. */
#define ORDER_BEAM 64u
#define ORDER_MAX_OPS 1024u
_Static_assert(ORDER_BEAM <= 64u && ORDER_MAX_OPS <= 1024u, "a trail entry holds 6 + 10 bits");

/* Buffers are tensors of subgraph 0 (with ALIAS, a RESHAPE's output is its
 * input's buffer); positions are the kept ops in the model's order. */
typedef struct order_s {
    uint32_t n, w;              /* positions, 64-bit words per op set */
    uint32_t *op;               /* position -> op index */
    int32_t *buf, *prod;        /* per tensor: its buffer (-1: no bytes), producing position (-1: none) */
    size_t *size;               /* per buffer: padded bytes (largest member) */
    uint8_t *out;               /* per buffer: holds a graph output (needed to the end) */
    uint32_t *cs, *cons;        /* per buffer: reading positions, CSR (cs has n_t + 1) */
    uint32_t *is, *ins;         /* per position: distinct buffers read */
    uint32_t *os, *outs;        /* per position: buffers it creates */
    uint32_t *ps, *pins;        /* per position: buffers it may write in place over */
    size_t *credit;             /* per position: bytes such a write saves */
    uint64_t *preds, *zob;      /* per position: predecessor set; hash key */
    uint64_t *set[2], *hash[2]; /* beam levels: op sets and their hashes */
    size_t *peak[2], *live[2];  /* per state: peak so far, bytes resident */
    uint16_t *trail;            /* per step and state: parent << 10 | op position */
} order_search;

static void carve_order(ta__bump *b, const ta_graph *g, order_search *o);
static bool walk_geometry(const ta_graph *g, const ta_op *op, ta_conv_geometry *cg);

typedef struct {
    ta_graph_limits lim;    /* of the new graph: what g uses */
    uint8_t *fused;         /* per op of subgraph 0: a PAD folded into its conv */
    int32_t *conv_src;      /* per op: the tensor a fused conv reads, or -1 */
    int32_t *conv_pad;      /* per op: top, bottom, left, right of a fused conv */
    uint32_t *order;        /* execution order: op indices of subgraph 0 */
    uint8_t *dwip;          /* per op: a depthwise conv DWINPLACE marks in place */
    int32_t *dw_first, *dw_last, *dw_root, *dw_until; /* DWINPLACE's profile: per tensor (carved with the flag) */
    size_t *dw_size, *dw_live, *dw_scr;               /* per tensor: padded bytes; per step: live deltas, scratch */
    uint8_t *dw_on;                                   /* per position: a mark kept while choosing */
    int64_t *dw_d;    /* per op: OVERLAP's walk d (tensor bytes) when its walk tolerates overlap, else -1 */
    size_t *dw_ovl;   /* per step: bytes the overlap relations save */
    size_t *dw_at;    /* per tensor: its byte offset in its group (pass 2's buffer_at) */
    tensor_usage u;
    void *graph_mem;
    size_t graph_bytes;
    order_search o;              /* ORDER's search (carved with TA_REWRITE_ORDER only) */
    const ta_op_kind_set *inplace; /* kinds that may run in place (INPLACE in ORDER's costs) */
} pass1_work;

static bool carve1(ta__bump *b, const ta_graph *g, uint32_t flags, pass1_work *p) {
    memset(&p->lim, 0, sizeof p->lim);
    p->lim.subgraphs = g->n_subgraphs;
    p->lim.tensors = g->n_tensors;
    p->lim.ops = g->n_ops;
    p->lim.indices = g->index_used;
    p->lim.dims = g->dim_used;
    /* lim.words stays 0: the new graph points at g's word-pool copies. */
    const uint32_t n_ops = g->n_subgraphs ? g->subgraphs[0].n_ops : 0;
    const uint32_t n_t = g->n_subgraphs ? g->subgraphs[0].n_tensors : 0;
    p->graph_bytes = ta_graph_bytes(&p->lim);
    if (!p->graph_bytes) return false;
    p->graph_mem = ta__bump_take(b, 1, p->graph_bytes);
    p->fused = ta__bump_take(b, n_ops, 1);
    p->conv_src = ta__bump_take(b, n_ops, sizeof(int32_t));
    p->conv_pad = ta__bump_take(b, n_ops, 4 * sizeof(int32_t));
    p->order = ta__bump_take(b, n_ops, sizeof(uint32_t));
    p->dwip = ta__bump_take(b, n_ops, 1);
    p->dw_first = p->dw_last = p->dw_root = p->dw_until = NULL;
    p->dw_size = p->dw_live = p->dw_scr = NULL;
    p->dw_on = NULL;
    p->dw_d = NULL;
    p->dw_ovl = NULL;
    p->dw_at = NULL;
    if (flags & TA_REWRITE_DWINPLACE) {
        p->dw_at = ta__bump_take(b, n_t, sizeof(size_t));
        p->dw_d = ta__bump_take(b, n_ops, sizeof(int64_t));
        p->dw_ovl = ta__bump_take(b, (size_t)n_ops + 2, sizeof(size_t));
        p->dw_first = ta__bump_take(b, n_t, sizeof(int32_t));
        p->dw_last = ta__bump_take(b, n_t, sizeof(int32_t));
        p->dw_root = ta__bump_take(b, n_t, sizeof(int32_t));
        p->dw_until = ta__bump_take(b, n_t, sizeof(int32_t));
        p->dw_size = ta__bump_take(b, n_t, sizeof(size_t));
        p->dw_live = ta__bump_take(b, (size_t)n_ops + 2, sizeof(size_t));
        p->dw_scr = ta__bump_take(b, (size_t)n_ops + 2, sizeof(size_t));
        p->dw_on = ta__bump_take(b, n_ops, 1);
    }
    p->u.uses = ta__bump_take(b, n_t, sizeof(uint16_t));
    p->u.producers = ta__bump_take(b, n_t, sizeof(uint16_t));
    p->u.last_user = ta__bump_take(b, n_t, sizeof(uint32_t));
    memset(&p->o, 0, sizeof p->o);
    if ((flags & TA_REWRITE_ORDER) && n_ops <= ORDER_MAX_OPS) carve_order(b, g, &p->o);
    return !b->fail;
}

size_t ta_rewrite_graph_bytes(const ta_graph *g, uint32_t flags) {
    if (!g) return 0;
    ta__bump b;
    pass1_work p;
    ta__bump_init(&b, NULL, 0);
    if (!carve1(&b, g, flags, &p)) return 0;
    return ta__bump_need(&b);
}

size_t ta_rewrite_graph_keep_bytes(const ta_graph *g) {
    if (!g) return 0;
    ta__bump b;
    pass1_work p;
    ta__bump_init(&b, NULL, 0);
    if (!carve1(&b, g, 0, &p)) return 0;
    return 16 + p.graph_bytes; /* the block's alignment, then the graph (carved first) */
}

/* A constant's bytes, when it has at least `n` of them. */
static const void *const_data(const ta_tensor *t, size_t n) {
    return t && (t->flags & TA_TENSOR_CONST) && t->data && t->data_bytes >= n ? t->data : NULL;
}

static bool same_quant(const ta_tensor *a, const ta_tensor *b) {
    if (a->quant.count != 1 || b->quant.count != 1 || !a->quant.scale || !b->quant.scale) return false;
    return memcmp(a->quant.scale, b->quant.scale, sizeof(float)) == 0 && zp_of(a) == zp_of(b);
}

/* Every float of a constant is finite (0 * w is then +-0, never NaN). */
static bool all_finite(const ta_tensor *w) {
    if (!w || w->dtype != TA_DTYPE_FLOAT32) return false;
    const uint64_t n = ta_tensor_elements(w);
    if (n > SIZE_MAX / 4) return false;
    const unsigned char *p = const_data(w, (size_t)n * 4);
    if (!p) return false;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t bits;
        memcpy(&bits, p + 4 * i, 4);
        if ((bits & 0x7F800000u) == 0x7F800000u) return false; /* inf or NaN */
    }
    return true;
}

/* Whether PAD op `k` of subgraph 0 folds into the conv reading its output;
 * on success *conv gets that conv's index and pad[4] the amounts
 * (top, bottom, left, right).  The conditions are rewrite.h's. */
static bool fusable_pad(const ta_graph *g, const tensor_usage *u, uint32_t k, uint32_t *conv, int32_t pad[4]) {
    const ta_subgraph *s = &g->subgraphs[0];
    const ta_op *op = &g->ops[s->op_base + k];
    if (op->kind != TA_OP_PAD && op->kind != TA_OP_PADV2) return false;
    if (op->n_outputs != 1 || op->n_inputs < 2 || op->n_inputs > (op->kind == TA_OP_PADV2 ? 3u : 2u)) return false;
    const int32_t xi = op->inputs[0], yi = op->outputs[0];
    const ta_tensor *x = tensor0(g, xi), *y = tensor0(g, yi), *pads = tensor0(g, op->inputs[1]);
    if (!x || !y || !pads || xi == yi) return false;
    if ((x->flags & (TA_TENSOR_CONST | TA_TENSOR_VARIABLE)) ||
        (y->flags & (TA_TENSOR_CONST | TA_TENSOR_VARIABLE | TA_TENSOR_INPUT | TA_TENSOR_OUTPUT)))
        return false;
    if (u->uses[yi] != 1 || u->producers[yi] != 1) return false;
    /* the one reader: a VALID conv taking y as its data input */
    const uint32_t c = u->last_user[yi];
    const ta_op *cv = &g->ops[s->op_base + c];
    if ((cv->kind != TA_OP_CONV_2D && cv->kind != TA_OP_DEPTHWISE_CONV_2D) || cv->n_inputs < 2 || cv->n_inputs > 8 ||
        cv->inputs[0] != yi || cv->opt.padding != TA_PAD_VALID)
        return false;
    /* shapes: 4-D, same dtype, only height and width padded */
    if (x->rank != 4 || y->rank != 4 || x->dtype != y->dtype) return false;
    if (x->dtype != TA_DTYPE_INT8 && x->dtype != TA_DTYPE_FLOAT32) return false;
    if (pads->dtype != TA_DTYPE_INT32 || ta_tensor_elements(pads) != 8) return false;
    const unsigned char *pd = const_data(pads, 32);
    if (!pd) return false;
    int32_t pv[8];
    memcpy(pv, pd, sizeof pv);
    if (pv[0] || pv[1] || pv[6] || pv[7]) return false;
    for (int i = 2; i < 6; i++)
        if (pv[i] < 0) return false;
    if ((int64_t)x->shape[0] != y->shape[0] || (int64_t)x->shape[3] != y->shape[3] ||
        (int64_t)x->shape[1] + pv[2] + pv[3] != y->shape[1] || (int64_t)x->shape[2] + pv[4] + pv[5] != y->shape[2])
        return false;
    /* the pad value is what the conv's implicit padding stands for */
    const ta_tensor *cvt = op->n_inputs == 3 ? tensor0(g, op->inputs[2]) : NULL;
    if (x->dtype == TA_DTYPE_INT8) {
        if (!same_quant(x, y)) return false;
        if (cvt) {
            const int8_t *v = const_data(cvt, 1);
            if (!v || cvt->dtype != TA_DTYPE_INT8 || *v != zp_of(y)) return false;
        }
    } else {
        if (cvt) {
            const unsigned char *v = const_data(cvt, 4);
            uint32_t bits;
            if (!v || cvt->dtype != TA_DTYPE_FLOAT32) return false;
            memcpy(&bits, v, 4);
            if ((bits & 0x7FFFFFFFu) != 0) return false; /* +0.0 or -0.0 only */
        }
        if (!all_finite(tensor0(g, cv->inputs[1]))) return false;
    }
    *conv = c;
    pad[0] = pv[2];
    pad[1] = pv[3];
    pad[2] = pv[4];
    pad[3] = pv[5];
    return true;
}

/* ---- DWINPLACE: which depthwise convs may run over their input ------------ */

/* Whether depthwise op `k` of subgraph 0, reading data tensor `xi` (the
 * PAD's input when FUSEPAD folded one into it), may write its output over
 * xi (rewrite.h gives the conditions and why).  The graph-level half: the
 * buffers' half (xi's buffer is needed until exactly this op) is pass 2's. */
static bool dwinplace_candidate(const ta_graph *g, uint32_t flags, const tensor_usage *u, uint32_t k, int32_t xi) {
    const ta_subgraph *s = &g->subgraphs[0];
    const ta_op *op = &g->ops[s->op_base + k];
    if (op->kind != TA_OP_DEPTHWISE_CONV_2D || op->n_outputs != 1 || op->n_inputs < 2) return false;
    const int32_t yi = op->outputs[0];
    const ta_tensor *x = tensor0(g, xi), *y = tensor0(g, yi), *f = tensor0(g, op->inputs[1]);
    if (!x || !y || !f || xi == yi || !ta_lifetime_is_planned(x) || !ta_lifetime_is_planned(y)) return false;
    if ((x->flags & (TA_TENSOR_CONST | TA_TENSOR_VARIABLE | TA_TENSOR_OUTPUT)) ||
        (y->flags & (TA_TENSOR_CONST | TA_TENSOR_VARIABLE | TA_TENSOR_INPUT)))
        return false;
    if (x->dtype != y->dtype || (x->dtype != TA_DTYPE_INT8 && x->dtype != TA_DTYPE_FLOAT32)) return false;
    if (u->uses[xi] != 1 || u->producers[yi] != 1) return false;
    if (x->rank != 4 || y->rank != 4 || f->rank != 4) return false;
    if (x->shape[0] != y->shape[0] || x->shape[3] != y->shape[3] || f->shape[0] != 1 || f->shape[3] != y->shape[3])
        return false;
    if (x->shape[0] <= 0 || x->shape[1] <= 0 || x->shape[2] <= 0 || x->shape[3] <= 0 || y->shape[1] <= 0 ||
        y->shape[2] <= 0)
        return false;
    if ((int64_t)y->shape[1] * y->shape[2] > (int64_t)x->shape[1] * x->shape[2] || y->bytes > x->bytes) return false;
    /* With ALIAS, a RESHAPE-like producer puts x in its input's buffer, which
     * another op may still read: not worth a scratch pass 2 would not use. */
    if (flags & TA_REWRITE_ALIAS)
        for (uint32_t j = 0; j < s->n_ops; j++) {
            const ta_op *pj = &g->ops[s->op_base + j];
            if (pj->n_outputs == 1 && pj->outputs[0] == xi && alias_candidate(g, pj)) return false;
        }
    return true;
}

/* ---- ORDER: a memory-aware topological order ------------------------------ */

static void carve_order(ta__bump *b, const ta_graph *g, order_search *o) {
    const ta_subgraph *s = &g->subgraphs[0];
    const uint32_t n = s->n_ops, nt = s->n_tensors, ni = g->index_used, w = (n + 63) / 64 ? (n + 63) / 64 : 1;
    o->op = ta__bump_take(b, n, sizeof(uint32_t));
    o->buf = ta__bump_take(b, nt, sizeof(int32_t));
    o->prod = ta__bump_take(b, nt, sizeof(int32_t));
    o->size = ta__bump_take(b, nt, sizeof(size_t));
    o->out = ta__bump_take(b, nt, 1);
    o->cs = ta__bump_take(b, (size_t)nt + 1, sizeof(uint32_t));
    o->cons = ta__bump_take(b, ni, sizeof(uint32_t));
    o->is = ta__bump_take(b, (size_t)n + 1, sizeof(uint32_t));
    o->ins = ta__bump_take(b, ni, sizeof(uint32_t));
    o->os = ta__bump_take(b, (size_t)n + 1, sizeof(uint32_t));
    o->outs = ta__bump_take(b, ni, sizeof(uint32_t));
    o->ps = ta__bump_take(b, (size_t)n + 1, sizeof(uint32_t));
    o->pins = ta__bump_take(b, ni, sizeof(uint32_t));
    o->credit = ta__bump_take(b, n, sizeof(size_t));
    o->preds = ta__bump_take(b, (size_t)n * w, sizeof(uint64_t));
    o->zob = ta__bump_take(b, n, sizeof(uint64_t));
    for (int k = 0; k < 2; k++) {
        o->set[k] = ta__bump_take(b, (size_t)ORDER_BEAM * w, sizeof(uint64_t));
        o->hash[k] = ta__bump_take(b, ORDER_BEAM, sizeof(uint64_t));
        o->peak[k] = ta__bump_take(b, ORDER_BEAM, sizeof(size_t));
        o->live[k] = ta__bump_take(b, ORDER_BEAM, sizeof(size_t));
    }
    o->trail = ta__bump_take(b, (size_t)n * ORDER_BEAM, sizeof(uint16_t));
}

static bool has(const uint64_t *set, uint32_t i) { return (set[i / 64] >> (i % 64)) & 1u; }

/* Op k's input i as it runs (a fused conv reads the PAD's input). */
static int32_t eff_input(const ta_graph *g, const pass1_work *p, uint32_t k, uint32_t i) {
    return i == 0 && p->conv_src[k] >= 0 ? p->conv_src[k] : g->ops[g->subgraphs[0].op_base + k].inputs[i];
}

static void add_unique(uint32_t *list, uint32_t start, uint32_t *end, uint32_t v) {
    for (uint32_t j = start; j < *end; j++)
        if (list[j] == v) return;
    list[(*end)++] = v;
}

/* Whether buffer b has no reader left after position v runs, given the set
 * `done` already ran (and is not a graph output). */
static bool dies_at(const order_search *o, const uint64_t *done, uint32_t b, uint32_t v) {
    if (o->out[b]) return false;
    for (uint32_t j = o->cs[b]; j < o->cs[b + 1]; j++)
        if (o->cons[j] != v && !has(done, o->cons[j])) return false;
    return true;
}

/* Running position v after `done`: the bytes live while it runs (TFLM's
 * rules: everything resident, its inputs included, plus what it creates,
 * minus an output written in place) and the bytes resident afterwards. */
static void step_cost(const order_search *o, const uint64_t *done, size_t live, uint32_t v, size_t *at, size_t *after) {
    size_t add = 0, keep = 0, freed = 0, credit = 0;
    for (uint32_t j = o->os[v]; j < o->os[v + 1]; j++) {
        const uint32_t b = o->outs[j];
        add += o->size[b];
        if (o->out[b] || o->cs[b + 1] > o->cs[b]) keep += o->size[b];
    }
    for (uint32_t j = o->ps[v]; j < o->ps[v + 1] && !credit; j++)
        if (dies_at(o, done, o->pins[j], v)) credit = o->credit[v];
    for (uint32_t j = o->is[v]; j < o->is[v + 1]; j++)
        if (dies_at(o, done, o->ins[j], v)) freed += o->size[o->ins[j]];
    *at = live + add - credit;
    *after = live + keep - freed;
}

/* Steps: 1. positions for the kept ops; give up (keep the model's order)
 * with control flow, custom ops, variables or a tensor written twice;
 * 2. buffers: every planned tensor, a RESHAPE's output in its input's buffer
 * with ALIAS; their sizes, readers, creators, and each op's predecessors
 * and in-place candidates (with INPLACE); 3. a beam search over the sets of
 * ops already run (a DP over them while they fit the beam): a state's cost
 * is the highest live total so far, ties go to fewer resident bytes and
 * then to the state found first (the model's order is tried first); 4. the
 * model's order is kept unless the search found a strictly lower peak.
 * Returns how many ops moved. */
static uint32_t order_ops(const ta_graph *g, uint32_t flags, pass1_work *p, uint32_t n) {
    order_search *o = &p->o;
    const ta_subgraph *s = &g->subgraphs[0];
    const uint32_t nt = s->n_tensors, w = (n + 63) / 64 ? (n + 63) / 64 : 1;
    if (n < 3 || n > ORDER_MAX_OPS) return 0;
    o->n = n;
    o->w = w;
    for (uint32_t t = 0; t < nt; t++) {
        const ta_tensor *tt = &g->tensors[s->tensor_base + t];
        if (tt->flags & TA_TENSOR_VARIABLE) return 0;
        o->buf[t] = ta_lifetime_is_planned(tt) ? (int32_t)t : -1;
        o->prod[t] = -1;
    }
    for (uint32_t v = 0; v < n; v++) {
        const uint32_t k = p->order[v];
        const ta_op *op = &g->ops[s->op_base + k];
        o->op[v] = k;
        if (control_flow(op) || op->kind == TA_OP_CUSTOM || op->kind == TA_OP_OTHER) return 0;
        for (uint32_t i = 0; i < op->n_outputs; i++) {
            const int32_t t = op->outputs[i];
            if (t < 0) continue;
            if (o->prod[t] >= 0) return 0;
            o->prod[t] = (int32_t)v;
        }
        if ((flags & TA_REWRITE_ALIAS) && alias_candidate(g, op) && p->conv_src[k] < 0)
            o->buf[op->outputs[0]] = o->buf[op->inputs[0]];
    }
    /* sizes and graph outputs per buffer (16-byte rounding, TFLM's) */
    for (uint32_t t = 0; t < nt; t++) o->size[t] = 0, o->out[t] = 0;
    for (uint32_t t = 0; t < nt; t++) {
        const int32_t bb = o->buf[t];
        if (bb < 0) continue;
        const ta_tensor *tt = &g->tensors[s->tensor_base + t];
        const size_t sz = ta__align_up(tt->bytes, 16);
        if (sz > o->size[bb]) o->size[bb] = sz;
        if (tt->flags & TA_TENSOR_OUTPUT) o->out[bb] = 1;
    }
    /* readers per buffer (CSR: count, prefix, fill) and per-op lists */
    for (uint32_t t = 0; t <= nt; t++) o->cs[t] = 0;
    uint32_t ni = 0, no = 0, np = 0;
    for (uint32_t v = 0; v < n; v++) {
        const uint32_t k = o->op[v];
        const ta_op *op = &g->ops[s->op_base + k];
        uint64_t *pr = &o->preds[(size_t)v * w];
        for (uint32_t j = 0; j < w; j++) pr[j] = 0;
        o->is[v] = ni;
        for (uint32_t i = 0; i < op->n_inputs; i++) {
            const int32_t t = eff_input(g, p, k, i);
            if (t < 0 || (uint32_t)t >= nt) continue;
            if (o->prod[t] >= 0) pr[(uint32_t)o->prod[t] / 64] |= UINT64_C(1) << ((uint32_t)o->prod[t] % 64);
            if (o->buf[t] >= 0) add_unique(o->ins, o->is[v], &ni, (uint32_t)o->buf[t]);
        }
        for (uint32_t j = o->is[v]; j < ni; j++) o->cs[o->ins[j] + 1]++;
        o->os[v] = no;
        for (uint32_t i = 0; i < op->n_outputs; i++) {
            const int32_t t = op->outputs[i];
            if (t >= 0 && o->buf[t] == t) add_unique(o->outs, o->os[v], &no, (uint32_t)t);
        }
        o->ps[v] = np;
        o->credit[v] = 0;
        if ((flags & TA_REWRITE_INPLACE) && p->conv_src[k] < 0 && no - o->os[v] == 1) {
            for (uint32_t i = 0; i < op->n_inputs; i++)
                if (inplace_candidate(g, p->inplace, op, i)) add_unique(o->pins, o->ps[v], &np, (uint32_t)o->buf[op->inputs[i]]);
            o->credit[v] = o->size[o->outs[o->os[v]]];
        }
        o->zob[v] = ta__rng_next(&(uint64_t){0x9E3779B97F4A7C15ull * (v + 1)});
    }
    o->is[n] = ni, o->os[n] = no, o->ps[n] = np;
    for (uint32_t t = 0; t < nt; t++) o->cs[t + 1] += o->cs[t];
    {
        /* fill readers, reusing prod as a cursor (producers are no longer needed) */
        for (uint32_t t = 0; t < nt; t++) o->prod[t] = (int32_t)o->cs[t];
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t j = o->is[v]; j < o->is[v + 1]; j++) o->cons[o->prod[o->ins[j]]++] = v;
    }
    /* step 0 holds the graph inputs; those still to be read (or outputs) stay */
    size_t live0 = 0, step0 = 0;
    for (uint32_t t = 0; t < nt; t++) {
        const ta_tensor *tt = &g->tensors[s->tensor_base + t];
        if (o->buf[t] != (int32_t)t || !(tt->flags & TA_TENSOR_INPUT)) continue;
        step0 += o->size[t];
        if (o->out[t] || o->cs[t + 1] > o->cs[t]) live0 += o->size[t];
    }
    /* the model's order, costed the same way */
    uint64_t *done = o->set[0];
    for (uint32_t j = 0; j < w; j++) done[j] = 0;
    size_t model_peak = step0, live = live0;
    for (uint32_t v = 0; v < n; v++) {
        size_t at, after;
        step_cost(o, done, live, v, &at, &after);
        if (at > model_peak) model_peak = at;
        live = after;
        done[v / 64] |= UINT64_C(1) << (v % 64);
    }
    /* the beam search */
    uint32_t cur = 0, n_cur = 1;
    for (uint32_t j = 0; j < w; j++) o->set[0][j] = 0;
    o->hash[0][0] = 0, o->peak[0][0] = step0, o->live[0][0] = live0;
    for (uint32_t step = 0; step < n; step++) {
        const uint32_t nx = cur ^ 1u;
        uint32_t n_nx = 0;
        uint16_t *tr = &o->trail[(size_t)step * ORDER_BEAM];
        for (uint32_t si = 0; si < n_cur; si++) {
            const uint64_t *d = &o->set[cur][(size_t)si * w];
            for (uint32_t v = 0; v < n; v++) {
                if (has(d, v)) continue;
                const uint64_t *pr = &o->preds[(size_t)v * w];
                bool ready = true;
                for (uint32_t j = 0; j < w && ready; j++) ready = (pr[j] & ~d[j]) == 0;
                if (!ready) continue;
                size_t at, after;
                step_cost(o, d, o->live[cur][si], v, &at, &after);
                const size_t pk = at > o->peak[cur][si] ? at : o->peak[cur][si];
                const uint64_t h = o->hash[cur][si] ^ o->zob[v];
                /* the same set reached another way: keep the better */
                uint32_t slot = n_nx;
                for (uint32_t q = 0; q < n_nx && slot == n_nx; q++) {
                    if (o->hash[nx][q] != h) continue;
                    const uint64_t *e = &o->set[nx][(size_t)q * w];
                    bool same = true;
                    for (uint32_t j = 0; j < w && same; j++) same = e[j] == (d[j] | (j == v / 64 ? UINT64_C(1) << (v % 64) : 0));
                    if (same) slot = q;
                }
                if (slot < n_nx) {
                    if (pk >= o->peak[nx][slot]) continue;
                } else if (n_nx == ORDER_BEAM) {
                    /* full: replace the worst state if this one is better */
                    uint32_t worst = 0;
                    for (uint32_t q = 1; q < n_nx; q++)
                        if (o->peak[nx][q] > o->peak[nx][worst] ||
                            (o->peak[nx][q] == o->peak[nx][worst] && o->live[nx][q] >= o->live[nx][worst]))
                            worst = q;
                    if (pk > o->peak[nx][worst] || (pk == o->peak[nx][worst] && after >= o->live[nx][worst])) continue;
                    slot = worst;
                } else {
                    n_nx++;
                }
                uint64_t *e = &o->set[nx][(size_t)slot * w];
                for (uint32_t j = 0; j < w; j++) e[j] = d[j];
                e[v / 64] |= UINT64_C(1) << (v % 64);
                o->hash[nx][slot] = h;
                o->peak[nx][slot] = pk;
                o->live[nx][slot] = after;
                tr[slot] = (uint16_t)(si << 10 | v);
            }
        }
        if (!n_nx) return 0; /* a cycle: not a DAG after all */
        cur = nx;
        n_cur = n_nx;
    }
    /* one state is left: every op run */
    if (o->peak[cur][0] >= model_peak) return 0;
    /* walk the trail back into the order (op indices), reusing `credit` */
    uint32_t *seq = (uint32_t *)o->credit, si = 0;
    for (uint32_t step = n; step-- > 0;) {
        const uint16_t e = o->trail[(size_t)step * ORDER_BEAM + si];
        seq[step] = e & 1023u;
        si = e >> 10;
    }
    uint32_t moved = 0;
    for (uint32_t v = 0; v < n; v++) {
        moved += seq[v] != v;
        p->order[v] = o->op[seq[v]];
    }
    return moved;
}

/* ---- DWINPLACE: which marked convs to keep ---------------------------------- */

/* A marked depthwise conv costs a scratch pointer and runs a per-channel
 * kernel, so DWINPLACE keeps a mark only where it lowers the graph's peak.
 * The profile is pass 2's view in the final order: TFLM's steps (position v
 * at step v + 1, graph inputs from step 0, outputs to the end), 16-byte
 * sizes, ALIAS and INPLACE groups joined by pass 2's rule, each conv marked
 * in `on` (per position) in its input's group, its scratch at its step.
 * Returns the most bytes live at one step. */
static size_t dw_profile(const ta_graph *g, uint32_t flags, pass1_work *p, uint32_t n, const uint8_t *on) {
    const ta_subgraph *s = &g->subgraphs[0];
    const uint32_t nt = s->n_tensors;
    for (uint32_t t = 0; t < nt; t++) {
        const ta_tensor *tt = &g->tensors[s->tensor_base + t];
        p->dw_root[t] = (int32_t)t;
        p->dw_first[t] = (tt->flags & TA_TENSOR_INPUT) ? 0 : -1;
        p->dw_last[t] = (tt->flags & TA_TENSOR_OUTPUT) ? (int32_t)n : -1;
        p->dw_size[t] = ta_lifetime_is_planned(tt) ? ta__align_up(tt->bytes, 16) : 0;
        p->dw_at[t] = 0;
    }
    for (uint32_t v = 0; v < n; v++) {
        const uint32_t k = p->order[v];
        const ta_op *op = &g->ops[s->op_base + k];
        for (uint32_t i = 0; i < op->n_inputs; i++) {
            const int32_t t = eff_input(g, p, k, i);
            if (t >= 0 && (uint32_t)t < nt && p->dw_last[t] < (int32_t)v + 1) p->dw_last[t] = (int32_t)v + 1;
        }
        for (uint32_t i = 0; i < op->n_outputs; i++) {
            const int32_t t = op->outputs[i];
            if (t >= 0 && (uint32_t)t < nt && p->dw_first[t] < 0) p->dw_first[t] = (int32_t)v + 1;
        }
    }
    for (uint32_t t = 0; t < nt; t++) {
        if (p->dw_first[t] < 0 || p->dw_last[t] < p->dw_first[t]) p->dw_size[t] = 0; /* never live */
        p->dw_until[t] = (g->tensors[s->tensor_base + t].flags & TA_TENSOR_OUTPUT) ? INT32_MAX : p->dw_last[t];
    }
    for (uint32_t v = 0; v < n + 2; v++) p->dw_live[v] = p->dw_scr[v] = 0;
    for (uint32_t v = 0; v < n; v++) {
        const uint32_t k = p->order[v];
        const ta_op *op = &g->ops[s->op_base + k];
        const int32_t step = (int32_t)v + 1;
        if (control_flow(op) || op->n_outputs != 1 || op->n_inputs < 1) continue;
        const int32_t yi = op->outputs[0];
        if (yi < 0 || (uint32_t)yi >= nt || !p->dw_size[yi] || p->dw_root[yi] != yi || p->dw_first[yi] != step) continue;
        int32_t join = -1;
        if (op->kind == TA_OP_DEPTHWISE_CONV_2D) {
            const int32_t xi = eff_input(g, p, k, 0);
            if (on[v] && xi >= 0 && (uint32_t)xi < nt && p->dw_size[p->dw_root[xi]] &&
                p->dw_until[p->dw_root[xi]] == step) {
                const ta_tensor *y = &g->tensors[s->tensor_base + (uint32_t)yi];
                join = xi;
                p->dw_scr[v + 1] += ta__align_up((size_t)y->shape[1] * (size_t)y->shape[2] * ta_dtype_size(y->dtype), 16);
                /* pass 2 puts the output at the input's end when aligned */
                const size_t gap = tensor0(g, xi)->bytes - y->bytes;
                p->dw_at[yi] = p->dw_at[xi] + (gap % 16 == 0 ? gap : 0);
            }
        } else if (alias_candidate(g, op) && p->conv_src[k] < 0) {
            if (flags & TA_REWRITE_ALIAS) join = op->inputs[0];
        } else if (flags & TA_REWRITE_INPLACE) {
            for (uint32_t i = 0; i < op->n_inputs && join < 0; i++)
                if (inplace_candidate(g, p->inplace, op, i) && p->dw_until[p->dw_root[op->inputs[i]]] == step)
                    join = op->inputs[i];
        }
        if (join < 0) continue;
        const int32_t r = p->dw_root[join];
        if (!p->dw_size[r]) continue;
        p->dw_root[yi] = r;
        if (op->kind != TA_OP_DEPTHWISE_CONV_2D) p->dw_at[yi] = p->dw_at[join];
        if (p->dw_until[yi] > p->dw_until[r]) p->dw_until[r] = p->dw_until[yi];
        if (p->dw_last[yi] > p->dw_last[r]) p->dw_last[r] = p->dw_last[yi];
        if (p->dw_size[yi] > p->dw_size[r]) p->dw_size[r] = p->dw_size[yi];
        p->dw_size[yi] = 0;
    }
    /* OVERLAP (pass 3) relates a walked op's input group X, dying at its
     * step, and its output group Y, born there: the pair then takes
     * max(X, d' + Y) bytes at that step, d' being the walk's d moved by the
     * groups' padding and x's offset a in X (ta_rewrite_overlaps), so
     * Y - max(0, d + y - x - a) fewer than X + Y.  Counted here, or the profile puts the peak at a conv the
     * relation already shrank and misses the depthwise conv after it. */
    for (uint32_t v = 0; v < n + 2; v++) p->dw_ovl[v] = 0;
    for (uint32_t v = 0; v < n && (flags & TA_REWRITE_OVERLAP); v++) {
        const uint32_t k = p->order[v];
        const ta_op *op = &g->ops[s->op_base + k];
        const int32_t step = (int32_t)v + 1;
        if (p->dw_d[k] < 0) continue;
        const int32_t xi = eff_input(g, p, k, 0), yi = op->outputs[0];
        if (xi < 0 || (uint32_t)xi >= nt || yi < 0 || (uint32_t)yi >= nt) continue;
        const int32_t rx = p->dw_root[xi];
        if (!p->dw_size[rx] || p->dw_until[rx] != step || p->dw_last[rx] != step) continue;
        if (p->dw_root[yi] != yi || !p->dw_size[yi] || p->dw_first[yi] != step) continue;
        const int64_t xb = (int64_t)tensor0(g, xi)->bytes, yb = (int64_t)tensor0(g, yi)->bytes;
        const int64_t over = p->dw_d[k] + yb - xb - (int64_t)p->dw_at[xi];
        const size_t keep = over > 0 ? (size_t)over : 0;
        if (keep < p->dw_size[yi]) p->dw_ovl[v + 1] += p->dw_size[yi] - keep;
    }
    /* each group once, at its root: a difference array over the steps */
    for (uint32_t t = 0; t < nt; t++) {
        if (!p->dw_size[t] || p->dw_root[t] != (int32_t)t) continue;
        p->dw_live[p->dw_first[t]] += p->dw_size[t];
        p->dw_live[p->dw_last[t] + 1] -= p->dw_size[t];
    }
    size_t run = 0, peak = 0;
    for (uint32_t v = 0; v <= n; v++) {
        run += p->dw_live[v];
        const size_t at = run + p->dw_scr[v] - (p->dw_ovl[v] < run ? p->dw_ovl[v] : run);
        if (at > peak) peak = at;
    }
    return peak;
}

/* Keeps the marks (p->dwip, per op) that lower the peak: greedily, one mark
 * at a time in the model's order, each kept when the peak with it is no
 * higher; if the peak did not drop in the end, none is kept.  At most
 * DW_SELECT_EVALS profiles (each linear in the graph), so a graph with
 * thousands of marks stays bounded; deterministic. */
#define DW_SELECT_EVALS 4096u
static void dwinplace_select(const ta_graph *g, uint32_t flags, pass1_work *p, uint32_t n) {
    uint8_t *on = p->dw_on;
    uint32_t n_marks = 0, evals = 0;
    for (uint32_t v = 0; v < n; v++) n_marks += (on[v] = 0, p->dwip[p->order[v]] != 0);
    if (!n_marks) return;
    /* each walked op's d once (the walk is linear in its output rows), for
     * the op as it will run: a fused conv reads the PAD's input with the
     * PAD's amounts as explicit padding */
    const ta_subgraph *s = &g->subgraphs[0];
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        p->dw_d[k] = -1;
        if (!(flags & TA_REWRITE_OVERLAP) || p->fused[k] || op->n_inputs < 1 || op->n_inputs > 8 || op->n_outputs != 1)
            continue;
        ta_op run = *op;
        int32_t in[8];
        if (p->conv_src[k] >= 0) {
            memcpy(in, op->inputs, op->n_inputs * sizeof *in);
            in[0] = p->conv_src[k];
            run.inputs = in;
            run.opt.padding = TA_PAD_EXPLICIT;
            run.opt.pad_top = p->conv_pad[4 * k];
            run.opt.pad_bottom = p->conv_pad[4 * k + 1];
            run.opt.pad_left = p->conv_pad[4 * k + 2];
            run.opt.pad_right = p->conv_pad[4 * k + 3];
        }
        ta_conv_geometry cg;
        ta_overlap rel;
        const ta_tensor *x = tensor0(g, run.inputs[0]);
        if (!x || !walk_geometry(g, &run, &cg) || ta_walk_conv2d(&cg, TA_CONV_WALK_ROWS, &rel, NULL) != TA_OK) continue;
        if (rel.d >= 0 && rel.d < (int64_t)x->bytes) p->dw_d[k] = rel.d;
    }
    const size_t peak0 = dw_profile(g, flags, p, n, on);
    size_t peak = peak0;
    bool changed = true;
    while (changed && evals < DW_SELECT_EVALS) {
        changed = false;
        for (uint32_t v = 0; v < n && evals < DW_SELECT_EVALS; v++) {
            if (on[v] || !p->dwip[p->order[v]]) continue;
            on[v] = 1;
            const size_t pk = dw_profile(g, flags, p, n, on);
            evals++;
            if (pk < peak) peak = pk, changed = true;
            else on[v] = 0;
        }
    }
    for (uint32_t v = 0; v < n; v++) p->dwip[p->order[v]] = peak < peak0 ? on[v] : 0;
}

static ta_status copy_op(ta_graph *out, const ta_op *op, const int32_t *inputs, const ta_op_options *opt) {
    ta_op_desc d;
    memset(&d, 0, sizeof d);
    d.kind = op->kind;
    d.custom_name = op->custom_name;
    d.builtin_code = op->builtin_code;
    d.version = op->version;
    d.inputs = inputs;
    d.n_inputs = op->n_inputs;
    d.outputs = op->outputs;
    d.n_outputs = op->n_outputs;
    d.intermediates = op->intermediates;
    d.n_intermediates = op->n_intermediates;
    d.opt = opt;
    d.custom_data = op->custom_data;
    d.custom_data_bytes = op->custom_data_bytes;
    return ta_graph_add_op(out, &d, NULL);
}

/* Steps: 1. count uses and producers of subgraph 0's tensors; 2. FUSEPAD:
 * mark every PAD that folds into its conv and note the conv's new input and
 * padding; 3. the execution order: the model's, minus folded PADs (ORDER
 * may replace it, see order_ops); 4. copy every subgraph into the new graph --
 * tensors first (same indices; a folded PAD's output flagged ELIDED), then
 * the ops in order, a fused conv reading the PAD's input with EXPLICIT
 * padding -- and the subgraph's inputs and outputs. */
ta_status ta_rewrite_graph(const ta_graph *g, uint32_t flags, const ta_op_kind_set *inplace, void *mem, size_t bytes,
                           ta_graph *out, ta_rewrite_stats *stats, ta_diag *d) {
    if (!g || !out) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: NULL argument");
    if (flags & ~TA_REWRITE_ALL) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: unknown flags 0x%x", flags);
    const size_t need = ta_rewrite_graph_bytes(g, flags);
    if (!need || !mem || bytes < need)
        return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite needs %zu bytes, has %zu", need, mem ? bytes : 0);
    ta_status st = ta_graph_validate(g, d);
    if (st) return st;
    ta__bump b;
    pass1_work p;
    ta__bump_init_aligned(&b, mem, bytes);
    if (!carve1(&b, g, flags, &p)) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite needs %zu bytes, has %zu", need, bytes);
    p.inplace = inplace;
    uint32_t n_ops0 = 0, n_order = 0, fused = 0, moved = 0;
    if (g->n_subgraphs) {
        const ta_subgraph *s0 = &g->subgraphs[0];
        n_ops0 = s0->n_ops;
        count_usage(g, &p.u);
        for (uint32_t k = 0; k < n_ops0; k++) {
            p.fused[k] = 0;
            p.conv_src[k] = -1;
        }
        for (uint32_t k = 0; (flags & TA_REWRITE_FUSEPAD) && k < n_ops0; k++) {
            uint32_t c;
            int32_t pad[4];
            if (!fusable_pad(g, &p.u, k, &c, pad)) continue;
            p.fused[k] = 1;
            p.conv_src[c] = g->ops[s0->op_base + k].inputs[0];
            memcpy(&p.conv_pad[4 * c], pad, sizeof pad);
            fused++;
        }
        for (uint32_t k = 0; k < n_ops0; k++) {
            p.dwip[k] = 0;
            if (p.fused[k] || !(flags & TA_REWRITE_DWINPLACE)) continue;
            const int32_t src = p.conv_src[k] >= 0 ? p.conv_src[k] : g->ops[s0->op_base + k].inputs[0];
            p.dwip[k] = dwinplace_candidate(g, flags, &p.u, k, src);
        }
        for (uint32_t k = 0; k < n_ops0; k++)
            if (!p.fused[k]) p.order[n_order++] = k;
        if ((flags & TA_REWRITE_ORDER) && p.o.trail) moved = order_ops(g, flags, &p, n_order);
        if (flags & TA_REWRITE_DWINPLACE) dwinplace_select(g, flags, &p, n_order);
    }
    if ((st = ta_graph_init(out, &p.lim, p.graph_mem, p.graph_bytes)))
        return ta_diag_set(d, st, "rewrite: cannot lay out the new graph");
    out->name = g->name;
    for (uint32_t si = 0; si < g->n_subgraphs; si++) {
        const ta_subgraph *s = &g->subgraphs[si];
        if ((st = ta_graph_add_subgraph(out, s->name, NULL))) return ta_diag_set(d, st, "rewrite: graph copy failed");
        for (uint32_t t = 0; t < s->n_tensors; t++) {
            const ta_tensor *tt = &g->tensors[s->tensor_base + t];
            ta_tensor_desc td = {.name = tt->name, .dtype = tt->dtype, .rank = tt->rank, .shape = tt->shape,
                                 .bytes = tt->bytes, .data = tt->data, .data_bytes = tt->data_bytes,
                                 .flags = tt->flags, .quant = tt->quant};
            if ((st = ta_graph_add_tensor(out, &td, NULL))) return ta_diag_set(d, st, "rewrite: graph copy failed");
            /* a zero-byte tensor must stay zero bytes (add_tensor would size it) */
            out->tensors[out->n_tensors - 1].bytes = tt->bytes;
        }
        const uint32_t n = si == 0 ? n_order : s->n_ops;
        for (uint32_t i = 0; i < n; i++) {
            const uint32_t k = si == 0 ? p.order[i] : i;
            const ta_op *op = &g->ops[s->op_base + k];
            if (si == 0 && p.conv_src[k] >= 0) {
                int32_t in[8];
                memcpy(in, op->inputs, op->n_inputs * sizeof *in);
                in[0] = p.conv_src[k];
                ta_op_options o = op->opt;
                o.padding = TA_PAD_EXPLICIT;
                o.pad_top = p.conv_pad[4 * k];
                o.pad_bottom = p.conv_pad[4 * k + 1];
                o.pad_left = p.conv_pad[4 * k + 2];
                o.pad_right = p.conv_pad[4 * k + 3];
                o.in_place = p.dwip[k] != 0;
                st = copy_op(out, op, in, &o);
            } else if (si == 0 && p.dwip[k]) {
                ta_op_options o = op->opt;
                o.in_place = true;
                st = copy_op(out, op, op->inputs, &o);
            } else {
                st = copy_op(out, op, op->inputs, &op->opt);
            }
            if (st) return ta_diag_set(d, st, "rewrite: graph copy failed");
        }
        if ((st = ta_graph_set_io(out, s->inputs, s->n_inputs, s->outputs, s->n_outputs)))
            return ta_diag_set(d, st, "rewrite: graph copy failed");
    }
    /* the folded PADs' outputs: nothing reads or writes them any more */
    if (g->n_subgraphs) {
        const ta_subgraph *s0 = &g->subgraphs[0];
        for (uint32_t k = 0; k < n_ops0; k++)
            if (p.fused[k]) out->tensors[s0->tensor_base + (uint32_t)g->ops[s0->op_base + k].outputs[0]].flags |= TA_TENSOR_ELIDED;
    }
    if (stats) {
        stats->fused_pads += fused;
        stats->reordered += moved;
    }
    return TA_OK;
}

/* ---- pass 2: ALIAS and INPLACE -------------------------------------------- */

size_t ta_rewrite_buffers_bytes(const ta_graph *g) {
    if (!g) return 0;
    ta__bump b;
    ta__bump_init(&b, NULL, 0);
    const uint32_t n_t = g->n_subgraphs ? g->subgraphs[0].n_tensors : 0;
    (void)ta__bump_take(&b, n_t, sizeof(int32_t)); /* group_last */
    (void)ta__bump_take(&b, n_t, sizeof(uint16_t));
    (void)ta__bump_take(&b, n_t, sizeof(uint16_t));
    (void)ta__bump_take(&b, n_t, sizeof(uint32_t));
    return ta__bump_need(&b);
}

/* Steps, over subgraph 0's ops in execution order (groups only ever grow by
 * an op's fresh output joining an input's group, so they stay flat):
 *  1. every tensor starts as its own group; a group's "needed until" is the
 *     latest last step of its members, a graph output counting as forever;
 *  2. ALIAS: a RESHAPE-like op's output joins its input's group;
 *  3. INPLACE: an elementwise op's output joins the group of its first input
 *     that qualifies -- above all, a group needed until exactly this op's
 *     step (the op is its last reader and no member is a graph output);
 *  4. a joining tensor extends its group's "needed until". */
ta_status ta_rewrite_buffers(const ta_graph *g, const ta_lifetimes *lt, uint32_t flags, const ta_op_kind_set *inplace,
                             void *mem, size_t bytes, int32_t *buffer_of, ta_rewrite_stats *stats, ta_diag *d) {
    return ta_rewrite_buffers_at(g, lt, flags, inplace, mem, bytes, buffer_of, NULL, stats, d);
}

/* CONCAT at concatenation `op` (step `step`, fresh output yi, local): moves
 * the group of every input that qualifies (rewrite.h) into yi's buffer at
 * the input's slice.  Indices into buffer_of/at are global, `until` local.
 * Returns how many inputs joined. */
static uint32_t concat_join(const ta_graph *g, const ta_lifetimes *lt, const tensor_usage *u, int32_t *until,
                            int32_t *buffer_of, size_t *at, const ta_op *op, int32_t step, int32_t yi) {
    const ta_subgraph *s = &g->subgraphs[0];
    const uint32_t base = s->tensor_base;
    const ta_tensor *y = tensor0(g, yi);
    if (!y || op->n_inputs < 1 || op->n_inputs > 64 || y->rank < 1 || y->rank > TA_MAX_RANK) return 0;
    const int32_t axis = op->opt.axis < 0 ? op->opt.axis + y->rank : op->opt.axis;
    if (axis < 0 || axis >= y->rank) return 0;
    for (int32_t d = 0; d < axis; d++)
        if (y->shape[d] != 1) return 0; /* a slice would be several ranges */
    const size_t es = ta_dtype_size(y->dtype);
    if (!es || y->dtype == TA_DTYPE_INT4) return 0;
    int64_t inner = 1;
    for (int32_t d = axis + 1; d < y->rank; d++) {
        if (y->shape[d] <= 0 || inner > ((int64_t)1 << 40)) return 0; /* no int64 overflow on hostile shapes */
        inner *= y->shape[d];
    }
    const int32_t ry = (int32_t)(base + (uint32_t)yi);
    uint64_t off = 0;
    uint32_t joined = 0;
    for (uint32_t i = 0; i < op->n_inputs; i++) {
        const int32_t xi = op->inputs[i];
        const ta_tensor *x = tensor0(g, xi);
        if (!x || x->rank != y->rank || x->shape[axis] < 0) return joined; /* prepare refuses it */
        for (int32_t d = 0; d < y->rank; d++)
            if (d != axis && x->shape[d] != y->shape[d]) return joined;
        if (inner > ((int64_t)1 << 40) || off > ((uint64_t)1 << 62)) return joined;
        const uint64_t xb = (uint64_t)x->shape[axis] * (uint64_t)inner * es, slice = off;
        off += xb;
        if (!ta_lifetime_is_planned(x) || x->dtype != y->dtype || x->bytes != xb || slice % 16) continue;
        if (x->flags & (TA_TENSOR_INPUT | TA_TENSOR_OUTPUT | TA_TENSOR_CONST | TA_TENSOR_VARIABLE)) continue;
        if (x->dtype == TA_DTYPE_INT8 && !same_quant(x, y)) continue;
        bool once = true;
        for (uint32_t j = 0; j < op->n_inputs; j++) once &= j == i || op->inputs[j] != xi;
        const uint32_t gx = base + (uint32_t)xi;
        if (!once || u->producers[xi] != 1 || lt->first[gx] < 1 || lt->first[gx] >= step) continue;
        const int32_t r = buffer_of[gx];
        if (r == ry || at[gx] != 0) continue;
        bool inside = true;
        for (uint32_t m = base; m < base + s->n_tensors && inside; m++)
            if (buffer_of[m] == r) inside = at[m] + g->tensors[m].bytes <= xb;
        if (!inside) continue;
        for (uint32_t m = base; m < base + s->n_tensors; m++)
            if (buffer_of[m] == r) buffer_of[m] = ry, at[m] += (size_t)slice;
        if (until[r - (int32_t)base] > until[yi]) until[yi] = until[r - (int32_t)base];
        joined++;
    }
    return joined;
}

/* SLICE: whether STRIDED_SLICE `op` (output yi) reads one contiguous byte
 * range of its input; *off gets its start.  Resolution is the kernel's
 * (ta_strided_slice_resolve) for stride 1 without `offset`: begin from the
 * end when negative, clamped to [0, n], 0 under begin_mask; end likewise,
 * n under end_mask, start + 1 under shrink (start when start == n). */
static bool slice_view(const ta_graph *g, const ta_op *op, int32_t yi, uint64_t *off) {
    if (op->n_inputs != 4 || op->n_outputs != 1) return false;
    const ta_tensor *x = tensor0(g, op->inputs[0]), *y = tensor0(g, yi);
    if (!x || !y || x->rank < 1 || x->rank > 5 || x->dtype != y->dtype) return false;
    const ta_op_options *o = &op->opt;
    if (o->ellipsis_mask || o->new_axis_mask || o->offset) return false;
    const int32_t r = x->rank;
    const int32_t *bv[3];
    for (int k = 0; k < 3; k++) {
        const ta_tensor *t = tensor0(g, op->inputs[1 + k]);
        if (!t || t->dtype != TA_DTYPE_INT32 || ta_tensor_elements(t) != (uint64_t)r) return false;
        bv[k] = const_data(t, (size_t)r * 4);
        if (!bv[k]) return false;
    }
    const size_t es = ta_dtype_size(x->dtype);
    if (!es || x->dtype == TA_DTYPE_INT4) return false;
    int64_t start[5], len[5];
    for (int32_t a = 0; a < r; a++) {
        int32_t b, e, s;
        memcpy(&b, (const unsigned char *)bv[0] + 4 * a, 4);
        memcpy(&e, (const unsigned char *)bv[1] + 4 * a, 4);
        memcpy(&s, (const unsigned char *)bv[2] + 4 * a, 4);
        const int64_t n = x->shape[a];
        if (s != 1 || n <= 0) return false;
        int64_t st = b < 0 ? (int64_t)b + n : b;
        st = st < 0 ? 0 : st > n ? n : st;
        if (o->begin_mask & (1 << a)) st = 0;
        int64_t sp;
        if (o->shrink_axis_mask & (1 << a)) {
            sp = st >= n ? st : st + 1;
        } else {
            sp = e < 0 ? (int64_t)e + n : e;
            sp = sp < 0 ? 0 : sp > n ? n : sp;
            if (o->end_mask & (1 << a)) sp = n;
        }
        start[a] = st;
        len[a] = sp > st ? sp - st : 0;
    }
    /* contiguous: one index per axis up to the first axis that keeps more,
     * whole axes after it */
    int32_t k = 0;
    while (k < r - 1 && len[k] == 1) k++;
    uint64_t elems = 1, at = 0, stride = 1;
    for (int32_t a = r - 1; a >= 0; a--) {
        if (a > k && (start[a] != 0 || len[a] != x->shape[a])) return false;
        at += (uint64_t)start[a] * stride;
        stride *= (uint64_t)x->shape[a];
        elems *= (uint64_t)len[a];
    }
    if (!elems || elems * es != y->bytes || ta_tensor_elements(y) != elems) return false;
    *off = at * es;
    return true;
}

ta_status ta_rewrite_buffers_at(const ta_graph *g, const ta_lifetimes *lt, uint32_t flags,
                                const ta_op_kind_set *inplace, void *mem, size_t bytes, int32_t *buffer_of,
                                size_t *buffer_at, ta_rewrite_stats *stats, ta_diag *d) {
    if (!g || !lt || !buffer_of) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: NULL argument");
    if (flags & ~TA_REWRITE_ALL) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: unknown flags 0x%x", flags);
    if (lt->n_tensors != g->n_tensors || lt->n_ops != g->n_ops)
        return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: lifetimes are of another graph");
    for (uint32_t t = 0; t < g->n_tensors; t++) buffer_of[t] = (int32_t)t;
    for (uint32_t t = 0; buffer_at && t < g->n_tensors; t++) buffer_at[t] = 0;
    if (!buffer_at) flags &= ~(uint32_t)(TA_REWRITE_CONCAT | TA_REWRITE_SLICE);
    if (!g->n_subgraphs || !(flags & (TA_REWRITE_ALIAS | TA_REWRITE_INPLACE | TA_REWRITE_DWINPLACE | TA_REWRITE_CONCAT |
                                      TA_REWRITE_SLICE)))
        return TA_OK;
    const size_t need = ta_rewrite_buffers_bytes(g);
    if (!mem || bytes < need) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite needs %zu bytes, has %zu", need, mem ? bytes : 0);
    const ta_subgraph *s = &g->subgraphs[0];
    const uint32_t base = s->tensor_base;
    ta__bump b;
    ta__bump_init_aligned(&b, mem, bytes);
    int32_t *until = ta__bump_take(&b, s->n_tensors, sizeof(int32_t));
    tensor_usage u;
    u.uses = ta__bump_take(&b, s->n_tensors, sizeof(uint16_t));
    u.producers = ta__bump_take(&b, s->n_tensors, sizeof(uint16_t));
    u.last_user = ta__bump_take(&b, s->n_tensors, sizeof(uint32_t));
    if (b.fail) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite needs %zu bytes, has %zu", need, bytes);
    count_usage(g, &u);
    for (uint32_t t = 0; t < s->n_tensors; t++)
        until[t] = (g->tensors[base + t].flags & TA_TENSOR_OUTPUT) ? INT32_MAX : lt->last[base + t];
    uint32_t aliased = 0, in_place = 0, dw_in_place = 0, concat_in_place = 0, slice_views = 0;
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        const int32_t step = lt->op_step[s->op_base + k];
        if (control_flow(op) || op->n_outputs != 1 || op->n_inputs < 1 || step < 0) continue;
        const int32_t yi = op->outputs[0];
        const ta_tensor *y = tensor0(g, yi);
        /* the output: planned, fresh (its own group), written by this op only */
        if (!y || !ta_lifetime_is_planned(y) || buffer_of[base + (uint32_t)yi] != (int32_t)(base + (uint32_t)yi) ||
            u.producers[yi] != 1 || lt->first[base + (uint32_t)yi] != step)
            continue;
        if (op->kind == TA_OP_STRIDED_SLICE) {
            uint64_t off = 0;
            const int32_t xi = op->inputs[0];
            const ta_tensor *x = tensor0(g, xi);
            if (!(flags & TA_REWRITE_SLICE) || !x || !ta_lifetime_is_planned(x) || xi == yi ||
                ((x->flags & TA_TENSOR_INPUT) && (y->flags & TA_TENSOR_OUTPUT)) || !slice_view(g, op, yi, &off) ||
                off % 16)
                continue;
            const int32_t r = buffer_of[base + (uint32_t)xi];
            buffer_of[base + (uint32_t)yi] = r;
            buffer_at[base + (uint32_t)yi] = buffer_at[base + (uint32_t)xi] + (size_t)off;
            if (until[yi] > until[r - (int32_t)base]) until[r - (int32_t)base] = until[yi];
            slice_views++;
            continue;
        }
        if (op->kind == TA_OP_CONCATENATION) {
            if (flags & TA_REWRITE_CONCAT) concat_in_place += concat_join(g, lt, &u, until, buffer_of, buffer_at, op, step, yi);
            continue;
        }
        int32_t join = -1;
        const bool reshape = alias_candidate(g, op);
        const bool dw = op->kind == TA_OP_DEPTHWISE_CONV_2D && op->opt.in_place;
        if (dw) {
            /* marked by pass 1: joins when the input's buffer dies here */
            if (flags & TA_REWRITE_DWINPLACE) {
                const int32_t xi = op->inputs[0];
                const ta_tensor *x = tensor0(g, xi);
                if (x && ta_lifetime_is_planned(x) && xi != yi &&
                    until[buffer_of[base + (uint32_t)xi] - (int32_t)base] == step)
                    join = xi;
            }
        } else if (reshape) {
            if (flags & TA_REWRITE_ALIAS) join = op->inputs[0];
        } else if (flags & TA_REWRITE_INPLACE) {
            for (uint32_t i = 0; i < op->n_inputs && join < 0; i++) {
                if (!inplace_candidate(g, inplace, op, i)) continue;
                const int32_t r = buffer_of[base + (uint32_t)op->inputs[i]] - (int32_t)base;
                if (until[r] == step) join = op->inputs[i];
            }
        }
        if (join < 0) continue;
        const int32_t r = buffer_of[base + (uint32_t)join];
        buffer_of[base + (uint32_t)yi] = r;
        /* over the input's bytes, wherever they sit in the group (a slice) */
        if (buffer_at) buffer_at[base + (uint32_t)yi] = buffer_at[base + (uint32_t)join];
        /* A depthwise conv's output ends where its input ends (the kernel's
         * _end form), when that keeps 16-byte alignment: the front it frees
         * is where the next op's overlapping walk (pass 3) can write. */
        if (dw && buffer_at && tensor0(g, join)->bytes >= y->bytes) {
            const size_t gap = tensor0(g, join)->bytes - y->bytes;
            if (gap % 16 == 0) buffer_at[base + (uint32_t)yi] += gap;
        }
        const int32_t ry = until[yi];
        if (ry > until[r - (int32_t)base]) until[r - (int32_t)base] = ry;
        if (dw) dw_in_place++;
        else if (reshape) aliased++;
        else in_place++;
    }
    if (stats) {
        stats->aliased += aliased;
        stats->in_place += in_place;
        stats->dw_in_place += dw_in_place;
        stats->concat_in_place += concat_in_place;
        stats->slice_views += slice_views;
    }
    return TA_OK;
}

/* ---- pass 3: OVERLAP (overlap relations from kernel walks) ----------------- */

size_t ta_rewrite_overlaps_bytes(const ta_graph *g) {
    return g ? (size_t)g->n_tensors * sizeof(int32_t) + 16 : 0;
}

/* TFLM's leading padding for SAME/VALID (ComputePaddingHeightWidth: the
 * total the output extent needs, halved, rounded down), or the explicit
 * amount a folded PAD left (rewrite pass 1).  The runtime's prepare computes
 * the same from the same options; the walk only needs the leading part. */
static int32_t lead_pad(const ta_op_options *o, bool w_axis, int32_t in, int32_t filter, int32_t stride, int32_t dil,
                        int32_t out) {
    if (o->padding == TA_PAD_EXPLICIT) return w_axis ? o->pad_left : o->pad_top;
    const int64_t total = ((int64_t)out - 1) * stride + ((int64_t)filter - 1) * dil + 1 - in;
    return total > 0 ? (int32_t)(total / 2) : 0;
}

/* The walk geometry of op k's input 0 -> output 0 (CONV_2D, AVERAGE_POOL_2D,
 * MAX_POOL_2D, all 4-D NHWC); false when the op is not one of them or its
 * shapes are not what its kernel takes (prepare refuses those anyway). */
static bool walk_geometry(const ta_graph *g, const ta_op *op, ta_conv_geometry *cg) {
    const ta_tensor *x = tensor0(g, op->n_inputs ? op->inputs[0] : -1), *y = tensor0(g, op->n_outputs ? op->outputs[0] : -1);
    if (!x || !y || x->rank != 4 || y->rank != 4) return false;
    const ta_op_options *o = &op->opt;
    memset(cg, 0, sizeof *cg);
    cg->batches = x->shape[0];
    cg->in_h = x->shape[1];
    cg->in_w = x->shape[2];
    cg->in_c = x->shape[3];
    cg->out_h = y->shape[1];
    cg->out_w = y->shape[2];
    cg->out_c = y->shape[3];
    cg->stride_h = o->stride_h;
    cg->stride_w = o->stride_w;
    cg->dilation_h = 1;
    cg->dilation_w = 1;
    if (op->kind == TA_OP_CONV_2D) {
        const ta_tensor *f = tensor0(g, op->n_inputs > 1 ? op->inputs[1] : -1);
        if (!f || f->rank != 4) return false;
        cg->filter_h = f->shape[1];
        cg->filter_w = f->shape[2];
        cg->dilation_h = o->dilation_h > 0 ? o->dilation_h : 1;
        cg->dilation_w = o->dilation_w > 0 ? o->dilation_w : 1;
    } else if (op->kind == TA_OP_AVERAGE_POOL_2D || op->kind == TA_OP_MAX_POOL_2D) {
        cg->filter_h = o->filter_h;
        cg->filter_w = o->filter_w;
    } else {
        return false;
    }
    if (y->shape[0] != cg->batches || cg->filter_h < 1 || cg->filter_w < 1 || cg->stride_h < 1 || cg->stride_w < 1)
        return false;
    cg->pad_top = lead_pad(o, false, cg->in_h, cg->filter_h, cg->stride_h, cg->dilation_h, cg->out_h);
    cg->pad_left = lead_pad(o, true, cg->in_w, cg->filter_w, cg->stride_w, cg->dilation_w, cg->out_w);
    cg->in_elem = (int32_t)ta_dtype_size(x->dtype);
    cg->out_elem = (int32_t)ta_dtype_size(y->dtype);
    return cg->pad_top >= 0 && cg->pad_left >= 0;
}

/* For each op of a kind in `walks` (the kernels that run the ROWS walk,
 * walk.h, whenever their output overlaps their input): when input 0's
 * buffer and output 0's buffer are both planned, different, and meet at
 * exactly this op (the input's buffer dies at its step, the output's is
 * born there), the relation its walk tolerates.  The walk's d is between
 * the tensors' own bytes; the buffers may be larger (padding, a group's
 * larger member), so d is moved by those differences: the relation on the
 * requests then permits exactly the placements the walk permits on the
 * tensors (Y's bytes start its request, X's start its request). */
ta_status ta_rewrite_overlaps(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of,
                              const size_t *buffer_at, const ta_op_kind_set *walks, const ta_request *reqs, const ta_buffer_origin *origin,
                              size_t n_req, void *mem, size_t bytes, ta_overlap *out, size_t cap, size_t *n_out,
                              ta_rewrite_stats *stats, ta_diag *d) {
    if (!g || !lt || !n_out || (n_req && (!reqs || !origin)) || (cap && !out))
        return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite overlaps: NULL argument");
    *n_out = 0;
    if (lt->n_tensors != g->n_tensors || lt->n_ops != g->n_ops)
        return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite overlaps: lifetimes are of another graph");
    if (!g->n_subgraphs || !walks) return TA_OK;
    const size_t need = ta_rewrite_overlaps_bytes(g);
    if (!mem || bytes < need) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite overlaps needs %zu bytes, has %zu", need, mem ? bytes : 0);
    ta__bump b;
    ta__bump_init_aligned(&b, mem, bytes);
    int32_t *req_of = ta__bump_take(&b, g->n_tensors, sizeof(int32_t));
    if (b.fail) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite overlaps needs %zu bytes, has %zu", need, bytes);
    for (uint32_t t = 0; t < g->n_tensors; t++) req_of[t] = -1;
    for (size_t i = 0; i < n_req; i++)
        if (origin[i].kind == TA_BUFFER_TENSOR && origin[i].index < g->n_tensors) req_of[origin[i].index] = (int32_t)i;
    const ta_subgraph *s = &g->subgraphs[0];
    const uint32_t base = s->tensor_base;
    size_t n = 0;
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        const int32_t step = lt->op_step[s->op_base + k];
        if (!ta_op_kind_set_has(walks, op->kind) || step < 0 || op->n_inputs < 1 || op->n_outputs != 1) continue;
        if (op->inputs[0] < 0 || op->outputs[0] < 0) continue;
        uint32_t xt = base + (uint32_t)op->inputs[0], yt = base + (uint32_t)op->outputs[0];
        if (xt >= g->n_tensors || yt >= g->n_tensors) continue;
        const uint32_t x_own = xt, y_own = yt;
        if (buffer_of) xt = (uint32_t)buffer_of[xt], yt = (uint32_t)buffer_of[yt];
        /* The relation below is for requests that start with the walked
         * tensors.  A view at an offset (SLICE, CONCAT: buffer_at) does not,
         * and an output that is a slice of a larger buffer (a CONCAT member)
         * shares its request with bytes the walk does not write: leave such
         * pairs alone. */
        if (buffer_at && buffer_at[y_own]) continue;
        /* An input at an offset in its group (a view, or a depthwise conv's
         * output at its input's end) is fine: the group dies here, so its
         * other bytes are free, unless this op reads them too. */
        const size_t ax = buffer_at ? buffer_at[x_own] : 0;
        bool other = false;
        for (uint32_t i = 1; i < op->n_inputs && buffer_of; i++) {
            const int32_t t = op->inputs[i];
            if (t >= 0 && base + (uint32_t)t < g->n_tensors && buffer_of[base + (uint32_t)t] == (int32_t)xt) other = true;
        }
        if (other) continue;
        if (yt != y_own && yt < g->n_tensors && g->tensors[yt].bytes > g->tensors[y_own].bytes) continue;
        if (xt >= g->n_tensors || yt >= g->n_tensors || req_of[xt] < 0 || req_of[yt] < 0 || req_of[xt] == req_of[yt])
            continue;
        const ta_request *rx = &reqs[req_of[xt]], *ry = &reqs[req_of[yt]];
        if (rx->last != step || ry->first != step || rx->fixed != TA_NO_OFFSET || ry->fixed != TA_NO_OFFSET)
            continue;
        ta_conv_geometry cg;
        if (!walk_geometry(g, op, &cg)) continue;
        ta_overlap rel;
        if (ta_walk_conv2d(&cg, TA_CONV_WALK_ROWS, &rel, NULL) != TA_OK) continue;
        const ta_tensor *x = tensor0(g, op->inputs[0]), *y = tensor0(g, op->outputs[0]);
        if (rel.d >= (int64_t)x->bytes) continue; /* the walk tolerates no overlap */
        const int64_t dd = rel.d + (int64_t)(ta_request_padded(rx) - ax - x->bytes) - (int64_t)(ta_request_padded(ry) - y->bytes);
        if (n < cap) out[n] = (ta_overlap){(uint32_t)req_of[xt], (uint32_t)req_of[yt], TA_OVERLAP_BELOW, dd};
        n++;
    }
    *n_out = n;
    if (stats) stats->overlapped += (uint32_t)n;
    if (n > cap) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite overlaps: %zu relations, room for %zu", n, cap);
    return TA_OK;
}
