/* DWINPLACE: which depthwise convs may run over their input (rewrite.h). */
#include "rewrite_internal.h"

/* Whether depthwise op `k` of subgraph 0, reading data tensor `xi` (the
 * PAD's input when FUSEPAD folded one into it), may write its output over
 * xi (rewrite.h gives the conditions and why).  The graph-level half: the
 * buffers' half (xi's buffer is needed until exactly this op) is pass 2's. */
bool ta__rw_dw_candidate(const ta_graph *g, uint32_t flags, const tensor_usage *u, uint32_t k, int32_t xi) {
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
            if (pj->n_outputs == 1 && pj->outputs[0] == xi && ta__rw_alias_candidate(g, pj)) return false;
        }
    return true;
}

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
        } else if (ta__rw_alias_candidate(g, op) && p->conv_src[k] < 0) {
            if (flags & TA_REWRITE_ALIAS) join = op->inputs[0];
        } else if (flags & TA_REWRITE_INPLACE) {
            for (uint32_t i = 0; i < op->n_inputs && join < 0; i++)
                if (ta__rw_inplace_candidate(g, p->inplace, op, i) && p->dw_until[p->dw_root[op->inputs[i]]] == step)
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
void ta__rw_dw_select(const ta_graph *g, uint32_t flags, pass1_work *p, uint32_t n) {
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
        if (!x || !ta__rw_walk_geometry(g, &run, &cg) || ta_walk_conv2d(&cg, TA_CONV_WALK_ROWS, &rel, NULL) != TA_OK) continue;
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

