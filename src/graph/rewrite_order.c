/* ORDER: a memory-aware topological order (rewrite.h). */
#include "rewrite_internal.h"

void ta__rw_carve_order(ta__bump *b, const ta_graph *g, order_search *o) {
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
uint32_t ta__rw_order_ops(const ta_graph *g, uint32_t flags, pass1_work *p, uint32_t n) {
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
        if ((flags & TA_REWRITE_ALIAS) && ta__rw_alias_candidate(g, op) && p->conv_src[k] < 0)
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
                if (eff_input(g, p, k, i) == op->inputs[i] && ta__rw_inplace_candidate(g, p->inplace, op, i)) add_unique(o->pins, o->ps[v], &np, (uint32_t)o->buf[op->inputs[i]]);
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

