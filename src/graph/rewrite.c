/* Rewrites that lower what must be live without changing an output bit
 * (see rewrite.h for when each applies and why it is exact). */
#include <string.h>

#include "common/util.h"
#include "tinyarena/rewrite.h"

/* ---- flag names ----------------------------------------------------------- */

static const struct {
    const char *name;
    uint32_t flag;
} k_names[] = {{"alias", TA_REWRITE_ALIAS},
               {"inplace", TA_REWRITE_INPLACE},
               {"fusepad", TA_REWRITE_FUSEPAD},
               {"order", TA_REWRITE_ORDER}};
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
            return ta_diag_set(d, TA_E_INVALID_ARG, "unknown rewrite '%s' (alias, inplace, fusepad, order, all, none)", word);
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

static bool control_flow(const ta_op *op) {
    return op->kind == TA_OP_IF || op->kind == TA_OP_WHILE || op->kind == TA_OP_CALL_ONCE ||
           op->kind == TA_OP_CALL;
}

/* Uses (as an op input) and producers of each tensor of subgraph 0; `last_user`
 * is the last op reading it (meaningful when uses == 1).  Counts saturate. */
typedef struct {
    uint16_t *uses, *producers;
    uint32_t *last_user;
} usage_t;

static void count_usage(const ta_graph *g, usage_t *u) {
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

/* ---- pass 1: FUSEPAD (and ORDER) ------------------------------------------ */

typedef struct {
    ta_graph_limits lim;    /* of the new graph: what g uses */
    uint8_t *fused;         /* per op of subgraph 0: a PAD folded into its conv */
    int32_t *conv_src;      /* per op: the tensor a fused conv reads, or -1 */
    int32_t *conv_pad;      /* per op: top, bottom, left, right of a fused conv */
    uint32_t *order;        /* execution order: op indices of subgraph 0 */
    usage_t u;
    void *graph_mem;
    size_t graph_bytes;
} pass1_t;

static bool carve1(ta__bump *b, const ta_graph *g, pass1_t *p) {
    memset(&p->lim, 0, sizeof p->lim);
    p->lim.subgraphs = g->n_subgraphs;
    p->lim.tensors = g->n_tensors;
    p->lim.ops = g->n_ops;
    p->lim.indices = g->index_used;
    p->lim.dims = g->dim_used;
    const uint32_t n_ops = g->n_subgraphs ? g->subgraphs[0].n_ops : 0;
    const uint32_t n_t = g->n_subgraphs ? g->subgraphs[0].n_tensors : 0;
    p->graph_bytes = ta_graph_bytes(&p->lim);
    if (!p->graph_bytes) return false;
    p->graph_mem = ta__bump_take(b, 1, p->graph_bytes);
    p->fused = ta__bump_take(b, n_ops, 1);
    p->conv_src = ta__bump_take(b, n_ops, sizeof(int32_t));
    p->conv_pad = ta__bump_take(b, n_ops, 4 * sizeof(int32_t));
    p->order = ta__bump_take(b, n_ops, sizeof(uint32_t));
    p->u.uses = ta__bump_take(b, n_t, sizeof(uint16_t));
    p->u.producers = ta__bump_take(b, n_t, sizeof(uint16_t));
    p->u.last_user = ta__bump_take(b, n_t, sizeof(uint32_t));
    return !b->fail;
}

size_t ta_rewrite_graph_bytes(const ta_graph *g, uint32_t flags) {
    (void)flags;
    if (!g) return 0;
    ta__bump b;
    pass1_t p;
    ta__bump_init(&b, NULL, 0);
    if (!carve1(&b, g, &p)) return 0;
    return ta__bump_need(&b);
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
static bool fusable_pad(const ta_graph *g, const usage_t *u, uint32_t k, uint32_t *conv, int32_t pad[4]) {
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
 * replaces it, see order_ops); 4. copy every subgraph into the new graph --
 * tensors first (same indices; a folded PAD's output flagged ELIDED), then
 * the ops in order, a fused conv reading the PAD's input with EXPLICIT
 * padding -- and the subgraph's inputs and outputs. */
ta_status ta_rewrite_graph(const ta_graph *g, uint32_t flags, void *mem, size_t bytes, ta_graph *out,
                           ta_rewrite_stats *stats, ta_diag *d) {
    if (!g || !out) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: NULL argument");
    if (flags & ~TA_REWRITE_ALL) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: unknown flags 0x%x", flags);
    const size_t need = ta_rewrite_graph_bytes(g, flags);
    if (!need || !mem || bytes < need)
        return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite needs %zu bytes, has %zu", need, mem ? bytes : 0);
    ta_status st = ta_graph_validate(g, d);
    if (st) return st;
    ta__bump b;
    pass1_t p;
    ta__bump_init_aligned(&b, mem, bytes);
    if (!carve1(&b, g, &p)) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite needs %zu bytes, has %zu", need, bytes);
    uint32_t n_ops0 = 0, n_order = 0, fused = 0;
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
        for (uint32_t k = 0; k < n_ops0; k++)
            if (!p.fused[k]) p.order[n_order++] = k;
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
                st = copy_op(out, op, in, &o);
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
    uint32_t moved = 0;
    for (uint32_t i = 0; i < n_order; i++) {
        /* position among the kept ops, against the model's */
        uint32_t before = 0;
        for (uint32_t k = 0; k < p.order[i]; k++) before += p.fused[k] ? 0 : 1;
        moved += before != i;
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

static bool inplace_kind(ta_op_kind k) {
    switch (k) {
    case TA_OP_ADD:
    case TA_OP_SUB:
    case TA_OP_MUL:
    case TA_OP_LOGISTIC:
    case TA_OP_TANH:
    case TA_OP_RELU:
    case TA_OP_RELU6:
    case TA_OP_RELU_N1_TO_1:
    case TA_OP_QUANTIZE:
    case TA_OP_DEQUANTIZE: return true;
    default: return false;
    }
}

static bool binary_kind(ta_op_kind k) { return k == TA_OP_ADD || k == TA_OP_SUB || k == TA_OP_MUL; }

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

/* Steps, over subgraph 0's ops in execution order (groups only ever grow by
 * an op's fresh output joining an input's group, so they stay flat):
 *  1. every tensor starts as its own group; a group's "needed until" is the
 *     latest last step of its members, a graph output counting as forever;
 *  2. ALIAS: a RESHAPE-like op's output joins its input's group;
 *  3. INPLACE: an elementwise op's output joins the group of its first input
 *     that qualifies -- above all, a group needed until exactly this op's
 *     step (the op is its last reader and no member is a graph output);
 *  4. a joining tensor extends its group's "needed until". */
ta_status ta_rewrite_buffers(const ta_graph *g, const ta_lifetimes *lt, uint32_t flags, void *mem, size_t bytes,
                             int32_t *buffer_of, ta_rewrite_stats *stats, ta_diag *d) {
    if (!g || !lt || !buffer_of) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: NULL argument");
    if (flags & ~TA_REWRITE_ALL) return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: unknown flags 0x%x", flags);
    if (lt->n_tensors != g->n_tensors || lt->n_ops != g->n_ops)
        return ta_diag_set(d, TA_E_INVALID_ARG, "rewrite: lifetimes are of another graph");
    for (uint32_t t = 0; t < g->n_tensors; t++) buffer_of[t] = (int32_t)t;
    if (!g->n_subgraphs || !(flags & (TA_REWRITE_ALIAS | TA_REWRITE_INPLACE))) return TA_OK;
    const size_t need = ta_rewrite_buffers_bytes(g);
    if (!mem || bytes < need) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite needs %zu bytes, has %zu", need, mem ? bytes : 0);
    const ta_subgraph *s = &g->subgraphs[0];
    const uint32_t base = s->tensor_base;
    ta__bump b;
    ta__bump_init_aligned(&b, mem, bytes);
    int32_t *until = ta__bump_take(&b, s->n_tensors, sizeof(int32_t));
    usage_t u;
    u.uses = ta__bump_take(&b, s->n_tensors, sizeof(uint16_t));
    u.producers = ta__bump_take(&b, s->n_tensors, sizeof(uint16_t));
    u.last_user = ta__bump_take(&b, s->n_tensors, sizeof(uint32_t));
    if (b.fail) return ta_diag_set(d, TA_E_NO_MEMORY, "rewrite needs %zu bytes, has %zu", need, bytes);
    count_usage(g, &u);
    for (uint32_t t = 0; t < s->n_tensors; t++)
        until[t] = (g->tensors[base + t].flags & TA_TENSOR_OUTPUT) ? INT32_MAX : lt->last[base + t];
    uint32_t aliased = 0, in_place = 0;
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
        int32_t join = -1;
        const bool reshape = op->kind == TA_OP_RESHAPE || op->kind == TA_OP_SQUEEZE || op->kind == TA_OP_EXPAND_DIMS;
        if (reshape && (flags & TA_REWRITE_ALIAS)) {
            const ta_tensor *x = tensor0(g, op->inputs[0]);
            if (x && op->inputs[0] != yi && ta_lifetime_is_planned(x) && x->dtype == y->dtype && x->bytes == y->bytes)
                join = op->inputs[0];
        } else if (inplace_kind(op->kind) && (flags & TA_REWRITE_INPLACE)) {
            const bool binary = binary_kind(op->kind);
            if (binary) {
                /* no broadcasting: every input is exactly the output's shape, so
                 * the kernel reads element i of each before writing element i */
                const ta_tensor *a = op->n_inputs == 2 ? tensor0(g, op->inputs[0]) : NULL;
                const ta_tensor *c = op->n_inputs == 2 ? tensor0(g, op->inputs[1]) : NULL;
                if (!a || !c || !same_shape(a, y) || !same_shape(c, y) || a->dtype != y->dtype || c->dtype != y->dtype)
                    continue;
            } else if (op->n_inputs != 1) {
                continue;
            }
            for (uint32_t i = 0; i < op->n_inputs && join < 0; i++) {
                const int32_t xi = op->inputs[i];
                const ta_tensor *x = tensor0(g, xi);
                if (!x || xi == yi || !ta_lifetime_is_planned(x) || !same_elements(x, y)) continue;
                const int32_t r = buffer_of[base + (uint32_t)xi] - (int32_t)base;
                if (until[r] == step) join = xi;
            }
        }
        if (join < 0) continue;
        const int32_t r = buffer_of[base + (uint32_t)join];
        buffer_of[base + (uint32_t)yi] = r;
        const int32_t ry = until[yi];
        if (ry > until[r - (int32_t)base]) until[r - (int32_t)base] = ry;
        if (reshape) aliased++;
        else in_place++;
    }
    if (stats) {
        stats->aliased += aliased;
        stats->in_place += in_place;
    }
    return TA_OK;
}
