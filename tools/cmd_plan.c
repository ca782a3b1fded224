/* `tinyarena plan`: plan a buffer list (CSV) or a model. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers_csv.h"
#include "cli.h"
#include "emit_header.h"
#include "firmware.h"
#include "emit_html.h"
#include "emit_svg.h"
#include "model_load.h"
#include "model_plan.h"
#include "plan_regions.h"
#include "plan_report.h"
#include "tflm_offline.h"
#include "timeline.h"
#include "viz_patch.h"
#include "tinyarena/budget.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/runtime.h"
#include "tinyarena/tflite.h"

typedef struct {
    const char *buffers;     /* --buffers FILE.csv */
    const char *model;       /* positional MODEL.tflite */
    const char *strategy;    /* --strategy S */
    const char *offsets_out; /* --offsets OUT.csv */
    const char *buffers_out; /* --buffers-out FILE.csv (models) */
    const char *header_out;  /* --header FILE.h (models) */
    const char *svg_out;     /* --svg FILE.svg */
    const char *html_out;    /* --html FILE.html */
    const char *tflm_offline;/* --tflm-offline OUT.tflite (models) */
    const char *tflm_scratch;/* --tflm-scratch SPEC: TFLM's kernel scratch requests */
    bool json, verbose, timeline, color, no_scratch;
    const char *rewrite;     /* --rewrite LIST (models) */
    uint32_t rewrites;       /* its TA_REWRITE_* flags */
    double time_limit;
    uint64_t align;
    bool has_align_rule;
    cli_align_args al;       /* --align-rule, --arch-align (models) */
    uint32_t seed;
    cli_regions regions;     /* --region NAME:BYTES[:COST], --persistent-region NAME */
    uint64_t patch;          /* --patch-overhead PCT (models; default 10, 0: none) */
} plan_args;

static void plan_usage(FILE *f) {
    fprintf(f,
            "usage: tinyarena plan --buffers FILE.csv [options]\n"
            "       tinyarena plan MODEL.tflite [options]\n"
            "options:\n"
            "  --strategy S      one strategy (default: a table of all; --json, --header, --svg use\n"
            "                    'optimal' for models, 'best' for buffer lists)\n"
            "  --align N         minimum alignment (power of two) for every buffer\n"
            "  --align-rule R    models: arch (default: element size, at least the word),\n"
            "                    dtype (element size, sizes not rounded), tflm (TFLM's 16;\n"
            "                    the default with --rewrite none, --tflm-offline or an\n"
            "                    offline plan in the model) or a power of two N; kernels'\n"
            "                    declared alignments apply on top\n"
            "  --arch-align N    the arch rule's word (default 4; 8 for FPU/DSP double words)\n"
            "  --offsets OUT.csv write the input columns plus 'offset'\n"
            "  --patch-overhead PCT  models: also report the patch stages (band by band execution\n"
            "                    of conv/depthwise/pool chains, patch.h) `run` would take with at\n"
            "                    most PCT%% extra MACs (default 10 with rewrites, 0 under --rewrite\n"
            "                    none); --header's plan runs them too (0: layer by layer)\n"
            "  --json            print the plan as JSON\n"
            "  --svg F.svg       draw the plan as an arena map (time x offset, one rectangle per buffer)\n"
            "  --html F.html     one page: strategy table, every strategy's map, sortable buffer table\n"
            "  --timeline        one row per step: live bytes against the lower bound (80 columns)\n"
            "  --color           ANSI colour in the timeline even when stdout is not a terminal\n"
            "models only:\n"
            "  --verbose         per-tensor table (name, shape, dtype, bytes, first, last, offset)\n"
            "  --buffers-out F   export the buffer list (MiniMalloc CSV)\n"
            "  --header F.h      emit the C budget table (arena size, every offset)\n"
            "  --no-scratch      plan tensors only (TFLM's list), not the runtime's kernel scratch\n"
            "  --rewrite LIST    the rewrites: alias,inplace,fusepad,order,overlap,dwinplace,concat,\n"
            "                    slice,silu,inputs,gather, all (default)\n"
            "                    or none (TFLM's graph and rules, exactly); prints what applied\n"
            "                    and the bytes saved against TFLM's rules\n"
            "  --tflm-offline OUT.tflite  write the model with an OfflineMemoryAllocation plan for\n"
            "                    TFLM (TFLM's rules, no rewrites) and print the head TFLM will get\n"
            "  --tflm-scratch S  with --tflm-offline: TFLM's kernel scratch requests, 'OP:BYTES,...' or\n"
            "                    'none' (default: what the runtime's kernels ask)\n"
            "common:\n"
            "  --time-limit SEC  time limit of the planning: best and optimal stop at it, sharing it\n"
            "                    when a table or --rewrite runs them more than once (default 10)\n"
            "  --seed N          seed for randomised heuristics (default 0)\n"
            "  --region NAME:BYTES[:COST]  plan across memory regions, fastest first (repeat; BYTES may\n"
            "                    end in K or M; COST per byte accessed, default the region's index):\n"
            "                    buffers fill fast regions by bytes accessed per byte; table, --json\n"
            "                    (\"regions\", each buffer's \"region\"), --svg (F-NAME.svg per region),\n"
            "                    --header (per-region _BYTES and a ta_region_layout); a CSV 'region'\n"
            "                    column pins buffers\n"
            "  --persistent-region NAME  models: the region that holds the runtime's persistent part\n"
            "                    (default: the last)\n"
            "strategies:");
    size_t count;
    const ta_strategy *const *all = ta_strategy_list(&count);
    for (size_t i = 0; i < count; i++) fprintf(f, "\n  %-10s %s", all[i]->name, all[i]->summary);
    fputc('\n', f);
}

static bool is_search(const ta_strategy *s) { return s && (!strcmp(s->name, "best") || !strcmp(s->name, "optimal")); }

/* --time-limit bounds the whole planning of a command: the runs of search
 * strategies (best, optimal) share it equally -- a table runs both, and
 * --rewrite plans the chosen strategy twice.  One run gets all of it; with
 * no --time-limit a lone run keeps its strategy's default (optimal 10 s,
 * best its work budget) and shared runs split 10 s. */
static double search_limit(const plan_args *a, int runs) {
    double lim = a->time_limit > 0 ? a->time_limit : 10.0;
    if (runs > 1) return lim / runs;
    return a->time_limit > 0 ? a->time_limit : 0;
}

/* Runs strategy s after the rows o[0..no) of a table: best starts from
 * greedy's plan and optimal from best's (ta_plan_options.start), so the
 * table pays for each plan once; the rows are what separate runs give. */
static plan_outcome run_in_table(const ta_strategy *s, const ta_request *reqs, size_t n, const ta_plan_options *opt,
                                 const plan_outcome *o, size_t no) {
    ta_plan_options o2 = *opt;
    const char *from = !strcmp(s->name, "best") ? "greedy" : !strcmp(s->name, "optimal") ? "best" : NULL;
    for (size_t i = 0; from && i < no; i++)
        if (!strcmp(o[i].s->name, from) && !o[i].st) o2.start = o[i].offsets;
    return plan_report_run(s, reqs, n, &o2);
}

/* Appends printf-style text to a growing string. */
static void sb_printf(char **buf, size_t *len, size_t *cap, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0) return;
    if (*len + (size_t)k + 1 > *cap) {
        *cap = 2 * (*len + (size_t)k + 1);
        char *nb = realloc(*buf, *cap);
        if (!nb) {
            cli_error("out of memory");
            exit(CLI_FAIL);
        }
        *buf = nb;
    }
    va_start(ap, fmt);
    vsnprintf(*buf + *len, *cap - *len, fmt, ap);
    va_end(ap);
    *len += (size_t)k;
}

static void sb_json_str(char **buf, size_t *len, size_t *cap, const char *s) {
    sb_printf(buf, len, cap, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') sb_printf(buf, len, cap, "\\%c", c);
        else if (c < 0x20) sb_printf(buf, len, cap, "\\u%04x", c);
        else sb_printf(buf, len, cap, "%c", c);
    }
    sb_printf(buf, len, cap, "\"");
}

/* The list's relations for --json (NULL when it has none):
 * "overlaps": [{"x": ID, "y": ID, "kind": "above"|"below", "d": N,
 * "shared_bytes": N}, ...], where shared_bytes is how many bytes the plan
 * actually lets the pair share while both are live (0: the relation went
 * unused). */
static char *overlaps_json(const buffer_list *bl, const size_t *off) {
    if (!bl->n_overlaps) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    sb_printf(&buf, &len, &cap, "\"overlaps\": [");
    for (size_t k = 0; k < bl->n_overlaps; k++) {
        const ta_overlap *o = &bl->overlaps[k];
        const ta_request *x = &bl->reqs[o->x], *y = &bl->reqs[o->y];
        size_t shared = 0;
        if (ta_request_overlap_time(x, y)) {
            size_t s = off[o->x] > off[o->y] ? off[o->x] : off[o->y];
            size_t ex = off[o->x] + ta_request_padded(x), ey = off[o->y] + ta_request_padded(y);
            size_t e = ex < ey ? ex : ey;
            shared = e > s ? e - s : 0;
        }
        sb_printf(&buf, &len, &cap, "%s{\"x\": ", k ? ", " : "");
        sb_json_str(&buf, &len, &cap, bl->ids[o->x]);
        sb_printf(&buf, &len, &cap, ", \"y\": ");
        sb_json_str(&buf, &len, &cap, bl->ids[o->y]);
        sb_printf(&buf, &len, &cap, ", \"kind\": \"%s\", \"d\": %lld, \"shared_bytes\": %zu}",
                  o->kind == TA_OVERLAP_BELOW ? "below" : "above", (long long)o->d, shared);
    }
    sb_printf(&buf, &len, &cap, "], ");
    return buf;
}

static int plan_buffers(const plan_args *a) {
    buffer_list bl;
    if (!buffers_csv_read(a->buffers, a->align ? (size_t)a->align : 1, &bl)) return CLI_FAIL;
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.time_limit_s = a->time_limit;
    opt.clock = cli_clock;
    opt.seed = a->seed;
    opt.overlaps = bl.overlaps;
    opt.n_overlaps = bl.n_overlaps;
    size_t count;
    const ta_strategy *const *all = ta_strategy_list(&count);
    const ta_strategy *one = NULL;
    if (a->strategy) {
        one = ta_strategy_find(a->strategy);
        if (!one) {
            buffers_csv_free(&bl);
            return cli_error("unknown strategy '%s' (see tinyarena plan --help)", a->strategy);
        }
    } else if (a->json || a->offsets_out) {
        one = ta_strategy_find("best");
    }
    opt.time_limit_s = search_limit(a, one ? is_search(one) : 2);
    /* Input problems (bad alignment, colliding fixed offsets) are reported
     * against the file, naming lines.  (With relations, fixed buffers they
     * let share bytes do not collide: ta_plan_run checks those.) */
    if (!bl.n_overlaps) {
        size_t need = ta_plan_check_scratch_bytes(bl.n);
        void *scratch = cli_xmalloc(need);
        ta_diag d;
        ta_status st = ta_plan_requests_check(bl.reqs, bl.n, 0, scratch, need, NULL, &d);
        free(scratch);
        if (st) {
            int rc;
            if (d.item[0] != SIZE_MAX && d.item[1] != SIZE_MAX) {
                /* Name both buffers by id and line, with their steps and bytes. */
                const ta_request *x = &bl.reqs[d.item[1]], *y = &bl.reqs[d.item[0]];
                rc = cli_error("%s:%zu: buffer '%s' (fixed at %zu, steps [%d,%d], %zu B) collides with buffer '%s' "
                               "(line %zu, fixed at %zu, steps [%d,%d], %zu B): %s",
                               a->buffers, bl.lineno[d.item[1]], bl.ids[d.item[1]], x->fixed, x->first, x->last,
                               ta_request_padded(x), bl.ids[d.item[0]], bl.lineno[d.item[0]], y->fixed, y->first,
                               y->last, ta_request_padded(y), ta_status_str(st));
            } else
                rc = cli_error("%s: %s: %s", a->buffers, ta_status_str(st), d.msg);
            buffers_csv_free(&bl);
            return rc;
        }
    }
    int rc = CLI_OK;
    if (a->regions.n) {
        cli_regions cr = a->regions;
        cr.json = a->json;
        cr.svg_out = a->svg_out;
        cr.offsets_out = a->offsets_out;
        rc = plan_regions_buffers(&cr, a->buffers, &bl, one ? one : ta_strategy_find("best"), &opt);
        buffers_csv_free(&bl);
        return rc;
    }
    if (bl.has_regions) {
        buffers_csv_free(&bl);
        return cli_error("%s: a 'region' column needs --region NAME:BYTES", a->buffers);
    }
    if (one) {
        plan_outcome o = plan_report_run(one, bl.reqs, bl.n, &opt);
        if (o.st) {
            rc = cli_error("%s: strategy %s: %s: %s", a->buffers, one->name, ta_status_str(o.st), o.diag.msg);
        } else {
            if (a->json) {
                char *extra = overlaps_json(&bl, o.offsets);
                plan_report_json(stdout, &o, bl.reqs, bl.n, (const char *const *)bl.ids, extra);
                free(extra);
            }
            else plan_report_table(stdout, &o, 1);
            viz_plan vp = viz_plan_of_buffers(bl.reqs, bl.n, (const char *const *)bl.ids, &o, 1, 0, a->buffers);
            if (a->timeline) timeline_print(stdout, &vp, a->color);
            if (!rc && a->svg_out) rc = emit_svg_file(a->svg_out, &vp);
            if (!rc && a->html_out) rc = emit_html_file(a->html_out, &vp);
            if (a->offsets_out && !buffers_csv_write_offsets(a->offsets_out, &bl, o.offsets)) rc = CLI_FAIL;
        }
        free(o.offsets);
    } else {
        plan_outcome *o = cli_xcalloc(count, sizeof *o);
        for (size_t i = 0; i < count; i++) o[i] = run_in_table(all[i], bl.reqs, bl.n, &opt, o, i);
        char b1[32], b2[32];
        size_t lb = 0, naive = 0;
        for (size_t i = 0; i < count; i++)
            if (!o[i].st) {
                lb = o[i].res.lower_bound_bytes;
                naive = o[i].res.naive_bytes;
            }
        printf("%s: %zu buffers, lower bound %s B, no reuse %s B", a->buffers, bl.n, fmt_bytes(lb, b1),
               fmt_bytes(naive, b2));
        if (bl.n_overlaps) printf(", %zu overlap relations", bl.n_overlaps);
        printf("\n");
        plan_report_table(stdout, o, count);
        viz_plan vp = viz_plan_of_buffers(bl.reqs, bl.n, (const char *const *)bl.ids, o, count,
                                          viz_find(o, count, "best"), a->buffers);
        if (a->timeline) timeline_print(stdout, &vp, a->color);
        if (a->svg_out && emit_svg_file(a->svg_out, &vp)) rc = CLI_FAIL;
        if (a->html_out && emit_html_file(a->html_out, &vp)) rc = CLI_FAIL;
        for (size_t i = 0; i < count; i++) {
            if (o[i].st) rc = CLI_FAIL;
            free(o[i].offsets);
        }
        free(o);
    }
    buffers_csv_free(&bl);
    return rc;
}

/* The runtime's kernel scratch requests for g (none with no_scratch); false
 * when the runtime cannot run g (rd says why). */
static bool scratch_of(const ta_graph *g, bool no_scratch, ta_scratch_request **scratch, size_t *n, ta_diag *rd) {
    *scratch = NULL;
    *n = 0;
    bool runnable = ta_runtime_scratch_requests(g, NULL, 0, n, rd) == TA_OK;
    if (!runnable) *n = 0;
    if (runnable && *n && !no_scratch) {
        *scratch = cli_xcalloc(*n, sizeof **scratch);
        if (ta_runtime_scratch_requests(g, *scratch, *n, n, rd)) runnable = false;
    }
    if (no_scratch) *n = 0;
    return runnable;
}

/* TFLM's rules on the model's own graph with strategy s, for the --rewrite
 * comparison: *res gets the plan's figures.  False on failure. */
static bool tflm_rules_plan(const loaded_model *lm, const ta_lifetime_options *lopt, bool no_scratch,
                            const ta_strategy *s, const ta_plan_options *popt, ta_plan_result *res) {
    ta_scratch_request *scratch;
    size_t n_scratch;
    ta_diag rd;
    bool runnable = scratch_of(&lm->g, no_scratch, &scratch, &n_scratch, &rd);
    model_plan mp0;
    bool ok = model_plan_build(&mp0, &lm->g, lopt, scratch, runnable ? n_scratch : 0, "TFLM's rules") == CLI_OK;
    if (ok) {
        plan_outcome o = plan_report_run(s, mp0.reqs, mp0.n, popt);
        ok = o.st == TA_OK;
        if (ok) *res = o.res;
        free(o.offsets);
    }
    model_plan_free(&mp0);
    free(scratch);
    return ok;
}

static const char *base_name(const char *path) {
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

static int plan_model(const plan_args *a) {
    loaded_model lm;
    if (model_load(a->model, &lm)) {
        model_unload(&lm);
        return CLI_FAIL;
    }
    /* the alignment rule: TFLM's for a model carrying TFLM's offline plan
     * (its offsets are multiples of 16), unless one is named */
    cli_align_args al = a->al;
    if (lm.offline) al.tflm_rules = true;
    ta_align_rule rule;
    if (!cli_align_resolve(&al, &rule)) {
        model_unload(&lm);
        return CLI_USAGE;
    }
    ta_lifetime_options lopt;
    memset(&lopt, 0, sizeof lopt);
    lopt.align = (size_t)a->align;
    lopt.rule = rule;
    lopt.offline_offsets = lm.offline;
    lopt.n_offline = lm.n_offline;
    /* With --rewrite: the rewritten graph is what gets planned (and what the
     * runtime runs); TFLM's graph is planned too, for the comparison. */
    ta_rewrite_stats rstats;
    memset(&rstats, 0, sizeof rstats);
    const ta_graph *g = &lm.g;
    ta_graph g2;
    void *g2mem = NULL;
    if (model_rewrite_graph(&lm.g, a->rewrites, &g, &g2, &g2mem, &rstats, a->model)) {
        free(g2mem);
        model_unload(&lm);
        return CLI_FAIL;
    }
    /* Kernel scratch: what the runtime's kernels ask for, planned as [op, op]
     * buffers with the tensors -- when the runtime can run the model. */
    ta_scratch_request *scratch = NULL;
    size_t n_scratch = 0;
    ta_diag rdiag;
    bool runnable = scratch_of(g, a->no_scratch, &scratch, &n_scratch, &rdiag);
    model_plan mp;
    if (model_plan_build_rewritten(&mp, g, &lopt, scratch, runnable ? n_scratch : 0, a->model, a->rewrites, &rstats)) {
        model_plan_free(&mp);
        free(scratch);
        free(g2mem);
        model_unload(&lm);
        return CLI_FAIL;
    }
    /* The rewrites that changed something: without the others the plan is the
     * same, so the runtime (and a header) applies only these -- and, above
     * all, does not redo an ORDER search that kept the model's order. */
    uint32_t applied = a->rewrites;
    if (!rstats.aliased) applied &= ~TA_REWRITE_ALIAS;
    if (!rstats.in_place) applied &= ~TA_REWRITE_INPLACE;
    if (!rstats.fused_pads) applied &= ~TA_REWRITE_FUSEPAD;
    if (!rstats.reordered) applied &= ~TA_REWRITE_ORDER;
    if (!mp.n_overlaps) applied &= ~TA_REWRITE_OVERLAP;
    if (!rstats.dw_in_place) applied &= ~TA_REWRITE_DWINPLACE;
    if (!rstats.concat_in_place) applied &= ~TA_REWRITE_CONCAT;
    if (!rstats.slice_views && !rstats.slices_rejoined) applied &= ~TA_REWRITE_SLICE;
    if (!rstats.silu_fused) applied &= ~TA_REWRITE_SILU;
    if (!rstats.gathered) applied &= ~TA_REWRITE_GATHER;
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.time_limit_s = a->time_limit;
    opt.clock = cli_clock;
    opt.seed = a->seed;
    /* An offline plan may overlap buffers on purpose (TFLM accepts it). */
    if (lm.offline) opt.flags |= TA_PLAN_ALLOW_FIXED_CONFLICT;
    /* --tflm-offline: its own plan under TFLM's rules, written before the rest */
    tflm_offline tfo;
    memset(&tfo, 0, sizeof tfo);
    ta_scratch_request *tsc = NULL;
    size_t n_tsc = 0;
    int trc = CLI_OK;
    if (a->tflm_offline && a->tflm_scratch) trc = tflm_offline_parse_scratch(a->tflm_scratch, &lm.g, &tsc, &n_tsc);
    if (a->tflm_offline && (trc || tflm_offline_make_with(&lm, &opt, tsc, n_tsc, &tfo) ||
                            tflm_offline_write(&lm, &tfo, a->tflm_offline))) {
        free(tsc);
        tflm_offline_free(&tfo);
        model_plan_free(&mp);
        free(scratch);
        free(g2mem);
        model_unload(&lm);
        return trc ? trc : CLI_FAIL;
    }
    free(tsc);
    const ta_strategy *chosen = ta_strategy_find(a->strategy ? a->strategy : "optimal");
    if (!chosen) {
        tflm_offline_free(&tfo);
        model_plan_free(&mp);
        free(scratch);
        free(g2mem);
        model_unload(&lm);
        return cli_error("unknown strategy '%s' (see tinyarena plan --help)", a->strategy);
    }
    opt.time_limit_s = search_limit(a, (a->strategy || a->json ? is_search(chosen) : 2) +
                                           (a->rewrites && is_search(chosen) ? 1 : 0));
    size_t count;
    const ta_strategy *const *all = ta_strategy_list(&count);
    /* the rewritten graph's requests carry the OVERLAP relations; TFLM's
     * graph (the comparison, --tflm-offline) is planned with opt alone */
    ta_plan_options ropt = opt;
    ropt.overlaps = mp.overlaps;
    ropt.n_overlaps = mp.n_overlaps;
    if (a->regions.n) {
        cli_regions cr = a->regions;
        cr.json = a->json;
        cr.verbose = a->verbose;
        cr.svg_out = a->svg_out;
        cr.header_out = a->header_out;
        cr.offsets_out = a->offsets_out;
        int rrc = plan_regions_model(&cr, base_name(a->model), &lm, &mp, g, chosen, &ropt, runnable && !a->no_scratch,
                                     applied, rule);
        tflm_offline_free(&tfo);
        model_plan_free(&mp);
        free(scratch);
        free(g2mem);
        model_unload(&lm);
        return rrc;
    }
    plan_outcome *o = cli_xcalloc(count + 1, sizeof *o);
    size_t no = 0, ichosen = 0;
    for (size_t i = 0; i < count; i++) {
        bool want = a->strategy ? all[i] == chosen : true;
        if (a->json && all[i] != chosen) want = false;
        if (!want) continue;
        if (all[i] == chosen) ichosen = no;
        o[no] = run_in_table(all[i], mp.reqs, mp.n, &ropt, o, no);
        no++;
    }
    int rc = CLI_OK;
    /* --rewrite: the same strategy on TFLM's graph and rules */
    ta_plan_result base;
    memset(&base, 0, sizeof base);
    char rwn[96], rwa[96];
    ta_rewrite_names(a->rewrites, rwn, sizeof rwn);
    ta_rewrite_names(applied, rwa, sizeof rwa);
    const bool compare = a->rewrites && !o[ichosen].st;
    if (compare && !tflm_rules_plan(&lm, &lopt, a->no_scratch, chosen, &opt, &base)) {
        rc = cli_error("%s: planning TFLM's graph for the comparison failed", a->model);
    }
    const size_t arena_rw = o[ichosen].res.arena_bytes;
    /* padding: the planned buffers' padded bytes minus what they hold, under
     * the rule and under TFLM's (the same graph and rewrites: only the rule
     * differs; the requests alone, no plan) */
    size_t padding = 0, tflm_padding = 0;
    for (size_t i = 0; i < mp.n; i++) padding += ta_request_padded(&mp.reqs[i]);
    padding -= mp.unpadded;
    if (rule.kind == TA_ALIGN_TFLM) {
        tflm_padding = padding;
    } else {
        ta_lifetime_options lt = lopt;
        lt.rule = (ta_align_rule){TA_ALIGN_TFLM, 0};
        model_plan mpt;
        if (model_plan_build_rewritten(&mpt, g, &lt, scratch, runnable ? n_scratch : 0, a->model, a->rewrites, NULL) == CLI_OK) {
            for (size_t i = 0; i < mpt.n; i++) tflm_padding += ta_request_padded(&mpt.reqs[i]);
            tflm_padding -= mpt.unpadded;
        }
        model_plan_free(&mpt);
    }
    char rule_name[32];
    ta_align_rule_str(rule, rule_name, sizeof rule_name);
    /* The chain: TFLM's rules -> the graph and buffer rewrites -> + the
     * overlap relations.  The middle step is the same requests planned
     * without the relations (OVERLAP changes no graph and no group). */
    size_t arena_mid = arena_rw;
    if (compare && mp.n_overlaps) {
        plan_outcome mid = plan_report_run(chosen, mp.reqs, mp.n, &opt);
        if (mid.st == TA_OK) arena_mid = mid.res.arena_bytes;
        free(mid.offsets);
    }
    char rwmid[96];
    ta_rewrite_names(a->rewrites & ~TA_REWRITE_OVERLAP, rwmid, sizeof rwmid);
    /* The chosen plan as a table, the plan source the budget header gives
     * firmware: the runtime figures below and in --header are for it. */
    uint32_t *toff = cli_xcalloc(mp.n ? mp.n : 1, sizeof *toff);
    for (size_t i = 0; !o[ichosen].st && i < mp.n; i++) toff[i] = (uint32_t)o[ichosen].offsets[i];
    const ta_plan_table table = {toff, mp.n, o[ichosen].res.arena_bytes};
    const size_t saved = base.arena_bytes > arena_rw ? base.arena_bytes - arena_rw : 0;
    const double saved_pct = base.arena_bytes ? 100.0 * (double)saved / (double)base.arena_bytes : 0.0;
    viz_plan vp = viz_plan_of_model(&mp, o, no, ichosen, base_name(a->model), ta_tflite_description(&lm.m));
    if (rc) {
        /* the comparison failed: said above */
    } else if (o[ichosen].st) {
        rc = cli_error("%s: strategy %s: %s: %s", a->model, chosen->name, ta_status_str(o[ichosen].st),
                       o[ichosen].diag.msg);
    } else if (a->json) {
        char extra[4096];
        int at = snprintf(extra, sizeof extra, "\"model\": \"%s\", \"ops\": %u, \"tensors\": %u, \"planned_tensors\": %zu, "
                 "\"constant_bytes\": %zu, \"fixed_conflicts\": %zu, \"align_rule\": \"%s\", \"padding_bytes\": %zu, "
                 "\"tflm_padding_bytes\": %zu, ",
                 base_name(a->model), lm.g.n_ops, lm.g.n_tensors, mp.n - mp.lt.n_scratch, mp.const_bytes,
                 o[ichosen].res.fixed_conflicts, rule_name, padding, tflm_padding);
        if (compare && at > 0 && (size_t)at < sizeof extra)
            snprintf(extra + at, sizeof extra - (size_t)at,
                     "\"rewrites\": \"%s\", \"rewrites_applied\": \"%s\", \"rewrite_counts\": {\"alias\": %u, "
                     "\"inplace\": %u, \"fusepad\": %u, \"order\": %u, \"overlap\": %u, \"dwinplace\": %u, \"concat\": %u, "
                     "\"slice\": %u, \"silu\": %u, \"gather\": %u}, \"slices_rejoined\": %u, \"rewritten_ops\": %u, "
                     "\"tflm_rules_arena_bytes\": %zu, \"tflm_rules_lower_bound_bytes\": %zu, \"saved_bytes\": %zu, "
                     "\"without_overlap_arena_bytes\": %zu, ",
                     rwn, rwa, rstats.aliased, rstats.in_place, rstats.fused_pads, rstats.reordered, rstats.overlapped,
                     rstats.dw_in_place, rstats.concat_in_place, rstats.slice_views, rstats.silu_fused, rstats.gathered,
                     rstats.slices_rejoined, g->n_ops, base.arena_bytes,
                     base.lower_bound_bytes, saved, arena_mid);
        at = (int)strlen(extra);
        if (a->tflm_offline && at > 0 && (size_t)at < sizeof extra)
            snprintf(extra + at, sizeof extra - (size_t)at,
                     "\"tflm_offline\": {\"tensors_fixed\": %zu, \"predicted_tflm_head_bytes\": %zu, "
                     "\"tflm_greedy_head_bytes\": %zu, \"scratch_buffers\": %zu, \"reshape_aliases\": %u, "
                     "\"source\": \"%s\"}, ",
                     tfo.tensors_fixed, tfo.predicted_head, tfo.tflm_head, tfo.n_scratch, tfo.reshape_aliases, tfo.source);
        /* what the runtime needs on firmware, from the budget header (--header) */
        fw_budget fw = {0};
        fw_patch pe = {0};
        ta_diag fd;
        at = (int)strlen(extra);
        /* the header's plan: with patch stages the runtime's own */
        const bool patched = runnable && !a->no_scratch && a->patch &&
                             fw_make_patched(lm.bytes, lm.len, chosen->name, applied, rule, (uint32_t)a->patch, &fw, &pe, &fd);
        if (runnable && !a->no_scratch && (patched || fw_make(lm.bytes, lm.len, &table, applied, rule, &fw, &fd)) && at > 0 &&
            (size_t)at < sizeof extra)
            snprintf(extra + at, sizeof extra - (size_t)at,
                     "\"runtime\": {\"planned_bytes\": %zu, \"persistent_bytes\": %zu, "
                     "\"persistent_bytes_consts_in_arena\": %zu, \"const_blob_bytes\": %zu, \"init_table_bytes\": %zu, "
                     "\"init_work_bytes\": %zu, \"init_work_bytes_consts_in_arena\": %zu, \"alignment_bytes\": %zu, "
                     "\"firmware_arena_bytes\": %zu, \"firmware_arena_bytes_consts_in_arena\": %zu}, ",
                     fw.fw.planned, fw.fw.persistent, fw.in_arena.persistent, fw.consts_bytes, fw.init_bytes,
                     fw.fw.work_bytes, fw.in_arena.work_bytes, fw.fw.alignment, fw.fw.total_in_place,
                     fw.in_arena.total_in_place);
        const ta_arena_breakdown patched_in_arena = fw.in_arena;
        fw_free(&fw);
        at = (int)strlen(extra);
        if (runnable && !a->no_scratch && a->patch && at > 0 && (size_t)at < sizeof extra) {
            ta_patch_plan pp = pe.patch;
            ta_arena_breakdown pb = patched_in_arena;
            if (patched || cli_patch_query(lm.bytes, lm.len, chosen->name, a->rewrites, rule, (uint32_t)a->patch, &pp, &pb, &fd)) {
                at += cli_patch_json_str(extra + at, sizeof extra - (size_t)at, &pp);
                if (at > 0 && (size_t)at < sizeof extra && pp.n_stages)
                    at += snprintf(extra + at, sizeof extra - (size_t)at, ", \"patch_runtime_arena_bytes\": %zu", pb.total);
                if (at > 0 && (size_t)at < sizeof extra) snprintf(extra + at, sizeof extra - (size_t)at, ", ");
            }
        }
        fw_patch_free(&pe);
        plan_report_json(stdout, &o[ichosen], mp.reqs, mp.n, mp.ids, extra);
    } else {
        char b1[32];
        const char *desc = ta_tflite_description(&lm.m);
        printf("%s: %s B%s%s%s\n", a->model, fmt_bytes(lm.len, b1), *desc ? " (" : "", desc, *desc ? ")" : "");
        model_plan_summary(stdout, &mp);
        {
            /* Decided leniency: a negative (unknown, -1) dimension counts as 1,
             * as the importer sizes it; say so rather than plan silently. */
            size_t unknown = 0;
            const char *first = NULL;
            for (uint32_t i = 0; i < lm.g.n_tensors; i++)
                for (int32_t k = 0; k < lm.g.tensors[i].rank; k++)
                    if (lm.g.tensors[i].shape[k] < 0) {
                        if (!unknown++) first = lm.g.tensors[i].name;
                        break;
                    }
            if (unknown)
                printf("note: %zu tensor%s with an unknown (-1) dimension, planned as 1 (e.g. '%s')\n", unknown,
                       unknown == 1 ? "" : "s", first ? first : "?");
        }
        if (a->tflm_offline) {
            char b2[32], b3[32];
            printf("tflm offline plan -> %s: %zu tensors fixed (%s); TFLM's head %s B -> %s B "
                   "(its greedy, %zu scratch buffer%s placed online)\n",
                   a->tflm_offline, tfo.tensors_fixed, tfo.source, fmt_bytes(tfo.tflm_head, b2),
                   fmt_bytes(tfo.predicted_head, b3), tfo.n_scratch, tfo.n_scratch == 1 ? "" : "s");
        }
        if (compare) {
            char b2[32], b3[32], b4[32], b5[32];
            printf("rewrites %s: %u aliased, %u in place, %u pad%s fused, %u op%s reordered, %u overlap%s, %u depthwise in "
                   "place, %u concatenation input%s in place, %u slice view%s, %u silu fused, %u transpose conv%s gathered "
                   "(applied: %s)\n",
                   rwn, rstats.aliased, rstats.in_place, rstats.fused_pads, rstats.fused_pads == 1 ? "" : "s",
                   rstats.reordered, rstats.reordered == 1 ? "" : "s", rstats.overlapped, rstats.overlapped == 1 ? "" : "s",
                   rstats.dw_in_place, rstats.concat_in_place, rstats.concat_in_place == 1 ? "" : "s", rstats.slice_views,
                   rstats.slice_views == 1 ? "" : "s", rstats.silu_fused, rstats.gathered, rstats.gathered == 1 ? "" : "s",
                   rwa);
            printf("  against TFLM's rules (%s): lower bound %s -> %s B, arena %s -> %s B, saves %s B (%.1f%%)\n",
                   chosen->name, fmt_bytes(base.lower_bound_bytes, b1), fmt_bytes(o[ichosen].res.lower_bound_bytes, b2),
                   fmt_bytes(base.arena_bytes, b3), fmt_bytes(arena_rw, b4), fmt_bytes(saved, b5), saved_pct);
            const double tb = base.arena_bytes ? (double)base.arena_bytes : 1.0;
            printf("  chain (%s): TFLM's rules %s B -> +%s %s B (%.1f%% saved)", chosen->name,
                   fmt_bytes(base.arena_bytes, b1), (a->rewrites & ~TA_REWRITE_OVERLAP) ? rwmid : "nothing",
                   fmt_bytes(arena_mid, b2), 100.0 * ((double)base.arena_bytes - (double)arena_mid) / tb);
            if (a->rewrites & TA_REWRITE_OVERLAP)
                printf(" -> +overlap %s B (%.1f%% saved)", fmt_bytes(arena_rw, b3),
                       100.0 * ((double)base.arena_bytes - (double)arena_rw) / tb);
            printf("\n");
        }
        if (o[ichosen].res.fixed_conflicts) {
            size_t need = ta_plan_check_scratch_bytes(mp.n);
            void *scr = cli_xmalloc(need);
            ta_diag d;
            ta_plan_requests_check(mp.reqs, mp.n, 0, scr, need, NULL, &d);
            free(scr);
            printf("warning: conflicting fixed offsets: the model's offline plan (OfflineMemoryAllocation) puts %zu "
                   "pair(s) of live buffers on the same bytes, e.g. '%s' and '%s'; they are kept as given (TFLM "
                   "does the same) and the lower bound is not meaningful\n",
                   o[ichosen].res.fixed_conflicts, d.item[0] < mp.n ? mp.ids[d.item[0]] : "?",
                   d.item[1] < mp.n ? mp.ids[d.item[1]] : "?");
        }
        char b2[32], b3[32], b4[32], b5[32];
        plan_report_table(stdout, o, no);
        model_plan_peak(stdout, &mp, &o[ichosen].res);
        /* after the live set: the table's rows end at "largest live set" for tools that read it */
        printf("alignment rule %s: padding %s B (under tflm: %s B)\n", rule_name, fmt_bytes(padding, b1),
               fmt_bytes(tflm_padding, b2));
        fw_budget fw = {0};
        fw_patch pe = {0};
        ta_diag fd;
        /* the header's plan: with patch stages the runtime's own */
        const bool patched = runnable && !a->no_scratch && a->patch &&
                             fw_make_patched(lm.bytes, lm.len, chosen->name, applied, rule, (uint32_t)a->patch, &fw, &pe, &fd);
        if (!runnable) {
            printf("runtime: tinyarena run cannot run this model: the plan covers tensors only\n  (%s)\n", rdiag.msg);
        } else if (!a->no_scratch && (patched || fw_make(lm.bytes, lm.len, &table, applied, rule, &fw, &fd))) {
            const ta_arena_breakdown *rb = &fw.in_arena, *rc_b = &fw.fw;
            printf("runtime arena (%s plan%s): planned %s + persistent %s + alignment %s\n", chosen->name,
                   patched ? " with patch stages" : "",
                   fmt_bytes(rb->planned, b1), fmt_bytes(rb->persistent, b2), fmt_bytes(rb->alignment, b3));
            printf("  = %s B; %s B with in-place init\n", fmt_bytes(rb->total, b4), fmt_bytes(rb->total_in_place, b5));
            printf("  op constants in flash (--header): persistent %s B, arena %s B,\n", fmt_bytes(rc_b->persistent, b1),
                   fmt_bytes(rc_b->total_in_place, b2));
            printf("  const blob %s B, init table %s B (init needs no work block)\n", fmt_bytes(fw.consts_bytes, b3),
                   fmt_bytes(fw.init_bytes, b4));
            if (patched) { /* run and --header run them */
                printf("  with patches (run, --header): ");
                cli_patch_text(stdout, &pe.patch);
            }
        } else if (!a->no_scratch) {
            /* e.g. control flow: `run` runs it, the header carries tensors only */
            printf("runtime: tinyarena run runs this model; a budget header carries its tensors only\n  (%s)\n", fd.msg);
        }
        fw_free(&fw);
        fw_patch_free(&pe);
        if (a->timeline) timeline_print(stdout, &vp, a->color);
        if (a->verbose) {
            printf("\nbuffers (%s plan):\n", chosen->name);
            model_plan_verbose(stdout, &mp, o[ichosen].offsets);
        }
    }
    if (!rc && a->offsets_out && !buffers_csv_write(a->offsets_out, mp.reqs, mp.n, mp.ids, o[ichosen].offsets))
        rc = CLI_FAIL;
    /* the maps draw the plan firmware runs: with patch stages, the runtime's */
    if (!rc) rc = viz_patch_emit(&vp, a->svg_out, a->html_out, &lm, chosen, applied, rule,
                                 runnable && !a->no_scratch ? (uint32_t)a->patch : 0);
    if (!rc && a->buffers_out && !buffers_csv_write(a->buffers_out, mp.reqs, mp.n, NULL, NULL)) rc = CLI_FAIL;
    if (!rc && a->header_out) {
        fw_budget fw = {0};
        fw_patch pe = {0};
        ta_diag fd;
        /* with patch stages (--patch-overhead, default 10) the runtime's plan */
        const bool patched = runnable && !a->no_scratch && a->patch &&
                             fw_make_patched(lm.bytes, lm.len, chosen->name, applied, rule, (uint32_t)a->patch, &fw, &pe, &fd);
        bool have = patched || (runnable && !a->no_scratch && fw_make(lm.bytes, lm.len, &table, applied, rule, &fw, &fd));
        rc = emit_header(a->header_out, &mp, &o[ichosen], base_name(a->model), ta_budget_hash(lm.bytes, lm.len),
                         lm.len, have ? &fw : NULL, patched ? &pe : NULL, applied, rule);
        fw_free(&fw);
        fw_patch_free(&pe);
    }
    for (size_t i = 0; i < no; i++) {
        /* the exit code follows the chosen plan; other rows only report */
        free(o[i].offsets);
    }
    free(o);
    free(toff);
    tflm_offline_free(&tfo);
    model_plan_free(&mp);
    free(scratch);
    free(g2mem);
    model_unload(&lm);
    return rc;
}

int cmd_plan(int argc, char **argv) {
    plan_args a;
    memset(&a, 0, sizeof a);
    int alr;
    a.rewrites = TA_REWRITE_ALL; /* every rewrite by default; --rewrite none is TFLM's rules */
    a.patch = 10;
    bool patch_given = false; /* --patch-overhead; else none under --rewrite none (TFLM's rules exactly) */
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool has_val = i + 1 < argc;
#define NEED_VAL()                                                               \
    do {                                                                         \
        if (!has_val) {                                                          \
            cli_error("%s needs a value (see tinyarena plan --help)", arg);      \
            return CLI_USAGE;                                                    \
        }                                                                        \
    } while (0)
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            plan_usage(stdout);
            return CLI_OK;
        } else if (!strcmp(arg, "--buffers")) {
            NEED_VAL();
            a.buffers = argv[++i];
        } else if ((alr = cli_align_arg(argc, argv, &i, &a.al)) != 0) {
            if (alr < 0) return CLI_USAGE; /* a bad value, printed */
            a.has_align_rule = true;
        } else if (!strcmp(arg, "--strategy")) {
            NEED_VAL();
            a.strategy = argv[++i];
        } else if (!strcmp(arg, "--offsets")) {
            NEED_VAL();
            a.offsets_out = argv[++i];
        } else if (!strcmp(arg, "--patch-overhead")) {
            patch_given = true;
            NEED_VAL();
            if (!cli_parse_u64(argv[++i], &a.patch) || a.patch > 1000) {
                cli_error("--patch-overhead %s: need a percentage from 0 to 1000", argv[i]);
                return CLI_USAGE;
            }
        } else if (!strcmp(arg, "--json")) {
            a.json = true;
        } else if (!strcmp(arg, "--verbose") || !strcmp(arg, "-v")) {
            a.verbose = true;
        } else if (!strcmp(arg, "--no-scratch")) {
            a.no_scratch = true;
        } else if (!strcmp(arg, "--rewrite")) {
            NEED_VAL();
            ta_diag d;
            a.rewrite = argv[++i];
            if (ta_rewrite_parse(a.rewrite, &a.rewrites, &d)) {
                cli_error("--rewrite %s: %s", a.rewrite, d.msg);
                return CLI_USAGE;
            }
            a.al.tflm_rules = !strcmp(a.rewrite, "none") || a.tflm_offline; /* TFLM's graph and rules: its alignment */
        } else if (!strcmp(arg, "--buffers-out")) {
            NEED_VAL();
            a.buffers_out = argv[++i];
        } else if (!strcmp(arg, "--header")) {
            NEED_VAL();
            a.header_out = argv[++i];
        } else if (!strcmp(arg, "--tflm-offline")) {
            NEED_VAL();
            a.tflm_offline = argv[++i];
            a.al.tflm_rules = true; /* TFLM runs the plan: its 16-byte rule */
        } else if (!strcmp(arg, "--tflm-scratch")) {
            NEED_VAL();
            a.tflm_scratch = argv[++i];
        } else if (!strcmp(arg, "--svg")) {
            NEED_VAL();
            a.svg_out = argv[++i];
        } else if (!strcmp(arg, "--html")) {
            NEED_VAL();
            a.html_out = argv[++i];
        } else if (!strcmp(arg, "--timeline")) {
            a.timeline = true;
        } else if (!strcmp(arg, "--color") || !strcmp(arg, "--colour")) {
            a.color = true;
        } else if (!strcmp(arg, "--align")) {
            NEED_VAL();
            if (!cli_parse_u64(argv[++i], &a.align) || !a.align || (a.align & (a.align - 1))) {
                cli_error("--align %s: need a power of two", argv[i]);
                return CLI_USAGE;
            }
        } else if (!strcmp(arg, "--time-limit")) {
            NEED_VAL();
            char *end;
            a.time_limit = strtod(argv[++i], &end);
            if (*end || a.time_limit <= 0) {
                cli_error("--time-limit %s: need a positive number of seconds", argv[i]);
                return CLI_USAGE;
            }
        } else if (!strcmp(arg, "--seed")) {
            NEED_VAL();
            uint64_t v;
            if (!cli_parse_u64(argv[++i], &v)) {
                cli_error("--seed %s: need a non-negative integer", argv[i]);
                return CLI_USAGE;
            }
            a.seed = (uint32_t)v;
        } else if ((alr = cli_regions_arg(argc, argv, &i, &a.regions)) != 0) {
            if (alr < 0) return CLI_USAGE;
        } else if (arg[0] == '-') {
            cli_error("unknown option '%s' (see tinyarena plan --help)", arg);
            return CLI_USAGE;
        } else if (!a.model) {
            a.model = arg;
        } else {
            cli_error("unexpected argument '%s'", arg);
            return CLI_USAGE;
        }
#undef NEED_VAL
    }
    if (a.buffers && a.model) {
        cli_error("give either --buffers FILE.csv or a model, not both");
        return CLI_USAGE;
    }
    /* a buffer list has no graph to rewrite: --rewrite none is accepted (it
     * changes nothing), any other list is refused */
    if (!a.rewrites && !patch_given) a.patch = 0;
    if (a.buffers && (a.buffers_out || a.header_out || a.verbose || a.no_scratch || (a.rewrite && a.rewrites) ||
                      a.tflm_offline || a.has_align_rule)) {
        cli_error("--buffers-out, --header, --verbose, --no-scratch, --rewrite, --tflm-offline and --align-rule apply to models");
        return CLI_USAGE;
    }
    if (a.tflm_scratch && !a.tflm_offline) {
        cli_error("--tflm-scratch goes with --tflm-offline");
        return CLI_USAGE;
    }
    if (a.timeline && a.json) {
        cli_error("--timeline prints text; it does not mix with --json");
        return CLI_USAGE;
    }
    if (a.regions.persistent && !a.regions.n) {
        cli_error("--persistent-region goes with --region");
        return CLI_USAGE;
    }
    if (a.regions.n && (a.html_out || a.timeline || a.tflm_offline || a.buffers_out)) {
        cli_error("--html, --timeline, --tflm-offline and --buffers-out do not apply with --region");
        return CLI_USAGE;
    }
    if (a.buffers && a.regions.persistent) {
        cli_error("--persistent-region applies to models");
        return CLI_USAGE;
    }
    if (a.buffers) return plan_buffers(&a);
    if (a.model) return plan_model(&a);
    plan_usage(stderr);
    return CLI_USAGE;
}
