/*
 * Patch-based execution, the runtime half (patch.h; the planning half is
 * src/graph/patch.c and patch_dag.c).  The stage's ops run band by band:
 * for band b of the stage output's rows, every stage op computes the rows
 * its readers in the stage need (patch.h's ta_patch_dag_rows, the function
 * the planner sized the buffers with), reading stage inputs in place (a
 * band's rows are contiguous in NHWC), an intermediate from the start of its
 * band buffer, and writing the last op's band straight into the stage
 * output.  Each window op's kernel call is the one the ROWS walk already
 * makes (ops/conv.c, pool.c): a window op on consecutive output rows with
 * its leading padding adjusted; an elementwise op runs its own invoke on
 * the band's elements (ops/band_elem.c).  So every output element is
 * computed with the same arithmetic as layer by layer and the bytes are
 * identical.
 */
#include "runtime/runtime_int.h"

const ta_patch_plan *ta_runtime_patch(const ta_runtime *rt) {
    return rt && rt->state >= TA__RT_QUERIED ? &rt->patch : NULL;
}

/* Poison mode: the planned buffer tensor t lives in (NULL: none). */
static ta_poison_buf *pbuf_of(ta_runtime *rt, int32_t t) {
    if (rt->pgroup) return rt->pgroup[t] >= 0 ? &rt->pbuf[rt->pgroup[t]] : NULL;
    for (size_t i = 0; i < rt->n_pbuf; i++)
        if (rt->pbuf[i].tensor == t) return &rt->pbuf[i];
    return NULL;
}

/* The elementwise kinds (ops/band_elem.c): rows in = rows out, and the
 * whole output's rows passed with each band. */
static bool elementwise(ta_op_kind k) {
    return k == TA_OP_ADD || k == TA_OP_SUB || k == TA_OP_MUL || k == TA_OP_RELU || k == TA_OP_RELU6 ||
           k == TA_OP_RELU_N1_TO_1 || k == TA_OP_LOGISTIC || k == TA_OP_TANH || k == TA_OP_SILU;
}


/* Poison mode: bytes [p, p + len) inside the buffer the plan gave t. */
static bool in_buffer(ta_runtime *rt, int32_t t, const uint8_t *p, size_t len) {
    const ta_poison_buf *pb = pbuf_of(rt, t);
    return !pb || (p >= pb->data && p + len <= pb->data + pb->bytes);
}

/* One op's kernel call on output rows rows[k] of band b. */
static ta_status band_call(ta_runtime *rt, const ta__stage_op *so, const ta_patch_dag_op *dag, int32_t k, int32_t n,
                           int32_t (*rows)[2], uint32_t op, const struct ta__work_path *poison, ta_diag *diag) {
    const ta__stage_op *s = &so[k];
    const ta_patch_dag_op *d = &dag[k];
    const int32_t o0 = rows[k][0], o1 = rows[k][1];
    int32_t i0, i1, pad;
    if (!(0 <= o0 && o0 < o1 && o1 <= d->geo.out_h))
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "op %u: band rows out of range", op);
    ta_patch_in_rows(&d->geo, o0, o1, &i0, &i1, &pad);
    if (!(0 <= i0 && i0 < i1 && i1 <= d->geo.in_h))
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "op %u: band rows out of range", op);
    const uint8_t *in[2] = {NULL, NULL};
    for (int32_t j = 0; j < d->n_src; j++) {
        const int32_t p = d->src[j];
        /* a stage input is whole; an intermediate's band starts at its first row */
        const int32_t at = p < 0 ? i0 : i0 - rows[p][0];
        if (p >= 0 && (at < 0 || i1 > rows[p][1]))
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "op %u: reads rows its producer's band lacks", op);
        in[j] = (const uint8_t *)rt->ptrs[s->in[j]] + (size_t)at * s->in_row[j];
        if (poison && !in_buffer(rt, s->in[j], in[j], (size_t)(i1 - i0) * s->in_row[j]))
            return ta_diag_set(diag, TA_E_OVERLAP, "op %u: a band's rows reach past its planned buffer", op);
    }
    uint8_t *out = (uint8_t *)rt->ptrs[s->out] + (k == n - 1 ? (size_t)o0 * s->out_row : 0);
    if (poison && !in_buffer(rt, s->out, out, (size_t)(o1 - o0) * s->out_row))
        return ta_diag_set(diag, TA_E_OVERLAP, "op %u: a band's rows reach past its planned buffer", op);
    const ta__op_band_call b = {in[0], out, i1 - i0, o1 - o0, pad, in[1], s->elem ? d->geo.out_h : 0};
    return ta__op_invoke_band(rt->opt.ops, s->rec, rt->ptrs, s->scratch, &b, diag);
}

/* An unary elementwise op's rows are not in its record: they are its
 * producer's output rows, or what a reader reads (patch.h: a valid stage
 * links every such op to a window or binary op).  false: none found. */
static bool resolve_rows(ta_patch_dag_op *dag, int32_t n) {
    for (int32_t pass = 0; pass < n; pass++) {
        bool open = false;
        for (int32_t k = 0; k < n; k++) {
            if (dag[k].geo.out_h) continue;
            int32_t h = dag[k].src[0] >= 0 ? dag[dag[k].src[0]].geo.out_h : 0;
            for (int32_t c = k + 1; c < n && !h; c++)
                for (int32_t j = 0; j < dag[c].n_src; j++)
                    if (dag[c].src[j] == k && dag[c].geo.in_h) h = dag[c].geo.in_h;
            dag[k].geo.in_h = dag[k].geo.out_h = h;
            open |= !h;
        }
        if (!open) break;
    }
    for (int32_t k = 0; k < n; k++)
        if (!dag[k].geo.out_h) return false;
    return true;
}

ta_status ta__rt_patch_setup(const ta_runtime *rt, const ta_patch_stage *s, ta__stage_op *so, ta_patch_dag_op *dag,
                             uint32_t *slot, ta_diag *diag) {
    const int32_t n = s->last_op - s->first_op + 1;
    if (s->first_op < 0 || n < 2 || n > TA_PATCH_MAX_OPS || (uint32_t)s->last_op >= rt->n_ops || s->bands < 2)
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "patch stage ops %d..%d out of range", s->first_op, s->last_op);
    for (int32_t k = 0; k < n; k++) {
        const uint32_t op = (uint32_t)(s->first_op + k);
        int32_t r6[6];
        ta__stage_op *o = &so[k];
        o->rec = ta__rt_op_record(rt, op);
        o->elem = o->rec && elementwise(ta__op_kind(o->rec));
        if (!ta__op_band_rows(rt->opt.ops, o->rec, r6, &o->in_row[0], &o->out_row))
            return ta_diag_set(diag, TA_E_UNSUPPORTED, "op %u (%s) cannot run on bands", op,
                               ta__op_name_in(rt->opt.ops, o->rec));
        dag[k].geo = (ta_patch_rows){r6[0], r6[1], r6[2], r6[3], r6[4], r6[5]};
        o->whole = o->elem && !r6[1];
        o->in_row[1] = o->in_row[0]; /* binary ops: inputs of one shape and type */
        o->scratch = slot && ta__op_scratch_bytes(o->rec) && *slot < rt->n_scratch_ops ? rt->scratch_ptrs[(*slot)++] : NULL;
        o->in[0] = o->in[1] = o->out = -1;
        const uint32_t n_in = ta__op_input(o->rec, 0, &o->in[0]);
        dag[k].n_src = o->elem && n_in == 2 ? 2 : 1;
        if (dag[k].n_src == 2) ta__op_input(o->rec, 1, &o->in[1]);
        ta__op_output(o->rec, 0, &o->out);
        for (int32_t j = 0; j < dag[k].n_src; j++) {
            dag[k].src[j] = -1;
            for (int32_t p = 0; p < k; p++)
                if (so[p].out == o->in[j]) dag[k].src[j] = p;
            if (o->in[j] < 0 || (uint32_t)o->in[j] >= rt->n_tensors || !rt->ptrs[o->in[j]])
                return ta_diag_set(diag, TA_E_BAD_REQUEST, "op %u: not a stage op", op);
        }
        if (o->out < 0 || (uint32_t)o->out >= rt->n_tensors || !rt->ptrs[o->out])
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "op %u: not a stage op", op);
    }
    if (!resolve_rows(dag, n)) return ta_diag_set(diag, TA_E_BAD_REQUEST, "patch stage ops %d..%d: rows unknown",
                                                      s->first_op, s->last_op);
    for (int32_t k = 0; k < n; k++) {
        ta__stage_op *o = &so[k];
        const ta_patch_dag_op *d = &dag[k];
        if (o->whole) { /* a unary op's row bytes: its whole tensors' over its rows */
            const size_t h = (size_t)d->geo.out_h;
            if (o->in_row[0] % h || o->out_row % h)
                return ta_diag_set(diag, TA_E_BAD_REQUEST, "op %d: rows do not divide its tensors", s->first_op + k);
            o->in_row[0] /= h, o->in_row[1] = o->in_row[0], o->out_row /= h;
        }
        bool ok = ta_patch_rows_valid(&d->geo) && (!o->elem || d->geo.in_h == d->geo.out_h);
        for (int32_t j = 0; j < d->n_src; j++)
            if (d->src[j] >= 0 && dag[d->src[j]].geo.out_h != d->geo.in_h) ok = false;
        for (int32_t c = k + 1; c < n; c++) { /* a stage op reads another's output by rows only */
            int32_t t = -1;
            const uint32_t cnt = ta__op_input(so[c].rec, 0, &t);
            for (uint32_t j = (uint32_t)dag[c].n_src; j < cnt; j++)
                if (ta__op_input(so[c].rec, j, &t) && t == o->out) ok = false;
        }
        if (!ok) return ta_diag_set(diag, TA_E_BAD_REQUEST, "op %d: not a stage op", s->first_op + k);
    }
    return TA_OK;
}

ta_status ta__rt_patch_invoke(ta_runtime *rt, const ta_patch_stage *s, const struct ta__work_path *poison,
                              uint32_t *slot, ta_diag *diag) {
    ta__stage_op so[TA_PATCH_MAX_OPS];
    ta_patch_dag_op dag[TA_PATCH_MAX_OPS];
    ta_status st = ta__rt_patch_setup(rt, s, so, dag, slot, diag);
    if (st) return st;
    const int32_t n = s->last_op - s->first_op + 1;
    /* Poison mode: the plan gives the stage output its bytes from the first
     * op's step (patch.h), so band 0's first op may find them dead; from
     * band 1 on they hold the bands before and must stay (the fill spares a
     * buffer born before the step).  Restored after the stage. */
    ta_poison_buf *pout = poison ? pbuf_of(rt, so[n - 1].out) : NULL;
    const int32_t pout_first = pout ? pout->first : 0;
    for (int32_t b = 0; b < s->bands && !st; b++) {
        int32_t rows[TA_PATCH_MAX_OPS][2], o0, o1;
        if (pout && b == 1 && pout->first >= s->first_op + 1) pout->first = s->first_op;
        ta_patch_band(dag[n - 1].geo.out_h, s->bands, b, &o0, &o1);
        ta_patch_dag_rows(dag, n, o0, o1, rows);
        for (int32_t k = 0; k < n && !st; k++) {
            const uint32_t op = (uint32_t)(s->first_op + k);
            const int32_t step = (int32_t)op + 1;
            if (poison) poison->poison_fill(rt, step);
            st = band_call(rt, so, dag, k, n, rows, op, poison, diag);
            if (!st && poison) {
                /* the stage output is written band by band: its checksum
                 * is re-taken after each of its bands */
                if (k == n - 1 && pout) pout->sum = ta__rt_fnv32(FNV32_START, pout->data, pout->bytes);
                st = poison->poison_check(rt, step, op, diag);
            }
        }
    }
    if (pout) pout->first = pout_first;
    return st;
}
