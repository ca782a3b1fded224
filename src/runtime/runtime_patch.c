/*
 * Patch-based execution, the runtime half (patch.h; the planning half is
 * src/graph/patch.c).  The stage's ops run band by band: for band b of the
 * stage output's rows, every stage op computes the rows its successor reads
 * (patch.h's ta_patch_in_rows, the function the planner sized the buffers
 * with), reading the stage input in place (a band's rows are contiguous in
 * NHWC) and writing its last band straight into the stage output.  Each
 * kernel call is the one the ROWS walk already makes (ops/conv.c, pool.c):
 * a window op on consecutive output rows with its leading padding adjusted,
 * so every output element is computed with the same arithmetic as layer by
 * layer and the bytes are identical.
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

typedef struct {
    ta_patch_rows geo;
    size_t in_row, out_row;
    const uint8_t *rec;
    void *scratch;
    int32_t in, out; /* tensor indices */
} stage_op;

static ta_status band_call(ta_runtime *rt, const stage_op *so, uint32_t op, bool first, bool last, int32_t o0,
                           int32_t o1, const struct ta__work_path *poison, ta_diag *diag) {
    int32_t i0, i1, pad;
    ta_patch_in_rows(&so->geo, o0, o1, &i0, &i1, &pad);
    if (!(0 <= i0 && i0 < i1 && i1 <= so->geo.in_h && 0 <= o0 && o0 < o1 && o1 <= so->geo.out_h))
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "op %u: band rows out of range", op);
    const uint8_t *in = (const uint8_t *)rt->ptrs[so->in] + (first ? (size_t)i0 * so->in_row : 0);
    uint8_t *out = (uint8_t *)rt->ptrs[so->out] + (last ? (size_t)o0 * so->out_row : 0);
    if (poison) {
        /* the band's bytes inside the buffers the plan gave the tensors */
        const ta_poison_buf *bi = pbuf_of(rt, so->in), *bo = pbuf_of(rt, so->out);
        const size_t il = (size_t)(i1 - i0) * so->in_row, ol = (size_t)(o1 - o0) * so->out_row;
        if ((bi && (in < bi->data || in + il > bi->data + bi->bytes)) ||
            (bo && (out < bo->data || out + ol > bo->data + bo->bytes)))
            return ta_diag_set(diag, TA_E_OVERLAP, "op %u: a band's rows reach past its planned buffer", op);
    }
    const ta__op_band_call b = {in, out, i1 - i0, o1 - o0, pad};
    return ta__op_invoke_band(rt->opt.ops, so->rec, rt->ptrs, so->scratch, &b, diag);
}

ta_status ta__rt_patch_invoke(ta_runtime *rt, const ta_patch_stage *s, const struct ta__work_path *poison,
                              uint32_t *slot, ta_diag *diag) {
    const int32_t n = s->last_op - s->first_op + 1;
    if (s->first_op < 0 || n < 2 || n > TA_PATCH_MAX_OPS || (uint32_t)s->last_op >= rt->n_ops || s->bands < 2)
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "patch stage ops %d..%d out of range", s->first_op, s->last_op);
    stage_op so[TA_PATCH_MAX_OPS];
    for (int32_t k = 0; k < n; k++) {
        const uint32_t op = (uint32_t)(s->first_op + k);
        int32_t r6[6];
        so[k].rec = ta__rt_op_record(rt, op);
        if (!ta__op_band_rows(rt->opt.ops, so[k].rec, r6, &so[k].in_row, &so[k].out_row))
            return ta_diag_set(diag, TA_E_UNSUPPORTED, "op %u (%s) cannot run on bands", op,
                               ta__op_name_in(rt->opt.ops, so[k].rec));
        so[k].geo = (ta_patch_rows){r6[0], r6[1], r6[2], r6[3], r6[4], r6[5]};
        so[k].scratch = ta__op_scratch_bytes(so[k].rec) && *slot < rt->n_scratch_ops ? rt->scratch_ptrs[(*slot)++] : NULL;
        so[k].in = so[k].out = -1;
        ta__op_input(so[k].rec, 0, &so[k].in);
        ta__op_output(so[k].rec, 0, &so[k].out);
        if (!ta_patch_rows_valid(&so[k].geo) || so[k].in < 0 || so[k].out < 0 || (uint32_t)so[k].in >= rt->n_tensors ||
            (uint32_t)so[k].out >= rt->n_tensors || !rt->ptrs[so[k].in] || !rt->ptrs[so[k].out] ||
            (k && (so[k].in != so[k - 1].out || so[k].geo.in_h != so[k - 1].geo.out_h)))
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "op %u: not a stage op", op);
    }
    for (int32_t b = 0; b < s->bands; b++) {
        /* rows[k]: op k's output rows in this band, back from the last op's */
        int32_t rows[TA_PATCH_MAX_OPS][2];
        ta_patch_band(so[n - 1].geo.out_h, s->bands, b, &rows[n - 1][0], &rows[n - 1][1]);
        for (int32_t k = n - 1; k > 0; k--) {
            int32_t pad;
            ta_patch_in_rows(&so[k].geo, rows[k][0], rows[k][1], &rows[k - 1][0], &rows[k - 1][1], &pad);
        }
        for (int32_t k = 0; k < n; k++) {
            const uint32_t op = (uint32_t)(s->first_op + k);
            const int32_t step = (int32_t)op + 1;
            if (poison) poison->poison_fill(rt, step);
            ta_status st = band_call(rt, &so[k], op, k == 0, k == n - 1, rows[k][0], rows[k][1], poison, diag);
            if (st) return st;
            if (poison) {
                /* the stage output is written band by band: its checksum
                 * is re-taken after each of its bands */
                ta_poison_buf *pb = k == n - 1 ? pbuf_of(rt, so[k].out) : NULL;
                if (pb) pb->sum = ta__rt_fnv32(FNV32_START, pb->data, pb->bytes);
                if ((st = poison->poison_check(rt, step, op, diag))) return st;
            }
        }
    }
    return TA_OK;
}
