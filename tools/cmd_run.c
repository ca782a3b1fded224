/* tinyarena run: one model, one arena, TFLM-exact inference.
 *
 *   tinyarena run MODEL.tflite [--input IN.raw ...] [--outputs DIR]
 *                 [--strategy S] [--scratch planned|shared] [--poison]
 *                 [--rewrite LIST] [--runs N] [--json] [--max-iterations N]
 *                 [--arena N [--consts flash|arena]]
 *
 * Steps: read the model, open the runtime, query the arena breakdown
 * (growing the transient work block as asked), allocate the arena, init,
 * free the work block, copy the inputs in, invoke N times (timing each;
 * every run from the same inputs and the initial variable-tensor state),
 * then print the top-5 of every output, the breakdown and the median time.
 *
 * With --arena N it runs as firmware does with the budget header: the plan
 * `plan --header` makes (same strategy, default optimal), the op constants
 * blob and the init table as the header carries them, in-place init, all in
 * an arena of exactly N bytes at an address aligned to the header's 16 and
 * no more, with canary bytes on both sides checked after init and after the
 * runs.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "firmware.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/runtime.h"

#define MAX_INPUTS 16

typedef struct {
    const char *model, *outputs_dir, *strategy;
    const char *inputs[MAX_INPUTS];
    int n_inputs;
    bool json, poison, shared;
    bool fw;            /* --arena N: run as firmware does */
    uint64_t arena;     /* its N */
    bool consts_arena;  /* --consts arena: op constants built in the arena */
    uint32_t rewrites; /* --rewrite LIST */
    cli_align_args al;  /* --align-rule, --arch-align */
    ta_align_rule rule; /* what they name */
    uint64_t runs;
    uint64_t max_iter;  /* --max-iterations N: WHILE's cap (0: the runtime's default) */
    uint64_t patch;     /* --patch-overhead PCT (default 10; 0: no patch stage) */
} run_args;

static void run_usage(FILE *f) {
    fprintf(f,
            "usage: tinyarena run MODEL.tflite [options]\n"
            "  --input IN.raw      raw bytes of one input tensor (repeat, in input order;\n"
            "                      inputs not given are zero)\n"
            "  --outputs DIR       write each output's raw bytes to DIR/output<k>.bin\n"
            "  --strategy S        planner strategy (default greedy)\n"
            "  --scratch MODE      planned (default: each op's scratch is an [op, op]\n"
            "                      buffer in the plan) or shared (one tail region)\n"
            "  --poison            canary-fill dead memory before each op and verify\n"
            "                      every live tensor's checksum after it\n"
            "  --rewrite LIST      the rewrites: alias,inplace,fusepad,order,overlap,dwinplace,\n"
            "                      concat,slice,silu,inputs,gather, all\n"
            "                      (default) or none (TFLM's graph and rules); outputs stay\n"
            "                      byte-identical\n"
            "  --align-rule R      alignment rule: arch (default: element size, at least\n"
            "                      the word), dtype (element size), tflm (16, TFLM's; the\n"
            "                      default with --rewrite none) or a power of two N\n"
            "  --arch-align N      the arch rule's word (default 4; 8 where FPU/DSP code\n"
            "                      loads double words)\n"
            "  --runs N            timed invokes (default 5; the median is printed)\n"
            "  --patch-overhead PCT  run chains of conv/depthwise/pool ops band by band\n"
            "                      (patch.h) when that plans a smaller arena with at most\n"
            "                      PCT%% extra MACs (default 10 with rewrites, 0 under\n"
            "                      --rewrite none: layer by layer; --arena runs the header's\n"
            "                      plan, layer by layer)\n"
            "  --json              print the same data as JSON\n"
            "  --max-iterations N  WHILE: body runs per invoke (all loops together)\n"
            "                      before the invoke fails (default 1000000)\n"
            "  --arena N           run as firmware does with `plan --header`'s budget: its\n"
            "                      plan (--strategy, default optimal), the op constants and\n"
            "                      the init table outside the arena, in-place init, in an\n"
            "                      arena of exactly N bytes aligned to 16 and no more, with\n"
            "                      canaries around it; too small: 'arena needs X bytes, has N'\n"
            "  --consts MODE       with --arena: flash (default: the const blob outside the\n"
            "                      arena, as the header's <P>_ARENA_BYTES) or arena (built in\n"
            "                      the arena, <P>_ARENA_BYTES_CONSTS_IN_ARENA)\n"
            "the budget-table header for firmware comes from `tinyarena plan MODEL --header F.h`\n");
}

/* Value of element i of an output as a double (dequantised when quantised). */
static double out_value(const ta_io *o, size_t i, double *raw) {
    double r;
    switch (o->dtype) {
    case TA_DTYPE_INT8: r = ((const int8_t *)o->data)[i]; break;
    case TA_DTYPE_UINT8: r = ((const uint8_t *)o->data)[i]; break;
    case TA_DTYPE_INT16: r = ((const int16_t *)o->data)[i]; break;
    case TA_DTYPE_INT32: r = ((const int32_t *)o->data)[i]; break;
    case TA_DTYPE_FLOAT32: r = ((const float *)o->data)[i]; break;
    default: r = ((const uint8_t *)o->data)[i]; break;
    }
    *raw = r;
    if (o->scale > 0.0f && o->dtype != TA_DTYPE_FLOAT32) return (double)o->scale * (r - o->zero_point);
    return r;
}

static size_t out_count(const ta_io *o) {
    size_t es = ta_dtype_size(o->dtype);
    return es ? o->bytes / es : o->bytes;
}

/* Indices of the k largest values (ties: lower index first). */
static int topk(const ta_io *o, size_t *idx, int k) {
    size_t n = out_count(o);
    int got = 0;
    for (size_t i = 0; i < n; i++) {
        double raw, v = out_value(o, i, &raw);
        int pos = got;
        while (pos > 0) {
            double r2, v2 = out_value(o, idx[pos - 1], &r2);
            if (v2 >= v) break;
            pos--;
        }
        if (pos >= k) continue;
        int last = got < k ? got : k - 1;
        for (int j = last; j > pos; j--) idx[j] = idx[j - 1];
        idx[pos] = i;
        if (got < k) got++;
    }
    return got;
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void shape_str(const ta_io *o, char *buf, size_t len) {
    size_t j = 0;
    buf[0] = 0;
    for (int32_t d = 0; d < o->rank && j + 12 < len; d++) j += (size_t)snprintf(buf + j, len - j, d ? "x%d" : "%d", o->shape[d]);
    if (!o->rank) snprintf(buf, len, "scalar");
}

struct fw_run_s;
static int run_ready(const run_args *a, const char *strategy, ta_runtime *rt, const struct fw_run_s *fwr);

/* --arena: the header's budget, made on the host as `plan --header` makes it. */
typedef struct fw_run_s {
    loaded_model lm;
    fw_plan plan;
    fw_budget fw;
    fw_patch pe; /* with patch stages: the header's table is the runtime's plan */
    ta_budget budget;
    unsigned char *block; /* the arena and its canaries */
    unsigned char *arena;
    size_t n;
    size_t need;          /* what query says this mode needs */
} fw_run;

#define FW_CANARY 32u
#define FW_CANARY_BYTE 0xC5

static bool fw_canaries_ok(const fw_run *f) {
    for (size_t i = 0; i < FW_CANARY; i++)
        if (f->arena[-(ptrdiff_t)FW_CANARY + (ptrdiff_t)i] != FW_CANARY_BYTE || f->arena[f->n + i] != FW_CANARY_BYTE) return false;
    return true;
}

static void fw_run_free(fw_run *f) {
    free(f->block);
    fw_free(&f->fw);
    fw_patch_free(&f->pe);
    fw_plan_free(&f->plan);
    model_unload(&f->lm);
}

/* Opens and initialises rt as firmware does; prints and returns CLI_FAIL
 * on error (an arena too small: "arena needs X bytes, has N"). */
static int fw_setup(const run_args *a, const char *strategy, fw_run *f, ta_runtime *rt) {
    memset(f, 0, sizeof *f);
    const ta_strategy *s = ta_strategy_find(strategy);
    if (!s) return cli_error("unknown strategy '%s' (see tinyarena plan --help)", strategy);
    if (model_load(a->model, &f->lm) || fw_plan_make(a->model, &f->lm, s, a->rewrites, a->rule, &f->plan)) return CLI_FAIL;
    ta_diag d;
    /* as plan --header: the patch stages the runtime chooses, else the table plan */
    const bool patched = a->patch && fw_make_patched(f->lm.bytes, f->lm.len, s->name, f->plan.applied, a->rule,
                                                     (uint32_t)a->patch, &f->fw, &f->pe, &d);
    if (!patched && !fw_make(f->lm.bytes, f->lm.len, &f->plan.table, f->plan.applied, a->rule, &f->fw, &d))
        return cli_error("%s: %s", a->model, d.msg);
    const char *base = strrchr(a->model, '/');
    f->budget = (ta_budget){base ? base + 1 : a->model, ta_budget_hash(f->lm.bytes, f->lm.len), s->name,
                            (uint32_t)(patched ? f->pe.planned : f->plan.res.arena_bytes), (uint32_t)f->fw.fw.head_align,
                            (uint32_t)(patched ? f->pe.n : f->plan.mp.n), patched ? f->pe.entries : f->plan.entries,
                            f->fw.consts, (uint32_t)f->fw.consts_bytes, f->plan.applied, f->fw.init,
                            (uint32_t)f->fw.init_bytes, ta_align_rule_code(a->rule)};
    ta_runtime_options opt = ta_runtime_options_default();
    ta_runtime_use_budget(&opt, &f->budget);
    if (a->consts_arena) {
        ta_runtime_use_consts(&opt, NULL, 0);
        ta_runtime_use_init(&opt, NULL, 0);
    }
    f->need = a->consts_arena ? f->fw.in_arena.total_in_place : f->fw.fw.total_in_place;
    if (ta_runtime_open(rt, f->lm.bytes, f->lm.len, &opt, &d)) return cli_error("%s: %s", a->model, d.msg);
    /* exactly N bytes at an address that is A mod 2A, A the header's
     * alignment (what `static _Alignas(A)` firmware would give), and no more */
    const uintptr_t A = f->budget.align ? f->budget.align : 16;
    f->n = (size_t)a->arena;
    f->block = cli_xmalloc(f->n + 2 * FW_CANARY + 4 * A);
    uintptr_t at = ((uintptr_t)f->block + FW_CANARY + 2 * A - 1) & ~(uintptr_t)(2 * A - 1);
    f->arena = (unsigned char *)(at + A);
    memset(f->arena - FW_CANARY, FW_CANARY_BYTE, FW_CANARY);
    memset(f->arena + f->n, FW_CANARY_BYTE, FW_CANARY);
    ta_arena_breakdown qb;
    if (!a->consts_arena) ta_runtime_query(rt, NULL, 0, &qb, &d); /* no work: the lower bound for the report */
    ta_status st = ta_runtime_init(rt, NULL, 0, f->arena, f->n, &d);
    if (!fw_canaries_ok(f)) return cli_error("%s: init wrote outside the %zu-byte arena", a->model, f->n);
    if (st == TA_E_NO_MEMORY) return cli_error("%s: arena needs %zu bytes, has %zu", a->model, f->need, f->n);
    if (st) return cli_error("%s: %s", a->model, d.msg);
    return CLI_OK;
}

static int do_run(const run_args *a) {
    if (a->fw) {
        /* firmware's path: everything below runs on the runtime fw_setup made */
        const char *strategy = a->strategy ? a->strategy : "optimal";
        fw_run *f = cli_xcalloc(1, sizeof *f);
        ta_runtime *rt = cli_xcalloc(1, sizeof *rt);
        int rc = fw_setup(a, strategy, f, rt);
        if (rc == CLI_OK) rc = run_ready(a, strategy, rt, f);
        fw_run_free(f);
        free(f);
        free(rt);
        return rc;
    }
    size_t len;
    const char *why;
    unsigned char *model = cli_read_file_max(a->model, CLI_MAX_FILE_BYTES, &len, &why);
    if (!model) return cli_error("%s: cannot read: %s", a->model, why);
    ta_runtime_options opt = ta_runtime_options_default();
    const char *strategy = a->strategy ? a->strategy : "greedy";
    if (ta_runtime_use_strategy(&opt, strategy)) {
        free(model);
        return cli_error("unknown strategy '%s' (see tinyarena plan --help)", strategy);
    }
    opt.scratch = a->shared ? TA_SCRATCH_SHARED : TA_SCRATCH_PLANNED;
    opt.poison = a->poison;
    opt.max_iterations = (uint32_t)a->max_iter;
    opt.rewrites = a->rewrites;
    opt.align_rule = a->rule;
    opt.patch_overhead = (uint32_t)a->patch;
    char rwn[96];
    ta_rewrite_names(a->rewrites, rwn, sizeof rwn);
    ta_runtime rt;
    ta_diag d;
    ta_status st = ta_runtime_open(&rt, model, len, &opt, &d);
    if (st) {
        free(model);
        return cli_error("%s: %s", a->model, d.msg);
    }
    size_t wb;
    void *work;
    ta_arena_breakdown b;
    st = cli_runtime_query(&rt, &work, &wb, &b, &d);
    if (st) {
        free(model);
        return cli_error("%s: %s", a->model, d.msg);
    }
    void *arena = cli_xmalloc(b.total);
    st = ta_runtime_init(&rt, work, wb, arena, b.total, &d);
    free(work); /* transient: the runtime keeps nothing in it */
    int rc = st ? cli_error("%s: %s", a->model, d.msg) : run_ready(a, strategy, &rt, NULL);
    free(arena);
    free(model);
    return rc;
}

/* Inputs in, N timed invokes, outputs out, the report: on an initialised
 * runtime (f: the firmware run of --arena, or NULL). */
static int run_ready(const run_args *a, const char *strategy, ta_runtime *rt, const struct fw_run_s *fwr) {
    ta_diag d;
    ta_status st;
    const ta_arena_breakdown b = *ta_runtime_breakdown(rt);
    char rwn[96];
    ta_rewrite_names(a->rewrites, rwn, sizeof rwn);
    uint32_t n_in = ta_runtime_input_count(rt), n_out = ta_runtime_output_count(rt);
    if ((uint32_t)a->n_inputs > n_in) {
        return cli_error("%d --input files given, the model has %u inputs", a->n_inputs, n_in);
    }
    for (uint32_t k = 0; k < n_in; k++) {
        const ta_io *in = ta_runtime_input(rt, k);
        if (in->bytes) memset(in->data, 0, in->bytes); /* a zero-size input may have no data pointer */
        if ((int)k >= a->n_inputs) continue;
        size_t il;
        const char *why = NULL;
        unsigned char *raw = cli_read_file_max(a->inputs[k], CLI_MAX_FILE_BYTES, &il, &why);
        if (!raw || il != in->bytes) {
            int rc = raw ? cli_error("%s: input %u needs exactly %zu bytes (%s), file has %zu", a->inputs[k], k,
                                     in->bytes, ta_dtype_str(in->dtype), il)
                         : cli_error("%s: cannot read: %s", a->inputs[k], why);
            free(raw);
            return rc;
        }
        if (il) memcpy(in->data, raw, il);
        free(raw);
    }
    /* inputs are kept aside so every timed run starts from the same bytes */
    unsigned char **saved = cli_xcalloc(n_in ? n_in : 1, sizeof *saved);
    for (uint32_t k = 0; k < n_in; k++) {
        const ta_io *in = ta_runtime_input(rt, k);
        saved[k] = cli_xmalloc(in->bytes ? in->bytes : 1);
        if (in->bytes) memcpy(saved[k], in->data, in->bytes);
    }
    uint64_t runs = a->runs ? a->runs : 5;
    uint64_t *times = cli_xcalloc(runs, sizeof *times);
    int rc = CLI_OK;
    for (uint64_t r = 0; r < runs; r++) {
        for (uint32_t k = 0; k < n_in; k++)
            if (ta_runtime_input(rt, k)->bytes) memcpy(ta_runtime_input(rt, k)->data, saved[k], ta_runtime_input(rt, k)->bytes);
        ta_runtime_reset(rt, &d); /* stateful ops (LSTM, SVDF) start every run from their initial state */
        uint64_t t0 = cli_now_us();
        st = ta_runtime_invoke(rt, &d);
        times[r] = cli_now_us() - t0;
        if (st) {
            rc = cli_error("%s: %s", a->model, d.msg);
            runs = r;
            break;
        }
    }
    if (rc == CLI_OK && fwr && !fw_canaries_ok(fwr)) rc = cli_error("%s: the runs wrote outside the %zu-byte arena", a->model, fwr->n);
    qsort(times, runs, sizeof *times, cmp_u64);
    double median_ms = runs ? (runs % 2 ? (double)times[runs / 2] : ((double)times[runs / 2 - 1] + (double)times[runs / 2]) / 2.0) / 1000.0 : 0.0;
    if (rc == CLI_OK && a->outputs_dir) {
        for (uint32_t k = 0; k < n_out; k++) {
            const ta_io *o = ta_runtime_output(rt, k);
            char path[4096];
            snprintf(path, sizeof path, "%s/output%u.bin", a->outputs_dir, k);
            FILE *f = fopen(path, "wb");
            if (!f || (o->bytes && fwrite(o->data, 1, o->bytes, f) != o->bytes)) rc = cli_error("%s: cannot write", path);
            if (f) fclose(f);
        }
    }
    const char *mode = a->shared ? "shared" : "planned";
    /* From an init table (--arena) the runtime imports no graph, so its
     * patch plan has no MACs to set the extra MACs against: they are the
     * host runtime's that made the header's stages (fw_make_patched), the
     * graph's MACs as the planner and bench_run count them. */
    ta_patch_plan pp = *ta_runtime_patch(rt);
    if (fwr && pp.n_stages && !pp.macs) pp.macs = fwr->pe.patch.macs;
    if (rc == CLI_OK && a->json) {
        printf("{\"model\": ");
        cli_json_str(stdout, a->model);
        printf(", \"strategy\": ");
        cli_json_str(stdout, strategy);
        char arn[32];
        printf(", \"scratch_mode\": \"%s\", \"poison\": %s, \"rewrites\": \"%s\", \"align_rule\": \"%s\",\n \"outputs\": [",
               mode, a->poison ? "true" : "false", rwn, ta_align_rule_str(a->rule, arn, sizeof arn));
        for (uint32_t k = 0; k < n_out; k++) {
            const ta_io *o = ta_runtime_output(rt, k);
            char shp[128];
            shape_str(o, shp, sizeof shp);
            size_t idx[5];
            int n = topk(o, idx, 5);
            printf("%s\n  {\"index\": %u, \"dtype\": \"%s\", \"shape\": \"%s\", \"bytes\": %zu, \"top5\": [", k ? "," : "", k,
                   ta_dtype_str(o->dtype), shp, o->bytes);
            for (int j = 0; j < n; j++) {
                double raw, v = out_value(o, idx[j], &raw);
                printf("%s{\"index\": %zu, \"value\": %.9g, \"raw\": %.9g}", j ? ", " : "", idx[j], v, raw);
            }
            printf("]}");
        }
        printf("],\n \"arena\": {\"planned\": %zu, \"scratch\": %zu, \"scratch_mode\": \"%s\", \"persistent\": %zu, "
               "\"variables\": %zu, \"alignment\": %zu, \"total\": %zu, \"lower_bound\": %zu, \"buffers\": %zu},\n",
               b.planned, b.scratch, mode, b.persistent, b.variables, b.alignment, b.total, b.lower_bound, b.n_buffers);
        if (fwr)
            printf(" \"firmware\": {\"arena_bytes\": %zu, \"arena_needs_bytes\": %zu, \"consts\": \"%s\", \"init_work_bytes\": %zu, "
                   "\"const_blob_bytes\": %zu, \"init_table_bytes\": %zu, \"canaries_intact\": true},\n",
                   fwr->n, fwr->need, a->consts_arena ? "arena" : "flash", b.work_bytes, fwr->fw.consts_bytes, fwr->fw.init_bytes);
        cli_patch_json(stdout, &pp);
        printf(",\n");
        printf(" \"invoke_ms_median\": %.3f, \"runs\": %llu}\n", median_ms, (unsigned long long)runs);
    } else if (rc == CLI_OK) {
        char arn[32];
        printf("model %s: %u input%s, %u output%s, strategy %s%s%s, alignment rule %s\n", a->model, n_in, n_in == 1 ? "" : "s",
               n_out, n_out == 1 ? "" : "s", strategy, a->rewrites ? ", rewrites " : "", a->rewrites ? rwn : "",
               ta_align_rule_str(a->rule, arn, sizeof arn));
        for (uint32_t k = 0; k < n_out; k++) {
            const ta_io *o = ta_runtime_output(rt, k);
            char shp[128];
            shape_str(o, shp, sizeof shp);
            size_t idx[5];
            int n = topk(o, idx, 5);
            printf("output %u (%s %s) top-%d:\n", k, ta_dtype_str(o->dtype), shp, n);
            for (int j = 0; j < n; j++) {
                double raw, v = out_value(o, idx[j], &raw);
                if (o->dtype == TA_DTYPE_FLOAT32) printf("  [%zu] %.6g\n", idx[j], v);
                else printf("  [%zu] %.6g (q %g)\n", idx[j], v, raw);
            }
        }
        char state[64] = "";
        if (b.variables) snprintf(state, sizeof state, " (of which variable state %zu B)", b.variables);
        printf("arena: planned %zu B (lower bound %zu), scratch %zu B (%s), persistent %zu B%s, alignment %zu B, total %zu B\n",
               b.planned, b.lower_bound, b.scratch, mode, b.persistent, state, b.alignment, b.total);
        if (fwr)
            printf("firmware arena: %zu B (needs %zu), op constants %s, init work block %zu B; nothing written outside\n",
                   fwr->n, fwr->need, a->consts_arena ? "in the arena" : "in a const blob outside it", b.work_bytes);
        cli_patch_text(stdout, &pp);
        printf("invoke: median %.3f ms over %llu run%s%s\n", median_ms, (unsigned long long)runs, runs == 1 ? "" : "s",
               a->poison ? " (poison mode: checks passed)" : "");
    }
    for (uint32_t k = 0; k < n_in; k++) free(saved[k]);
    free(saved);
    free(times);
    return rc;
}

int cmd_run(int argc, char **argv) {
    run_args a;
    memset(&a, 0, sizeof a);
    a.rewrites = TA_REWRITE_ALL; /* every rewrite by default; --rewrite none is TFLM's rules */
    a.patch = 10;
    bool patch_given = false; /* --patch-overhead; else none under --rewrite none (TFLM's rules exactly) */
    bool consts_given = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool has_val = i + 1 < argc;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            run_usage(stdout);
            return CLI_OK;
        }
        if ((!strcmp(arg, "--input") || !strcmp(arg, "--outputs") || !strcmp(arg, "--strategy") ||
             !strcmp(arg, "--scratch") || !strcmp(arg, "--runs") || !strcmp(arg, "--rewrite") ||
             !strcmp(arg, "--arena") || !strcmp(arg, "--consts") || !strcmp(arg, "--max-iterations") ||
             !strcmp(arg, "--patch-overhead")) &&
            !has_val) {
            cli_error("%s needs a value (see tinyarena run --help)", arg);
            return CLI_USAGE;
        }
        const int al = cli_align_arg(argc, argv, &i, &a.al);
        if (al < 0) return CLI_USAGE;
        if (al) continue;
        if (!strcmp(arg, "--input")) {
            if (a.n_inputs == MAX_INPUTS) {
                cli_error("at most %d --input files", MAX_INPUTS);
                return CLI_USAGE;
            }
            a.inputs[a.n_inputs++] = argv[++i];
        } else if (!strcmp(arg, "--outputs")) {
            a.outputs_dir = argv[++i];
        } else if (!strcmp(arg, "--strategy")) {
            a.strategy = argv[++i];
        } else if (!strcmp(arg, "--scratch")) {
            const char *m = argv[++i];
            if (!strcmp(m, "shared")) a.shared = true;
            else if (!strcmp(m, "planned")) a.shared = false;
            else {
                cli_error("--scratch %s: use planned or shared", m);
                return CLI_USAGE;
            }
        } else if (!strcmp(arg, "--runs")) {
            if (!cli_parse_u64(argv[++i], &a.runs) || !a.runs || a.runs > 100000) {
                cli_error("--runs %s: need a count from 1 to 100000", argv[i]);
                return CLI_USAGE;
            }
        } else if (!strcmp(arg, "--max-iterations")) {
            if (!cli_parse_u64(argv[++i], &a.max_iter) || !a.max_iter || a.max_iter > UINT32_MAX) {
                cli_error("--max-iterations %s: need a count from 1 to 4294967295", argv[i]);
                return CLI_USAGE;
            }
        } else if (!strcmp(arg, "--rewrite")) {
            ta_diag d;
            if (ta_rewrite_parse(argv[++i], &a.rewrites, &d)) {
                cli_error("--rewrite %s: %s", argv[i], d.msg);
                return CLI_USAGE;
            }
            a.al.tflm_rules = !strcmp(argv[i], "none"); /* TFLM's graph and rules: its alignment too */
        } else if (!strcmp(arg, "--patch-overhead")) {
            patch_given = true;
            if (!cli_parse_u64(argv[++i], &a.patch) || a.patch > 1000) {
                cli_error("--patch-overhead %s: need a percentage from 0 to 1000", argv[i]);
                return CLI_USAGE;
            }
        } else if (!strcmp(arg, "--arena")) {
            if (!cli_parse_u64(argv[++i], &a.arena) || a.arena > ((uint64_t)1 << 32)) {
                cli_error("--arena %s: need a byte count up to 4 GiB", argv[i]);
                return CLI_USAGE;
            }
            a.fw = true;
        } else if (!strcmp(arg, "--consts")) {
            const char *m = argv[++i];
            if (!strcmp(m, "arena")) a.consts_arena = true;
            else if (!strcmp(m, "flash")) a.consts_arena = false;
            else {
                cli_error("--consts %s: use flash or arena", m);
                return CLI_USAGE;
            }
            consts_given = true;
        } else if (!strcmp(arg, "--json")) {
            a.json = true;
        } else if (!strcmp(arg, "--poison")) {
            a.poison = true;
        } else if (arg[0] == '-') {
            cli_error("unknown option '%s' (see tinyarena run --help)", arg);
            return CLI_USAGE;
        } else if (!a.model) {
            a.model = arg;
        } else {
            cli_error("unexpected argument '%s'", arg);
            return CLI_USAGE;
        }
    }
    if (!a.rewrites && !patch_given) a.patch = 0;
    if (!a.model) {
        run_usage(stderr);
        return CLI_USAGE;
    }
    if (!cli_align_resolve(&a.al, &a.rule)) return CLI_USAGE;
    if (consts_given && !a.fw) {
        cli_error("--consts applies with --arena");
        return CLI_USAGE;
    }
    if (a.fw && (a.shared || a.poison)) {
        cli_error("--arena runs as firmware does: planned scratch, no poison (drop --scratch shared / --poison)");
        return CLI_USAGE;
    }
    return do_run(&a);
}
