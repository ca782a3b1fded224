/* `plan --tflm-offline`: see tflm_offline.h.
 *
 * Why candidates and a simulation: the metadata fixes tensor offsets only.
 * TFLM then plans what is left -- kernel scratch buffers, and any tensor
 * given -1 -- with its greedy planner, the fixed buffers placed first.  A
 * plan that is optimal for the tensors can still make that greedy step put a
 * scratch buffer on top of everything, so each candidate is judged by the
 * head TFLM will really end with: our `greedy` (TFLM's planner, offset for
 * offset, fixed buffers included) run on TFLM's full buffer list with the
 * candidate's tensor offsets fixed. */
#include "tflm_offline.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model_plan.h"
#include "plan_report.h"
#include "tinyarena/runtime.h"
#include "tinyarena/tflite.h"

/* TFLM's head for reqs with the tensor requests [0, n_tensors) fixed at
 * `fixed` (NULL: all online).  SIZE_MAX when the plan fails. */
static size_t simulate(const ta_request *reqs, size_t n, size_t n_tensors, const size_t *fixed) {
    ta_request *r = cli_xcalloc(n ? n : 1, sizeof *r);
    memcpy(r, reqs, n * sizeof *r);
    for (size_t i = 0; i < n; i++) r[i].fixed = fixed && i < n_tensors ? fixed[i] : TA_NO_OFFSET;
    /* only an old plan (Vela's) may overlap on purpose; ours never does */
    ta_plan_options po;
    memset(&po, 0, sizeof po);
    po.flags = TA_PLAN_ALLOW_FIXED_CONFLICT;
    plan_outcome o = plan_report_run(ta_strategy_find("greedy"), r, n, &po);
    size_t head = o.st ? SIZE_MAX : o.res.arena_bytes;
    free(o.offsets);
    free(r);
    return head;
}

int tflm_offline_make(const loaded_model *lm, const ta_plan_options *popt, tflm_offline *out) {
    return tflm_offline_make_with(lm, popt, NULL, 0, out);
}

int tflm_offline_parse_scratch(const char *spec, const ta_graph *g, ta_scratch_request **out, size_t *n) {
    *n = 0;
    *out = cli_xcalloc(strlen(spec) / 2 + 1, sizeof **out);
    if (!strcmp(spec, "none")) return CLI_OK;
    const uint32_t n_ops = g->n_subgraphs ? g->subgraphs[0].n_ops : 0;
    for (const char *p = spec; *p;) {
        char *end;
        unsigned long long op = strtoull(p, &end, 10), bytes;
        if (end == p || *end != ':' || op >= n_ops) {
            free(*out);
            *out = NULL;
            return cli_error("--tflm-scratch %s: need OP:BYTES pairs with OP below %u (or 'none')", spec, n_ops), CLI_USAGE;
        }
        p = end + 1;
        bytes = strtoull(p, &end, 10);
        if (end == p || (*end && *end != ',') || bytes == 0 || bytes > 0x7fffffffull) {
            free(*out);
            *out = NULL;
            return cli_error("--tflm-scratch %s: bad byte count", spec), CLI_USAGE;
        }
        (*out)[(*n)++] = (ta_scratch_request){0, (uint32_t)op, (size_t)bytes, 16};
        p = *end ? end + 1 : end;
    }
    return CLI_OK;
}

int tflm_offline_make_with(const loaded_model *lm, const ta_plan_options *popt, const ta_scratch_request *given,
                           size_t n_given, tflm_offline *out) {
    return tflm_offline_plan_graph(&lm->g, lm->offline, popt, given, n_given, out);
}

int tflm_offline_plan_graph(const ta_graph *g, const int32_t *old_plan, const ta_plan_options *popt,
                            const ta_scratch_request *given, size_t n_given, tflm_offline *out) {
    memset(out, 0, sizeof *out);
    if (g->n_subgraphs != 1)
        return cli_error("--tflm-offline: the model has %u subgraphs; TFLM reads every subgraph's offline offsets "
                         "from the start of the list, so only single-subgraph models can carry a plan",
                         g->n_subgraphs);
    /* TFLM's buffer list: its lifetimes, 16-byte sizes, no old offline plan
     * (it is being replaced), then the kernels' scratch requests. */
    ta_scratch_request *scratch = NULL;
    size_t n_scratch = 0;
    ta_diag rd;
    if (given) {
        scratch = cli_xcalloc(n_given ? n_given : 1, sizeof *scratch);
        memcpy(scratch, given, n_given * sizeof *scratch);
        n_scratch = n_given;
    } else if (ta_runtime_scratch_requests(g, NULL, 0, &n_scratch, &rd) == TA_OK && n_scratch) {
        scratch = cli_xcalloc(n_scratch, sizeof *scratch);
        if (ta_runtime_scratch_requests(g, scratch, n_scratch, &n_scratch, &rd)) n_scratch = 0;
    } else {
        n_scratch = 0;
    }
    ta_lifetime_options lopt;
    memset(&lopt, 0, sizeof lopt);
    lopt.align = 16;
    model_plan mp;
    if (model_plan_build(&mp, g, &lopt, scratch, n_scratch, "--tflm-offline")) {
        model_plan_free(&mp);
        free(scratch);
        return CLI_FAIL;
    }
    const size_t n = mp.n, nt = n - mp.lt.n_scratch;
    out->n = g->n_tensors;
    out->n_scratch = mp.lt.n_scratch;
    out->offsets = cli_xcalloc(out->n ? out->n : 1, sizeof *out->offsets);
    for (size_t i = 0; i < out->n; i++) out->offsets[i] = -1;
    out->tflm_head = simulate(mp.reqs, n, nt, NULL);
    out->old_head = SIZE_MAX;
    if (old_plan) { /* the plan being replaced, for the warning */
        size_t *old = cli_xcalloc(nt ? nt : 1, sizeof *old);
        for (size_t i = 0; i < nt; i++) {
            int32_t v = mp.origin[i].kind == TA_BUFFER_TENSOR ? old_plan[mp.origin[i].index] : -1;
            old[i] = v >= 0 ? (size_t)v : TA_NO_OFFSET;
        }
        out->old_head = simulate(mp.reqs, n, nt, old);
        free(old);
    }
    out->predicted_head = out->tflm_head;
    out->source = "none (TFLM's own greedy is already best)";
    int rc = CLI_OK;
    if (out->tflm_head == SIZE_MAX) rc = cli_error("--tflm-offline: TFLM's greedy failed on the buffer list");

    /* RESHAPE groups: TFLM's RESHAPE kernel skips its copy when its output's
     * data pointer is its input's, so the two may share one offset (the
     * group lives for the union of their lifetimes, nothing else writes
     * either).  No other op's kernel is known to tolerate sharing, so no
     * other alias is made. */
    int32_t *group = cli_xcalloc(g->n_tensors ? g->n_tensors : 1, sizeof *group);
    uint32_t n_alias = 0;
    for (uint32_t t = 0; t < g->n_tensors; t++) group[t] = (int32_t)t;
    for (uint32_t k = 0; k < g->subgraphs[0].n_ops; k++) {
        const ta_op *op = ta_graph_op(g, 0, k);
        if (!op || op->kind != TA_OP_RESHAPE || op->n_inputs < 1 || op->n_outputs != 1) continue;
        int32_t a = op->inputs[0], b = op->outputs[0];
        if (a < 0 || b < 0 || a == b) continue;
        const ta_tensor *ta = ta_graph_tensor(g, 0, (uint32_t)a), *tb = ta_graph_tensor(g, 0, (uint32_t)b);
        if (!ta || !tb || !ta_lifetime_is_planned(ta) || !ta_lifetime_is_planned(tb) || ta->bytes != tb->bytes ||
            group[b] != b)
            continue;
        bool b_root = false; /* b heads a group already (it cannot: it is written here) */
        for (uint32_t t = 0; t < g->n_tensors; t++) b_root |= t != (uint32_t)b && group[t] == b;
        if (b_root) continue;
        group[b] = group[a]; /* ops run in order: a's group root is final */
        n_alias++;
    }
    model_plan mpg;
    memset(&mpg, 0, sizeof mpg);
    bool grouped = false;
    if (!rc && n_alias) {
        ta_lifetime_options gopt = lopt;
        gopt.buffer_of = group;
        gopt.n_buffer_of = g->n_tensors;
        grouped = model_plan_build(&mpg, g, &gopt, scratch, n_scratch, "--tflm-offline") == CLI_OK;
    }

    /* Candidates: optimal and best, over tensors and scratch (the scratch
     * then finds its planned hole) and over tensors alone, on the list with
     * RESHAPE groups and without.  Each is judged by TFLM's head on the
     * ungrouped list (TFLM lists every tensor), its tensors fixed. */
    static const char *const strategies[2] = {"optimal", "best"};
    static const char *const names[8] = {
        "optimal, tensors and scratch", "optimal, tensors", "best, tensors and scratch", "best, tensors",
        "optimal, tensors and scratch, RESHAPE aliases", "optimal, tensors, RESHAPE aliases",
        "best, tensors and scratch, RESHAPE aliases", "best, tensors, RESHAPE aliases"};
    int32_t *per_tensor = cli_xcalloc(g->n_tensors ? g->n_tensors : 1, sizeof *per_tensor);
    size_t *fixed = cli_xcalloc(nt ? nt : 1, sizeof *fixed);
    bool have = false;
    for (int c = 0; !rc && c < 8; c++) {
        const model_plan *p = c < 4 ? &mp : &mpg;
        if (c >= 4 && !grouped) break;
        const size_t pn = p->n, pnt = pn - p->lt.n_scratch, m = c % 2 == 0 ? pn : pnt;
        if (c % 2 == 1 && pn == pnt) continue; /* no scratch: the same problem twice */
        plan_outcome o = plan_report_run(ta_strategy_find(strategies[(c / 2) % 2]), p->reqs, m, popt);
        if (!o.st) {
            for (uint32_t t = 0; t < g->n_tensors; t++) per_tensor[t] = -1;
            bool fits = true;
            for (size_t i = 0; i < pnt; i++) {
                if (p->origin[i].kind != TA_BUFFER_TENSOR || o.offsets[i] > INT32_MAX) fits = false;
                else per_tensor[p->origin[i].index] = (int32_t)o.offsets[i];
            }
            if (c >= 4) /* group members take their group's offset */
                for (uint32_t t = 0; t < g->n_tensors; t++)
                    if (group[t] != (int32_t)t) per_tensor[t] = per_tensor[group[t]];
            for (size_t i = 0; i < nt; i++) {
                int32_t v = mp.origin[i].kind == TA_BUFFER_TENSOR ? per_tensor[mp.origin[i].index] : -1;
                if (v < 0) fits = false;
                fixed[i] = (size_t)v;
            }
            size_t head = fits ? simulate(mp.reqs, n, nt, fixed) : SIZE_MAX;
            if (head < out->predicted_head || (head == out->predicted_head && !have && nt)) {
                out->predicted_head = head;
                out->source = names[c];
                out->reshape_aliases = c >= 4 ? n_alias : 0;
                out->tensors_fixed = 0;
                for (size_t i = 0; i < nt; i++) {
                    out->offsets[mp.origin[i].index] = (int32_t)fixed[i];
                    out->tensors_fixed++;
                }
                have = true;
            }
        }
        free(o.offsets);
    }
    free(fixed);
    free(per_tensor);
    free(group);
    model_plan_free(&mpg);
    model_plan_free(&mp);
    free(scratch);
    return rc;
}

int tflm_offline_write(const loaded_model *lm, const tflm_offline *t, const char *path) {
    size_t need = 0;
    bool replaced = false;
    ta_diag d;
    ta_status st = ta_tflite_write_offline(&lm->m, t->offsets, t->n, NULL, 0, &need, NULL, &d);
    if (st != TA_E_NO_MEMORY) return cli_error("--tflm-offline: %s", d.msg);
    /* 16-aligned, as TFLM and our reader want model bytes */
    unsigned char *buf = aligned_alloc(16, (need + 15) & ~(size_t)15);
    if (!buf) return cli_error("--tflm-offline: out of memory (%zu bytes)", need);
    st = ta_tflite_write_offline(&lm->m, t->offsets, t->n, buf, need, &need, &replaced, &d);
    if (st) {
        free(buf);
        return cli_error("--tflm-offline: %s", d.msg);
    }
    if (replaced)
        fprintf(stderr,
                "tinyarena: warning: the model's existing OfflineMemoryAllocation plan (TFLM head %zu B, "
                "as simulated) is replaced by one giving %zu B\n",
                t->old_head, t->predicted_head);
    /* Re-read what we wrote: same counts, same offsets back. */
    ta_tflite_model m2;
    ta_tflite_info a, b;
    int rc = CLI_OK;
    if ((st = ta_tflite_open(&m2, buf, need, &d))) {
        rc = cli_error("--tflm-offline: the written model does not re-read: %s", d.msg);
    } else if (ta_tflite_get_info(&lm->m, &a) || ta_tflite_get_info(&m2, &b) || a.tensors != b.tensors ||
               a.ops != b.ops || a.subgraphs != b.subgraphs || b.buffers != a.buffers + 1 ||
               a.const_bytes != b.const_bytes || !b.has_offline_offsets) {
        rc = cli_error("--tflm-offline: the written model does not have the same tensors, ops and buffers");
    } else {
        const int32_t *offs;
        uint32_t cnt;
        if (ta_tflite_offline_offsets(&m2, 0, &offs, &cnt) || cnt != t->n ||
            memcmp(offs, t->offsets, t->n * sizeof *offs) != 0)
            rc = cli_error("--tflm-offline: the written model does not read back the offsets");
    }
    if (!rc) {
        FILE *f = fopen(path, "wb");
        if (!f) rc = cli_error("%s: cannot write", path);
        else {
            if (fwrite(buf, 1, need, f) != need) rc = cli_error("%s: write failed", path);
            if (fclose(f) && !rc) rc = cli_error("%s: write failed", path);
        }
    }
    free(buf);
    return rc;
}

void tflm_offline_free(tflm_offline *t) {
    free(t->offsets);
    t->offsets = NULL;
}
