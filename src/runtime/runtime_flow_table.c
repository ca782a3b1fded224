/*
 * Control flow and resource variables from an init table: the table's flow
 * section (runtime_int.h describes its words), written by
 * ta_runtime_export_init and read back by init with no graph.
 *
 * The work-block path lays out the flow block from the imported graph
 * (runtime_subgraph.c, ta__rt_flow_init).  From an init table there is no
 * graph: what the block needs of one -- each subgraph's op and tensor
 * range (which subgraph an op belongs to, where its tensors start),
 * subgraph 0's op count (what invoke's loop runs), and each resource
 * variable's bytes and reset byte -- is in the section, and the rest comes
 * from the records (scratch and state per op, in op order, as fast_init
 * hands them out).  The records of IF, WHILE and CALL_ONCE carry their
 * subgraphs' ranges themselves, and READ/ASSIGN_VARIABLE their variable's
 * id and bytes, which the host checks against the section's at invoke.
 *
 * The WHILE cap is not in the table: it is the runtime's option
 * (ta_runtime_options.max_iterations, default TA_RUNTIME_MAX_ITERATIONS),
 * which firmware sets like any other.
 *
 * Reached from runtime.c only through ta__rt_flow_table, which only the
 * TA__OP_HOST op definitions name (ops/op.h): a firmware whose op list has
 * no control-flow or variable op links none of this, nor the host.
 */
#include "runtime/runtime_int.h"

/* ---- export (the work-block path) ----------------------------------------- */

size_t ta__rt_flow_section_bytes(const ta_runtime *rt, const ta__built *w) {
    const uint32_t nv = rt->flow ? rt->flow->n_vars : 0;
    return FLOW_HDR + (size_t)FLOW_SG * w->g.n_subgraphs + (size_t)FLOW_VAR * nv;
}

void ta__rt_flow_section_write(const ta_runtime *rt, const ta__built *w, uint8_t *out) {
    const struct ta__rt_flow *f = rt->flow;
    const uint32_t nv = f ? f->n_vars : 0;
    ta__wr32(out, w->g.n_subgraphs);
    ta__wr32(out + 4, nv);
    ta__wr32(out + 8, 0);
    ta__wr32(out + 12, 0);
    uint8_t *q = out + FLOW_HDR;
    for (uint32_t s = 0; s < w->g.n_subgraphs; s++, q += FLOW_SG) {
        const ta_subgraph *sg = &w->g.subgraphs[s];
        ta__wr32(q, sg->op_base);
        ta__wr32(q + 4, sg->n_ops);
        ta__wr32(q + 8, sg->tensor_base);
        ta__wr32(q + 12, sg->n_tensors);
    }
    for (uint32_t i = 0; i < nv; i++, q += FLOW_VAR) {
        ta__wr32(q, f->vars[i].bytes);
        ta__wr32(q + 4, f->vars[i].fill);
    }
}

/* ---- init from the table ---------------------------------------------------- */

static ta_status corrupt(ta_diag *diag, const char *what) {
    return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: flow section: %s (corrupted)", what);
}

/* The subgraphs tile the ops and the tensors in order, subgraph 0 first
 * (every index the block derives from them then lies inside the model's
 * tables); at most TA__MAX_VARS variables, each below 4 GiB. */
static ta_status check(ta_runtime *rt, ta__built *w, uint32_t n_ops, uint32_t n_t, ta_diag *diag) {
    const uint8_t *s = w->fsec;
    const size_t len = w->fsec_len;
    if (len < FLOW_HDR) return corrupt(diag, "shorter than its header");
    const uint32_t n_sg = ta__rd32(s), n_v = ta__rd32(s + 4);
    if (!n_sg || n_v > TA__MAX_VARS || ta__rd32(s + 8) || ta__rd32(s + 12) ||
        len != FLOW_HDR + (uint64_t)FLOW_SG * n_sg + (uint64_t)FLOW_VAR * n_v)
        return corrupt(diag, "its counts do not match its size");
    const uint8_t *q = s + FLOW_HDR;
    uint64_t ops = 0, ts = 0;
    for (uint32_t k = 0; k < n_sg; k++, q += FLOW_SG) {
        if (ta__rd32(q) != ops || ta__rd32(q + 8) != ts) return corrupt(diag, "the subgraphs do not tile the ops and tensors");
        ops += ta__rd32(q + 4);
        ts += ta__rd32(q + 12);
    }
    if (ops != n_ops || ts != n_t) return corrupt(diag, "the subgraphs do not tile the ops and tensors");
    size_t vb = 0;
    for (uint32_t i = 0; i < n_v; i++, q += FLOW_VAR) {
        if (ta__rd32(q + 4) > 0xFFu) return corrupt(diag, "a variable's reset value is not a byte");
        vb = ta__add_sat(vb, ta__align_up(ta__rd32(q), w->tail_align));
    }
    w->flow = true;
    w->n_flow_ops = n_ops;
    w->n_rvars = n_v;
    w->rvar_bytes = vb;
    w->flow_bytes = ta__rt_flow_block_bytes(n_ops, n_v, vb, w->tail_align, sizeof(void *));
    ta__rt_flow_figures(rt, w);
    return TA_OK;
}

/* After fast_init handed out the scratch and state pointers (op order). */
static void init(ta_runtime *rt, const ta__built *w, uint8_t *block) {
    const uint8_t *s = w->fsec, *sgs = s + FLOW_HDR;
    const uint32_t n_sg = ta__rd32(s), n_v = ta__rd32(s + 4);
    uint8_t *at;
    struct ta__rt_flow *f = ta__rt_flow_layout(block, ta__rd32(sgs + 4), rt->n_ops, n_v, w->tail_align, &at);
    f->n_sg = n_sg;
    for (uint32_t o = 0, ks = 0, kst = 0, sg = 0; o < rt->n_ops; o++) {
        while (sg + 1 < n_sg && o >= ta__rd32(sgs + FLOW_SG * (size_t)(sg + 1))) sg++;
        const uint8_t *rec = ta__rt_op_record(rt, o);
        ta__rt_fop *fo = &f->ops[o];
        fo->scratch = ta__op_scratch_bytes(rec) && ks < rt->n_scratch_ops ? rt->scratch_ptrs[ks++] : NULL;
        fo->state = ta__op_state_bytes_in(rt->opt.ops, rec) && kst < rt->n_state_ops ? rt->state_ptrs[kst++] : NULL;
        fo->step = (int32_t)o + 1; /* poison mode runs from the work-block path only */
        fo->sg = sg;
        fo->tbase = ta__rd32(sgs + FLOW_SG * (size_t)sg + 8);
        fo->sub_a = UINT32_MAX;
        fo->dsub[0] = fo->dsub[1] = 0;
    }
    const uint8_t *vq = sgs + FLOW_SG * (size_t)n_sg;
    for (uint32_t i = 0; i < n_v; i++, vq += FLOW_VAR) {
        f->vars[i].data = at;
        f->vars[i].bytes = ta__rd32(vq);
        f->vars[i].fill = (uint8_t)ta__rd32(vq + 4);
        at += ta__align_up(f->vars[i].bytes, w->tail_align);
    }
    rt->flow = f;
    ta__rt_flow_reset(rt);
}

const struct ta__flow_table ta__rt_flow_table = {check, init};
