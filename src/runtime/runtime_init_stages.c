/*
 * Patch stages in the init table (issue 13: the budget header and the
 * firmware run them).  A table whose plan runs stages has format version 3
 * and one more section after the input/output records:
 *   2 words: the stage count (1 .. TA_PATCH_MAX_STAGES), the planned bytes
 *     layer by layer (what the stages saved, for reports);
 *   per stage 5 words: first op, last op, bands, extra MACs low and high.
 * A table without stages stays version 1, byte for byte what it was, so
 * headers made before stages and runtimes built before them keep working
 * with each other.  The band geometry is not stored: it is each stage op's
 * record (ta__op_band_rows), and the table already holds every record's
 * checksum; what the table adds is the proof init makes before any kernel
 * runs that every band fits the bytes planned for its tensor
 * (ta__rt_patch_bounds).
 *
 * Three users: the init-table path (fast_build reads the stages), the
 * work-block path (a budget's plan was made with its table's stages, so its
 * requests only match the entries with the same stages applied), and
 * ta_runtime_export_init (writes them).
 */
#include "runtime/runtime_int.h"

#include "tinyarena/budget.h"

uint64_t ta__rt_init_stage_bytes(uint32_t n_stages) {
    return n_stages ? INIT_STAGE_HDR + (uint64_t)INIT_STAGE * n_stages : 0;
}

/* Where the stage section starts: right after the io records. */
static uint64_t stages_at(const uint8_t *t) {
    return ta__rt_init_table_bytes(ta__rd32(t + 12), ta__rd32(t + 16), (uint64_t)ta__rd32(t + 20) + ta__rd32(t + 24));
}

uint64_t ta__rt_init_expected(const uint8_t *t, size_t tn) {
    const uint64_t at = stages_at(t);
    if (ta__rd32(t + 4) != INIT_VERSION_PATCH) return at;
    /* version 2: the section's count word must lie inside the table */
    if (at > tn || tn - at < INIT_STAGE_HDR) return UINT64_MAX;
    const uint32_t n = ta__rd32(t + at);
    return n && n <= TA_PATCH_MAX_STAGES ? at + ta__rt_init_stage_bytes(n) : UINT64_MAX;
}

ta_status ta__rt_init_stages(const uint8_t *t, ta_patch_plan *out, ta_diag *diag) {
    memset(out, 0, sizeof *out);
    if (ta__rd32(t + 4) != INIT_VERSION_PATCH) return TA_OK;
    const uint8_t *s = t + stages_at(t);
    const uint32_t n = ta__rd32(s), n_ops = ta__rd32(t + 16);
    out->n_stages = n;
    out->bytes_before = ta__rd32(s + 4);
    out->bytes_after = ta__rd32(t + 28);
    int64_t prev = -1;
    for (uint32_t k = 0; k < n; k++) {
        const uint8_t *e = s + INIT_STAGE_HDR + (size_t)INIT_STAGE * k;
        ta_patch_stage *st = &out->stages[k];
        st->first_op = (int32_t)ta__rd32(e);
        st->last_op = (int32_t)ta__rd32(e + 4);
        st->bands = (int32_t)ta__rd32(e + 8);
        st->extra_macs = ta__rd32(e + 12) | (uint64_t)ta__rd32(e + 16) << 32;
        out->extra_macs += st->extra_macs;
        /* in op order, disjoint, each a chain of 2 .. TA_PATCH_MAX_OPS ops
         * cut into 2 .. TA_PATCH_MAX_BANDS bands (the band loop's limits) */
        if (st->first_op <= prev || st->last_op <= st->first_op || (uint32_t)st->last_op >= n_ops ||
            st->last_op - st->first_op >= TA_PATCH_MAX_OPS || st->bands < 2 || st->bands > TA_PATCH_MAX_BANDS) {
            out->n_stages = 0;
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: patch stage %u (ops %d..%d, %d bands) is out of range (corrupted)",
                               k, st->first_op, st->last_op, st->bands);
        }
        prev = st->last_op;
    }
    return TA_OK;
}

const uint8_t *ta__rt_stage_table(const ta_runtime *rt, size_t *bytes) {
    if (rt->opt.init) {
        *bytes = rt->opt.init_bytes;
        return (const uint8_t *)rt->opt.init;
    }
    /* a budget without its table in the options (a re-derivation of its
     * const blob): the budget's own table says which stages it planned */
    const ta_budget *b = rt->opt.planner == ta__rt_budget_plan ? (const ta_budget *)rt->opt.planner_ctx : NULL;
    *bytes = b && b->init ? b->init_bytes : 0;
    return b && b->init ? (const uint8_t *)b->init : NULL;
}

/* Tensor k's entry bytes in a table being exported: a stage's intermediate
 * holds its largest band only (its request, patch.h), every other tensor
 * its whole bytes. */
uint32_t ta__rt_stage_tensor_bytes(const ta_runtime *rt, const ta__built *w, uint32_t k, size_t whole) {
    for (uint32_t i = 0; i < rt->patch.n_stages; i++) {
        const ta_patch_stage *s = &rt->patch.stages[i];
        for (int32_t o = s->first_op; o < s->last_op; o++) {
            int32_t t = -1;
            ta__op_output(ta__rt_op_record(rt, (uint32_t)o), 0, &t);
            if (t != (int32_t)k) continue;
            for (size_t r = 0; r < w->n_req; r++)
                if (w->origin[r].kind == TA_BUFFER_TENSOR && w->origin[r].index == k) return (uint32_t)w->reqs[r].size;
        }
    }
    return (uint32_t)whole;
}

void ta__rt_init_write_stages(uint8_t *at, const ta_patch_plan *p) {
    ta__wr32(at, p->n_stages);
    ta__wr32(at + 4, (uint32_t)p->bytes_before);
    for (uint32_t k = 0; k < p->n_stages; k++) {
        uint8_t *e = at + INIT_STAGE_HDR + (size_t)INIT_STAGE * k;
        const ta_patch_stage *s = &p->stages[k];
        ta__wr32(e, (uint32_t)s->first_op);
        ta__wr32(e + 4, (uint32_t)s->last_op);
        ta__wr32(e + 8, (uint32_t)s->bands);
        ta__wr32(e + 12, (uint32_t)s->extra_macs);
        ta__wr32(e + 16, (uint32_t)(s->extra_macs >> 32));
    }
}

/* A HEAD tensor's bytes in the table (0: not in the head). */
static uint32_t head_bytes(const uint8_t *t, int32_t k) {
    const uint8_t *e = t + INIT_HDR + (size_t)INIT_TENSOR * (uint32_t)k;
    return (ta__rd32(e) & 0xFFu) == AT_HEAD ? ta__rd32(e + 8) : 0;
}

ta_status ta__rt_patch_bounds(const ta_runtime *rt, const uint8_t *t, ta_diag *diag) {
    for (uint32_t i = 0; i < rt->patch.n_stages; i++) {
        const ta_patch_stage *s = &rt->patch.stages[i];
        const int32_t n = s->last_op - s->first_op + 1;
        /* the stage as the band loop will run it (runtime_patch.c), from
         * the records the table's checksums cover */
        ta__stage_op so[TA_PATCH_MAX_OPS];
        ta_patch_dag_op dag[TA_PATCH_MAX_OPS];
        ta_diag sub;
        if (ta__rt_patch_setup(rt, s, so, dag, NULL, &sub))
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: patch stage %u: %s (corrupted)", i, sub.msg);
        /* stage inputs and the stage output are whole: read and written
         * across their rows */
        for (int32_t k = 0; k < n; k++)
            for (int32_t j = 0; j < dag[k].n_src; j++)
                if (dag[k].src[j] < 0 && (uint64_t)dag[k].geo.in_h * so[k].in_row[j] > head_bytes(t, so[k].in[j]))
                    return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: patch stage %u's input is smaller than its rows", i);
        if ((uint64_t)dag[n - 1].geo.out_h * so[n - 1].out_row > head_bytes(t, so[n - 1].out))
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: patch stage %u's output is smaller than its rows", i);
        /* every band of every intermediate fits its planned bytes: the
         * rows the band loop will compute (patch.h's ta_patch_dag_rows),
         * written from the start of the intermediate's buffer */
        for (int32_t b = 0; b < s->bands; b++) {
            int32_t rows[TA_PATCH_MAX_OPS][2], o0, o1;
            ta_patch_band(dag[n - 1].geo.out_h, s->bands, b, &o0, &o1);
            ta_patch_dag_rows(dag, n, o0, o1, rows);
            for (int32_t k = 0; k < n - 1; k++)
                if (rows[k][0] >= rows[k][1] || (uint64_t)(rows[k][1] - rows[k][0]) * so[k].out_row > head_bytes(t, so[k].out))
                    return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: a band of op %d's output exceeds its planned bytes (corrupted)",
                                       s->first_op + k);
        }
    }
    return TA_OK;
}
