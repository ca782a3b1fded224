/*
 * Control flow and resource variables in the runtime: the flow block of
 * the tail and the host (ops.h, ta__op_host) through which IF, WHILE,
 * CALL_ONCE, READ_VARIABLE and ASSIGN_VARIABLE reach the runtime.
 *
 * A model with several subgraphs or a VAR_HANDLE gets, after the rest of
 * the tail, one flow block: the host, per global op its scratch, state,
 * lifetime step and subgraph (records, tensor pointers and scratch are
 * indexed by global op and tensor: subgraph 0 comes first, so its ops and
 * tensors keep their indices), and per resource variable its bytes.
 * Subgraph 0 runs from runtime.c's invoke loop; the others run here when
 * an op calls host->run, each op as that loop runs it (poison checks
 * included: each op has its own step in the nested lifetimes).
 *
 * From an init table (the budget header's firmware path) the same block
 * is laid out from the table's flow section (runtime_flow_table.c), with
 * ta__rt_flow_layout below.
 */
#include "runtime/runtime_int.h"

static size_t up(size_t n, size_t a) { return ta__align_up(n, a); }

static ta_status host_run(void *ctx, uint32_t op_base, uint32_t n_ops, uint32_t tbase, ta_diag *diag);
static uint8_t *host_var(void *ctx, uint32_t id, uint32_t *bytes);

/* The block's layout in one place for both paths and every ABI: the
 * structs' sizes with pointers of P bytes (the asserts below hold them to
 * sizeof on the ABI that compiles this file: hosts, -m32, Cortex-M). */
#define UP(n, a) (((n) + (a) - 1) / (a) * (a))
#define HOST_BYTES(P) (UP(5 * (P) + 4, (P)) + (P)) /* ta__op_host */
#define FLOW_BYTES(P) (UP(HOST_BYTES(P) + 28, (P)) + 2 * (P))
#define FOP_BYTES(P) UP(2 * (P) + 24, (P))
#define RVAR_BYTES(P) UP((P) + 5, (P))
_Static_assert(sizeof(ta__op_host) == HOST_BYTES(sizeof(void *)), "ta__op_host layout");
_Static_assert(sizeof(struct ta__rt_flow) == FLOW_BYTES(sizeof(void *)), "ta__rt_flow layout");
_Static_assert(sizeof(ta__rt_fop) == FOP_BYTES(sizeof(void *)), "ta__rt_fop layout");
_Static_assert(sizeof(ta__rt_rvar) == RVAR_BYTES(sizeof(void *)), "ta__rt_rvar layout");

size_t ta__rt_flow_block_bytes(size_t n_ops, size_t n_vars, size_t var_bytes, size_t TA, size_t P) {
    size_t b = up(FLOW_BYTES(P), TA) + up(n_ops > SIZE_MAX / 64 ? SIZE_MAX / 2 : n_ops * FOP_BYTES(P), TA);
    b = ta__add_sat(b, up(n_vars > SIZE_MAX / 64 ? SIZE_MAX / 2 : n_vars * RVAR_BYTES(P), TA));
    return ta__add_sat(b, var_bytes);
}

struct ta__rt_flow *ta__rt_flow_layout(uint8_t *block, uint32_t n_main, uint32_t n_ops, uint32_t n_vars, size_t TA,
                                       uint8_t **var_data) {
    struct ta__rt_flow *f = (struct ta__rt_flow *)block;
    memset(f, 0, sizeof *f);
    f->host.run = host_run;
    f->host.var = host_var;
    f->n_main = n_main;
    f->n_ops = n_ops;
    f->n_vars = n_vars;
    f->ops = (ta__rt_fop *)(block + up(sizeof *f, TA));
    f->vars = (ta__rt_rvar *)((uint8_t *)f->ops + up(n_ops * sizeof(ta__rt_fop), TA));
    *var_data = (uint8_t *)f->vars + up(n_vars * sizeof(ta__rt_rvar), TA);
    return f;
}

/* The variables are found again at init (ta__var_scan: one pass over the
 * ops, its table on the stack) rather than kept in the work block. */
void ta__rt_flow_figures(ta_runtime *rt, const ta__built *w) {
    rt->b.flow_bytes = w->flow_bytes;
    rt->b.n_flow_ops = w->n_flow_ops;
    rt->b.n_flow_vars = w->n_rvars;
    rt->b.flow_var_bytes = w->rvar_bytes;
}

ta_status ta__rt_flow_bytes(ta_runtime *rt, ta__built *w, ta_diag *diag) {
    const ta_graph *g = &w->g;
    const size_t TA = w->tail_align;
    ta__var_table vt;
    const ta_status st = ta__var_scan(g, -1, &vt, NULL, diag);
    if (st) return st;
    size_t vb = 0;
    for (uint32_t i = 0; i < vt.n; i++) vb = ta__add_sat(vb, up(vt.v[i].bytes, TA));
    w->n_flow_ops = g->n_ops;
    w->n_rvars = vt.n;
    w->rvar_bytes = vb;
    w->flow_bytes = ta__rt_flow_block_bytes(g->n_ops, vt.n, vb, TA, sizeof(void *));
    ta__rt_flow_figures(rt, w);
    return TA_OK;
}

void ta__rt_flow_reset(ta_runtime *rt) {
    const struct ta__rt_flow *f = rt->flow;
    for (uint32_t i = 0; f && i < f->n_vars; i++) memset(f->vars[i].data, f->vars[i].fill, f->vars[i].bytes);
}

/* ---- the host ------------------------------------------------------------------ */

/* Poison mode: the checksums of the planned buffers created at `step` (a
 * subgraph's inputs and outputs at its entry step) or holding p. */
static void resum(ta_runtime *rt, int32_t step, const uint8_t *p) {
    for (size_t i = 0; i < rt->n_pbuf; i++) {
        ta_poison_buf *pb = &rt->pbuf[i];
        if (pb->tensor < 0) continue;
        if (p ? (p >= pb->data && p < pb->data + pb->bytes) : pb->first == step) {
            pb->sum = ta__rt_fnv32(FNV32_START, pb->data, pb->bytes);
            pb->taken = 1;
        }
    }
}

static void host_wrote(void *ctx, const void *p) { resum((ta_runtime *)ctx, 0, (const uint8_t *)p); }

static uint8_t *host_var(void *ctx, uint32_t id, uint32_t *bytes) {
    const struct ta__rt_flow *f = ((ta_runtime *)ctx)->flow;
    *bytes = 0;
    if (id >= f->n_vars) return NULL;
    *bytes = f->vars[id].bytes;
    return f->vars[id].data;
}

static ta_status host_run(void *ctx, uint32_t op_base, uint32_t n_ops, uint32_t tbase, ta_diag *diag) {
    ta_runtime *rt = (ta_runtime *)ctx;
    struct ta__rt_flow *f = rt->flow;
    if (op_base > f->n_ops || n_ops > f->n_ops - op_base || tbase > rt->n_tensors)
        return ta_diag_set(diag, TA_E_STATE, "a control-flow record names ops outside the model (corrupted)");
    const struct ta__work_path *poison = rt->opt.poison && rt->pbuf ? rt->opt.work_path : NULL;
    /* this call's steps: the caller's offset plus where this call lies from
     * the subgraph's own steps (then = else: either call's, one caller) */
    const uint32_t caller = f->cur;
    const int32_t delta = f->delta;
    if (caller < f->n_ops && n_ops) {
        const ta__rt_fop *c = &f->ops[caller];
        f->delta = delta + c->dsub[f->ops[op_base].sg == c->sub_a ? 0 : 1];
    }
    if (poison && n_ops) resum(rt, f->ops[op_base].step - 1 + f->delta, NULL); /* its inputs (copied in) and outputs */
    ta_status st = TA_OK;
    for (uint32_t o = op_base; !st && o < op_base + n_ops; o++) {
        const ta__rt_fop *fo = &f->ops[o];
        const int32_t step = fo->step + f->delta;
        f->cur = o;
        if (poison) poison->poison_fill(rt, step);
        const uint8_t *rec = ta__rt_op_record(rt, o);
        st = ta__op_invoke_host(rt->opt.ops, rec, rt->ptrs + tbase, fo->scratch, fo->state, poison != NULL, &f->host, diag);
        if (st) {
            ta_diag tmp;
            memset(&tmp, 0, sizeof tmp);
            if (diag) tmp = *diag;
            st = ta_diag_set(diag, st, "subgraph %u op %u: %s", fo->sg, o - op_base, tmp.msg);
        } else if (poison) {
            st = poison->poison_check(rt, step, o, diag);
        }
    }
    f->cur = caller;
    f->delta = delta;
    return st;
}

const ta__op_host *ta__rt_flow_host(ta_runtime *rt) {
    if (!rt->flow) return NULL;
    /* the runtime struct may have moved since init: the host finds it here */
    rt->flow->host.ctx = rt;
    rt->flow->host.ptrs = rt->ptrs;
    rt->flow->host.wrote = rt->opt.poison && rt->pbuf ? host_wrote : NULL;
    rt->flow->host.max_iterations = rt->opt.max_iterations ? rt->opt.max_iterations : TA_RUNTIME_MAX_ITERATIONS;
    rt->flow->spent = 0;
    rt->flow->host.spent = &rt->flow->spent;
    rt->flow->cur = UINT32_MAX;
    rt->flow->delta = 0;
    return &rt->flow->host;
}

/* ---- layout -------------------------------------------------------------------- */

static bool control_flow(const ta_op *op) {
    return op->kind == TA_OP_IF || op->kind == TA_OP_WHILE || op->kind == TA_OP_CALL_ONCE;
}

/* The lifetimes' walk again (lifetime.c: each op a step, each subgraph
 * entry a step, then its ops), from `scope` at subgraph sg's entry; at
 * each control-flow op it notes how far each call's entry lies from the
 * called subgraph's own entry (its first op's step - 1: the steps its ops
 * keep are from its last call).  The walk's last visit of an op is the
 * lifetimes' last, so its notes match its own step.  Depth and steps are
 * what lifetime analysis already bounded.  Returns the scope after sg. */
static int32_t walk(const ta_graph *g, const int32_t *op_step, uint32_t sg, int32_t scope, struct ta__rt_flow *f) {
    const ta_subgraph *s = &g->subgraphs[sg];
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const uint32_t o = s->op_base + k;
        const ta_op *op = &g->ops[o];
        scope++;
        if (!control_flow(op)) continue;
        const int32_t ref[2] = {op->opt.subgraph_a, op->opt.subgraph_b};
        f->ops[o].sub_a = ref[0] >= 0 ? (uint32_t)ref[0] : UINT32_MAX;
        for (int j = 0; j < 2; j++) {
            if (ref[j] < 0 || (uint32_t)ref[j] >= g->n_subgraphs) continue;
            const ta_subgraph *x = &g->subgraphs[ref[j]];
            scope++;
            f->ops[o].dsub[j] = x->n_ops ? scope - (op_step[x->op_base] - 1) : 0;
            scope = walk(g, op_step, (uint32_t)ref[j], scope, f);
        }
    }
    return scope;
}

void ta__rt_flow_init(ta_runtime *rt, const ta__built *w, uint8_t *block) {
    const ta_graph *g = &w->g;
    ta__var_table vtab;
    const ta__var_table *vt = ta__var_scan(g, -1, &vtab, NULL, NULL) == TA_OK ? &vtab : NULL; /* build's scan passed */
    uint8_t *at;
    struct ta__rt_flow *f = ta__rt_flow_layout(block, g->subgraphs[0].n_ops, g->n_ops, vt ? vt->n : 0, w->tail_align, &at);
    f->n_sg = g->n_subgraphs;
    for (uint32_t o = 0, ks = 0, kst = 0; o < g->n_ops; o++) {
        ta__rt_fop *fo = &f->ops[o];
        fo->scratch = w->info[o].scratch_bytes && ks < rt->n_scratch_ops ? rt->scratch_ptrs[ks++] : NULL;
        fo->state = w->info[o].state_bytes && kst < rt->n_state_ops ? rt->state_ptrs[kst++] : NULL;
        fo->step = w->lt.op_step ? w->lt.op_step[o] : (int32_t)o + 1;
        fo->sg = g->ops[o].subgraph;
        fo->tbase = g->subgraphs[fo->sg].tensor_base;
        fo->sub_a = UINT32_MAX;
        fo->dsub[0] = fo->dsub[1] = 0;
    }
    if (w->lt.op_step && g->n_subgraphs) walk(g, w->lt.op_step, 0, 0, f);
    for (uint32_t i = 0; i < f->n_vars; i++) {
        f->vars[i].data = at;
        f->vars[i].bytes = vt->v[i].bytes;
        f->vars[i].fill = vt->v[i].fill;
        at += up(vt->v[i].bytes, w->tail_align);
    }
    rt->flow = f;
    ta__rt_flow_reset(rt);
}
