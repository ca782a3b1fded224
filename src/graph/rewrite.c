/* Rewrites that lower what must be live without changing an output bit
 * (see rewrite.h for when each applies and why it is exact). */
#include "rewrite_internal.h"

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
               {"slice", TA_REWRITE_SLICE},
               {"silu", TA_REWRITE_SILU},
               {"inputs", TA_REWRITE_INPUTS},
               {"gather", TA_REWRITE_GATHER}};
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
            return ta_diag_set(d, TA_E_INVALID_ARG, "unknown rewrite '%s' (alias, inplace, fusepad, order, overlap, dwinplace, concat, slice, silu, inputs, gather, all, none)", word);
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

void ta__rw_count_usage(const ta_graph *g, tensor_usage *u) {
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
bool ta__rw_inplace_candidate(const ta_graph *g, const ta_op_kind_set *inplace, const ta_op *op, uint32_t i) {
    if (!ta_op_kind_set_has(inplace, op->kind) || op->n_outputs != 1 || i >= op->n_inputs) return false;
    const ta_tensor *y = tensor0(g, op->outputs[0]), *x = tensor0(g, op->inputs[i]);
    if (!x || !y || op->inputs[i] == op->outputs[0] || !ta_lifetime_is_planned(x) || !same_elements(x, y)) return false;
    if (op->n_inputs == 2) {
        /* a binary op: every input exactly the output's shape, so the kernel
         * reads element i of each before writing element i */
        const ta_tensor *a = tensor0(g, op->inputs[0]), *c = tensor0(g, op->inputs[1]);
        if (!a || !c || a->dtype != y->dtype || c->dtype != y->dtype) return false;
        if (same_shape(a, y) && same_shape(c, y)) return true;
        /* the other input broadcasts: ADD, SUB and MUL walk the output in
         * order (the broadcast walker, kernels' add.c, sub.c, mul.c), so
         * they read element i of a full-shape input before writing element
         * i -- over that input, never over the broadcast one (pass 2 checks
         * the two are not in one buffer) */
        return (op->kind == TA_OP_ADD || op->kind == TA_OP_SUB || op->kind == TA_OP_MUL) && same_shape(x, y);
    }
    return op->n_inputs == 1;
}

/* RESHAPE-like: the output may share the input's bytes (same dtype, same bytes). */
bool ta__rw_alias_candidate(const ta_graph *g, const ta_op *op) {
    if (op->kind != TA_OP_RESHAPE && op->kind != TA_OP_SQUEEZE && op->kind != TA_OP_EXPAND_DIMS) return false;
    if (op->n_outputs != 1 || op->n_inputs < 1 || op->inputs[0] == op->outputs[0]) return false;
    const ta_tensor *x = tensor0(g, op->inputs[0]), *y = tensor0(g, op->outputs[0]);
    return x && y && ta_lifetime_is_planned(x) && ta_lifetime_is_planned(y) && x->dtype == y->dtype && x->bytes == y->bytes;
}

/* ---- pass 1: FUSEPAD (and ORDER) ------------------------------------------ */

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
    p->silu = ta__bump_take(b, n_ops, 2 * sizeof(int32_t));
    p->conv_pad = ta__bump_take(b, n_ops, 4 * sizeof(int32_t));
    p->order = ta__bump_take(b, n_ops, sizeof(uint32_t));
    p->cat = ta__bump_take(b, n_ops, 3 * sizeof(int32_t));
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
    if ((flags & TA_REWRITE_ORDER) && n_ops <= ORDER_MAX_OPS) ta__rw_carve_order(b, g, &p->o);
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

/* Op `op` into `out` as `kind`, reading inputs[0 .. n_in) with intermediates
 * inter[0 .. n_inter) and options `opt` (everything else op's). */
static ta_status copy_op(ta_graph *out, const ta_op *op, ta_op_kind kind, const int32_t *inputs, uint32_t n_in,
                         const int32_t *inter, uint32_t n_inter, const ta_op_options *opt) {
    ta_op_desc d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.custom_name = op->custom_name;
    d.builtin_code = op->builtin_code;
    d.version = op->version;
    d.inputs = inputs;
    d.n_inputs = n_in;
    d.outputs = op->outputs;
    d.n_outputs = op->n_outputs;
    d.intermediates = inter;
    d.n_intermediates = n_inter;
    d.opt = opt;
    d.custom_data = op->custom_data;
    d.custom_data_bytes = op->custom_data_bytes;
    return ta_graph_add_op(out, &d, NULL);
}

/* Whether LOGISTIC op `k` of subgraph 0 fuses with the MUL reading its
 * output into one SILU (rewrite.h gives the conditions); on success *mul
 * gets the MUL's index.  The SILU kernel runs the LOGISTIC's and the MUL's
 * arithmetic per element, so only what keeps that arithmetic the same is
 * asked: one shape (no broadcasting), one dtype with a kernel for both. */
static bool silu_pair(const ta_graph *g, const tensor_usage *u, uint32_t k, uint32_t *mul) {
    const ta_subgraph *s = &g->subgraphs[0];
    const ta_op *op = &g->ops[s->op_base + k];
    if (op->kind != TA_OP_LOGISTIC || op->n_inputs != 1 || op->n_outputs != 1) return false;
    const int32_t xi = op->inputs[0], si = op->outputs[0];
    const ta_tensor *x = tensor0(g, xi), *sg = tensor0(g, si);
    if (!x || !sg || xi == si || !ta_lifetime_is_planned(sg)) return false;
    if (sg->flags & (TA_TENSOR_INPUT | TA_TENSOR_OUTPUT | TA_TENSOR_CONST | TA_TENSOR_VARIABLE)) return false;
    if (u->uses[si] != 1 || u->producers[si] != 1) return false;
    const uint32_t m = u->last_user[si];
    const ta_op *mo = &g->ops[s->op_base + m];
    if (m <= k || mo->kind != TA_OP_MUL || mo->n_inputs != 2 || mo->n_outputs != 1 || mo->n_intermediates) return false;
    if (!((mo->inputs[0] == xi && mo->inputs[1] == si) || (mo->inputs[0] == si && mo->inputs[1] == xi))) return false;
    const ta_tensor *y = tensor0(g, mo->outputs[0]);
    if (!y || mo->outputs[0] == xi || mo->outputs[0] == si) return false;
    if (x->dtype != sg->dtype || x->dtype != y->dtype || (x->dtype != TA_DTYPE_INT8 && x->dtype != TA_DTYPE_FLOAT32))
        return false;
    if (!same_shape(x, sg) || !same_shape(x, y)) return false;
    *mul = m;
    return true;
}

/* No quantisation on either, or one affine one, the same (same_quant). */
static bool same_quant_or_none(const ta_tensor *a, const ta_tensor *b) {
    return (!a->quant.count && !b->quant.count) || same_quant(a, b);
}

/* The op of subgraph 0 writing local tensor t, when exactly one does. */
static const ta_op *producer(const ta_graph *g, const tensor_usage *u, int32_t t) {
    const ta_subgraph *s = &g->subgraphs[0];
    if (t < 0 || (uint32_t)t >= s->n_tensors || u->producers[t] != 1) return NULL;
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        for (uint32_t j = 0; j < op->n_outputs; j++)
            if (op->outputs[j] == t) return op;
    }
    return NULL;
}

/* SLICE's rejoin: CONCATENATION op k whose consecutive inputs first ..
 * first + count - 1 (count >= 2) are STRIDED_SLICE outputs (ta__rw_slice_box)
 * of one planned tensor X that, in order, tile X along the concat's axis --
 * each the whole of X on every other axis, the first from 0, each from
 * where the one before stops, the last to X's end -- with X's dtype and
 * quantisation.  Those blocks, in that order, are X's own bytes per outer
 * step, so the concat reading X instead writes the same bytes (YOLOv8's
 * C2f: split in two, concatenated back with the bottlenecks' outputs).
 * The first such run of the op. */
static bool rejoin_run(const ta_graph *g, const tensor_usage *u, uint32_t k, int32_t *first, int32_t *count,
                       int32_t *src) {
    const ta_subgraph *s = &g->subgraphs[0];
    const ta_op *op = &g->ops[s->op_base + k];
    if (op->kind != TA_OP_CONCATENATION || op->n_outputs != 1 || op->n_inputs < 2 || op->n_inputs > 64) return false;
    const ta_tensor *y = tensor0(g, op->outputs[0]);
    if (!y || y->rank < 1 || y->rank > 5) return false;
    const int32_t axis = op->opt.axis < 0 ? op->opt.axis + y->rank : op->opt.axis;
    if (axis < 0 || axis >= y->rank) return false;
    for (uint32_t i = 0; i + 1 < op->n_inputs; i++) {
        int32_t x = -1;
        int64_t next = 0;
        uint32_t j = i;
        for (; j < op->n_inputs; j++) {
            const ta_op *so = producer(g, u, op->inputs[j]);
            int64_t st[5], sp[5];
            if (!so || !ta__rw_slice_box(g, so, st, sp) || (x >= 0 && so->inputs[0] != x)) break;
            const ta_tensor *xt = tensor0(g, so->inputs[0]), *t = tensor0(g, op->inputs[j]);
            if (!xt || !t || xt->rank != y->rank || xt->dtype != y->dtype || !ta_lifetime_is_planned(xt) ||
                !same_quant_or_none(xt, t) || st[axis] != next)
                break;
            bool whole = true;
            for (int32_t a = 0; a < y->rank; a++)
                if (a != axis && (st[a] != 0 || sp[a] != xt->shape[a])) whole = false;
            if (!whole) break;
            x = so->inputs[0];
            next = sp[axis];
            if (next == xt->shape[axis]) {
                j++;
                break;
            }
        }
        const ta_tensor *xt = tensor0(g, x);
        if (x >= 0 && j - i >= 2 && xt && next == xt->shape[axis]) {
            *first = (int32_t)i;
            *count = (int32_t)(j - i);
            *src = x;
            return true;
        }
    }
    return false;
}

/* GATHER: a TRANSPOSE_CONV whose data input (input 2) is int8 or int16 --
 * the types whose kernels accumulate in scratch under TFLM's scatter order;
 * float accumulates in its output and has no scratch to save.  The mark
 * makes its prepare pick the output-stationary kernel and ask for no
 * scratch (the bytes are the same: kernels.h says why). */
static bool gather_candidate(const ta_graph *g, const ta_op *op) {
    if (op->kind != TA_OP_TRANSPOSE_CONV || op->n_inputs < 3 || op->inputs[2] < 0) return false;
    const ta_subgraph *s = &g->subgraphs[op->subgraph];
    if ((uint32_t)op->inputs[2] >= s->n_tensors) return false;
    const ta_dtype t = g->tensors[s->tensor_base + (uint32_t)op->inputs[2]].dtype;
    return t == TA_DTYPE_INT8 || t == TA_DTYPE_INT16;
}

/* Steps: 1. count uses and producers of subgraph 0's tensors; 2. FUSEPAD:
 * mark every PAD that folds into its conv and note the conv's new input and
 * padding; SILU: mark every LOGISTIC that fuses with its MUL and note the
 * MUL's x and sigmoid; 3. the execution order: the model's, minus folded
 * PADs and fused LOGISTICs (ORDER
 * may replace it, see ta__rw_order_ops); 4. copy every subgraph into the new graph --
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
    uint32_t n_ops0 = 0, n_order = 0, fused = 0, silu = 0, moved = 0, gathered = 0, rejoined = 0;
    if (g->n_subgraphs) {
        const ta_subgraph *s0 = &g->subgraphs[0];
        n_ops0 = s0->n_ops;
        ta__rw_count_usage(g, &p.u);
        for (uint32_t k = 0; k < n_ops0; k++) {
            p.fused[k] = 0;
            p.conv_src[k] = -1;
            p.silu[2 * k] = p.silu[2 * k + 1] = -1;
            p.cat[3 * k] = p.cat[3 * k + 1] = 0;
            p.cat[3 * k + 2] = -1;
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
        for (uint32_t k = 0; (flags & TA_REWRITE_SILU) && k < n_ops0; k++) {
            uint32_t m;
            if (!silu_pair(g, &p.u, k, &m)) continue;
            p.fused[k] = 1;
            p.silu[2 * m] = g->ops[s0->op_base + k].inputs[0];
            p.silu[2 * m + 1] = g->ops[s0->op_base + k].outputs[0];
            silu++;
        }
        for (uint32_t k = 0; (flags & TA_REWRITE_SLICE) && k < n_ops0; k++) {
            int32_t f, c, x;
            if (!rejoin_run(g, &p.u, k, &f, &c, &x)) continue;
            p.cat[3 * k] = f, p.cat[3 * k + 1] = c, p.cat[3 * k + 2] = x;
            rejoined++;
            /* a slice only this concat read disappears (its output ELIDED) */
            const ta_op *cop = &g->ops[s0->op_base + k];
            for (int32_t i = f; i < f + c; i++) {
                const int32_t t = cop->inputs[i];
                const ta_tensor *tt = tensor0(g, t);
                if (!tt || p.u.uses[t] != 1 || (tt->flags & (TA_TENSOR_OUTPUT | TA_TENSOR_INPUT))) continue;
                for (uint32_t q = 0; q < n_ops0; q++) {
                    const ta_op *so = &g->ops[s0->op_base + q];
                    if (so->kind == TA_OP_STRIDED_SLICE && so->n_outputs == 1 && so->outputs[0] == t && !p.fused[q])
                        p.fused[q] = 1;
                }
            }
        }
        for (uint32_t k = 0; k < n_ops0; k++) {
            p.dwip[k] = 0;
            if (p.fused[k] || !(flags & TA_REWRITE_DWINPLACE)) continue;
            const int32_t src = p.conv_src[k] >= 0 ? p.conv_src[k] : g->ops[s0->op_base + k].inputs[0];
            p.dwip[k] = ta__rw_dw_candidate(g, flags, &p.u, k, src);
        }
        for (uint32_t k = 0; k < n_ops0; k++)
            if (!p.fused[k]) p.order[n_order++] = k;
        if ((flags & TA_REWRITE_ORDER) && p.o.trail) moved = ta__rw_order_ops(g, flags, &p, n_order);
        if (flags & TA_REWRITE_DWINPLACE) ta__rw_dw_select(g, flags, &p, n_order);
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
                st = copy_op(out, op, op->kind, in, op->n_inputs, op->intermediates, op->n_intermediates, &o);
            } else if (si == 0 && p.cat[3 * k + 1]) {
                /* the rejoined slices' run becomes their source */
                int32_t in[64];
                const int32_t f = p.cat[3 * k], c = p.cat[3 * k + 1];
                uint32_t m = 0;
                for (int32_t q = 0; q < (int32_t)op->n_inputs; q++)
                    if (q < f || q >= f + c) in[m++] = op->inputs[q];
                    else if (q == f) in[m++] = p.cat[3 * k + 2];
                st = copy_op(out, op, op->kind, in, m, op->intermediates, op->n_intermediates, &op->opt);
            } else if (si == 0 && p.silu[2 * k] >= 0) {
                /* the MUL becomes the SILU: x in, the sigmoid as its intermediate */
                st = copy_op(out, op, TA_OP_SILU, &p.silu[2 * k], 1, &p.silu[2 * k + 1], 1, &op->opt);
            } else if (si == 0 && p.dwip[k]) {
                ta_op_options o = op->opt;
                o.in_place = true;
                st = copy_op(out, op, op->kind, op->inputs, op->n_inputs, op->intermediates, op->n_intermediates, &o);
            } else if (si == 0 && (flags & TA_REWRITE_GATHER) && gather_candidate(g, op)) {
                ta_op_options o = op->opt;
                o.gather = true;
                st = copy_op(out, op, op->kind, op->inputs, op->n_inputs, op->intermediates, op->n_intermediates, &o);
                gathered++;
            } else {
                st = copy_op(out, op, op->kind, op->inputs, op->n_inputs, op->intermediates, op->n_intermediates,
                             &op->opt);
            }
            if (st) return ta_diag_set(d, st, "rewrite: graph copy failed");
        }
        if ((st = ta_graph_set_io(out, s->inputs, s->n_inputs, s->outputs, s->n_outputs)))
            return ta_diag_set(d, st, "rewrite: graph copy failed");
    }
    /* the folded PADs' outputs and the fused sigmoids: nothing reads or
     * writes them any more */
    if (g->n_subgraphs) {
        const ta_subgraph *s0 = &g->subgraphs[0];
        for (uint32_t k = 0; k < n_ops0; k++)
            if (p.fused[k]) out->tensors[s0->tensor_base + (uint32_t)g->ops[s0->op_base + k].outputs[0]].flags |= TA_TENSOR_ELIDED;
    }
    if (stats) {
        stats->fused_pads += fused;
        stats->silu_fused += silu;
        stats->slices_rejoined += rejoined;
        stats->gathered += gathered;
        stats->reordered += moved;
    }
    return TA_OK;
}
