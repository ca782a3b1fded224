/* tinyarena run: one model, one arena, TFLM-exact inference.
 *
 *   tinyarena run MODEL.tflite [--input IN.raw ...] [--outputs DIR]
 *                 [--strategy S] [--scratch planned|shared] [--poison]
 *                 [--runs N] [--json]
 *
 * Steps: read the model, open the runtime, query the arena breakdown
 * (growing the transient work block as asked), allocate the arena, init,
 * free the work block, copy the inputs in, invoke N times (timing each),
 * then print the top-5 of every output, the breakdown and the median time.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tinyarena/runtime.h"

#define MAX_INPUTS 16

typedef struct {
    const char *model, *outputs_dir, *strategy, *header;
    const char *inputs[MAX_INPUTS];
    int n_inputs;
    bool json, poison, shared;
    uint64_t runs;
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
            "  --runs N            timed invokes (default 5; the median is printed)\n"
            "  --json              print the same data as JSON\n"
            "  --header OUT.h      also write a budget-table header: the plan's offsets\n"
            "                      and the exact arena size, for firmware that links no\n"
            "                      planner (see examples/static_arena)\n");
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

/* Wraps the strategy's plan source to keep a copy of its offsets. */
typedef struct {
    ta_plan_fn inner;
    void *inner_ctx;
    uint32_t *offsets;
    size_t n, planned;
} capture_t;

static ta_status capture_plan(void *ctx, const ta_request *reqs, size_t n, void *work, size_t work_bytes,
                              size_t *work_need, size_t *offsets, size_t *arena_bytes, ta_diag *diag) {
    capture_t *c = (capture_t *)ctx;
    ta_status st = c->inner(c->inner_ctx, reqs, n, work, work_bytes, work_need, offsets, arena_bytes, diag);
    if (st || !offsets) return st;
    free(c->offsets);
    c->offsets = cli_xmalloc((n ? n : 1) * sizeof *c->offsets);
    for (size_t i = 0; i < n; i++) {
        if (offsets[i] > UINT32_MAX) return ta_diag_set(diag, TA_E_OVERFLOW, "offset above 4 GiB");
        c->offsets[i] = (uint32_t)offsets[i];
    }
    c->n = n;
    c->planned = *arena_bytes;
    return TA_OK;
}

/* Writes the budget header: with the captured plan as a table, query again
 * (no planner work) to get the in-place arena size firmware needs. */
static int write_header(const run_args *a, const unsigned char *model, size_t len, const ta_runtime_options *base,
                        const capture_t *cap, const char *strategy) {
    ta_plan_table table = {cap->offsets, cap->n, cap->planned};
    ta_runtime_options opt = *base;
    ta_runtime_use_table(&opt, &table);
    ta_runtime rt;
    ta_diag d;
    ta_arena_breakdown b;
    if (ta_runtime_open(&rt, model, len, &opt, &d)) return cli_error("%s: %s", a->model, d.msg);
    size_t wb = ta_runtime_work_bytes(&rt);
    void *work = cli_xmalloc(wb ? wb : 1);
    ta_status st;
    for (;;) {
        st = ta_runtime_query(&rt, work, wb, &b, &d);
        if (st != TA_E_NO_MEMORY || b.work_bytes <= wb) break;
        wb = b.work_bytes;
        free(work);
        work = cli_xmalloc(wb);
    }
    free(work);
    if (st) return cli_error("%s: %s", a->model, d.msg);
    FILE *f = fopen(a->header, "w");
    if (!f) return cli_error("%s: cannot write", a->header);
    const char *base_name = strrchr(a->model, '/');
    base_name = base_name ? base_name + 1 : a->model;
    fprintf(f, "/* Generated by `tinyarena run --header`: the arena budget for %s\n", base_name);
    fprintf(f, " * (strategy %s, scratch %s).  Pass &ta_budget_plan to ta_runtime_use_table():\n",
            strategy, base->scratch == TA_SCRATCH_SHARED ? "shared" : "planned");
    fprintf(f, " * no planner code is needed.  ta_runtime_init(work = NULL) initialises in\n"
               " * the arena's head, so TA_BUDGET_ARENA_BYTES is the whole memory budget. */\n");
    fprintf(f, "#ifndef TA_BUDGET_H\n#define TA_BUDGET_H\n#include <stdint.h>\n#include \"tinyarena/runtime.h\"\n\n");
    fprintf(f, "#define TA_BUDGET_MODEL_BYTES %zuu\n", len);
    fprintf(f, "#define TA_BUDGET_ARENA_BYTES %zuu /* in-place init: max(planned, work) + persistent + alignment */\n", b.total_in_place);
    fprintf(f, "#define TA_BUDGET_PLANNED_BYTES %zuu\n", b.planned);
    fprintf(f, "#define TA_BUDGET_PERSISTENT_BYTES %zuu\n", b.persistent);
    fprintf(f, "#define TA_BUDGET_SCRATCH_SHARED %d\n", base->scratch == TA_SCRATCH_SHARED);
    fprintf(f, "#define TA_BUDGET_BUFFERS %zuu\n\n", cap->n);
    fprintf(f, "static const uint32_t ta_budget_offsets[%zu] = {", cap->n ? cap->n : 1);
    for (size_t i = 0; i < cap->n; i++) fprintf(f, "%s%s%u", i ? "," : "", i % 12 ? " " : "\n    ", cap->offsets[i]);
    if (!cap->n) fprintf(f, "0");
    fprintf(f, "\n};\n\nstatic const ta_plan_table ta_budget_plan = {ta_budget_offsets, %zuu, %zuu};\n\n#endif\n", cap->n,
            cap->planned);
    if (fclose(f)) return cli_error("%s: cannot write", a->header);
    return CLI_OK;
}

static int do_run(const run_args *a) {
    size_t len;
    unsigned char *model = cli_read_file(a->model, &len);
    if (!model) return cli_error("%s: cannot read", a->model);
    ta_runtime_options opt = ta_runtime_options_default();
    const char *strategy = a->strategy ? a->strategy : "greedy";
    if (ta_runtime_use_strategy(&opt, strategy)) {
        free(model);
        return cli_error("unknown strategy '%s' (see tinyarena plan --help)", strategy);
    }
    opt.scratch = a->shared ? TA_SCRATCH_SHARED : TA_SCRATCH_PLANNED;
    opt.poison = a->poison;
    capture_t cap = {opt.planner, opt.planner_ctx, NULL, 0, 0};
    ta_runtime_options base = opt;
    base.poison = false;
    if (a->header) {
        opt.planner = capture_plan;
        opt.planner_ctx = &cap;
    }
    ta_runtime rt;
    ta_diag d;
    ta_status st = ta_runtime_open(&rt, model, len, &opt, &d);
    if (st) {
        free(model);
        return cli_error("%s: %s", a->model, d.msg);
    }
    size_t wb = ta_runtime_work_bytes(&rt);
    void *work = cli_xmalloc(wb ? wb : 1);
    ta_arena_breakdown b;
    for (int i = 0; i < 8; i++) {
        st = ta_runtime_query(&rt, work, wb, &b, &d);
        if (st != TA_E_NO_MEMORY || b.work_bytes <= wb) break;
        wb = b.work_bytes;
        free(work);
        work = cli_xmalloc(wb);
    }
    if (st) {
        free(work);
        free(model);
        return cli_error("%s: %s", a->model, d.msg);
    }
    if (a->header) {
        int hrc = write_header(a, model, len, &base, &cap, strategy);
        if (hrc) {
            free(cap.offsets);
            free(work);
            free(model);
            return hrc;
        }
    }
    void *arena = cli_xmalloc(b.total);
    st = ta_runtime_init(&rt, work, wb, arena, b.total, &d);
    free(work); /* transient: the runtime keeps nothing in it */
    free(cap.offsets);
    if (st) {
        free(arena);
        free(model);
        return cli_error("%s: %s", a->model, d.msg);
    }
    uint32_t n_in = ta_runtime_input_count(&rt), n_out = ta_runtime_output_count(&rt);
    if ((uint32_t)a->n_inputs > n_in) {
        free(arena);
        free(model);
        return cli_error("%d --input files given, the model has %u inputs", a->n_inputs, n_in);
    }
    for (uint32_t k = 0; k < n_in; k++) {
        const ta_io *in = ta_runtime_input(&rt, k);
        memset(in->data, 0, in->bytes);
        if ((int)k >= a->n_inputs) continue;
        size_t il;
        unsigned char *raw = cli_read_file(a->inputs[k], &il);
        if (!raw || il != in->bytes) {
            int rc = raw ? cli_error("%s: input %u needs exactly %zu bytes (%s), file has %zu", a->inputs[k], k,
                                     in->bytes, ta_dtype_str(in->dtype), il)
                         : cli_error("%s: cannot read", a->inputs[k]);
            free(raw);
            free(arena);
            free(model);
            return rc;
        }
        memcpy(in->data, raw, il);
        free(raw);
    }
    /* inputs are kept aside so every timed run starts from the same bytes */
    unsigned char **saved = cli_xcalloc(n_in ? n_in : 1, sizeof *saved);
    for (uint32_t k = 0; k < n_in; k++) {
        const ta_io *in = ta_runtime_input(&rt, k);
        saved[k] = cli_xmalloc(in->bytes ? in->bytes : 1);
        memcpy(saved[k], in->data, in->bytes);
    }
    uint64_t runs = a->runs ? a->runs : 5;
    uint64_t *times = cli_xcalloc(runs, sizeof *times);
    int rc = CLI_OK;
    for (uint64_t r = 0; r < runs; r++) {
        for (uint32_t k = 0; k < n_in; k++) memcpy(ta_runtime_input(&rt, k)->data, saved[k], ta_runtime_input(&rt, k)->bytes);
        uint64_t t0 = cli_now_us();
        st = ta_runtime_invoke(&rt, &d);
        times[r] = cli_now_us() - t0;
        if (st) {
            rc = cli_error("%s: %s", a->model, d.msg);
            runs = r;
            break;
        }
    }
    qsort(times, runs, sizeof *times, cmp_u64);
    double median_ms = runs ? (runs % 2 ? (double)times[runs / 2] : ((double)times[runs / 2 - 1] + (double)times[runs / 2]) / 2.0) / 1000.0 : 0.0;
    if (rc == CLI_OK && a->outputs_dir) {
        for (uint32_t k = 0; k < n_out; k++) {
            const ta_io *o = ta_runtime_output(&rt, k);
            char path[4096];
            snprintf(path, sizeof path, "%s/output%u.bin", a->outputs_dir, k);
            FILE *f = fopen(path, "wb");
            if (!f || fwrite(o->data, 1, o->bytes, f) != o->bytes) rc = cli_error("%s: cannot write", path);
            if (f) fclose(f);
        }
    }
    const char *mode = a->shared ? "shared" : "planned";
    if (rc == CLI_OK && a->json) {
        printf("{\"model\": ");
        cli_json_str(stdout, a->model);
        printf(", \"strategy\": ");
        cli_json_str(stdout, strategy);
        printf(", \"scratch_mode\": \"%s\", \"poison\": %s,\n \"outputs\": [", mode, a->poison ? "true" : "false");
        for (uint32_t k = 0; k < n_out; k++) {
            const ta_io *o = ta_runtime_output(&rt, k);
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
               "\"alignment\": %zu, \"total\": %zu, \"lower_bound\": %zu, \"buffers\": %zu},\n",
               b.planned, b.scratch, mode, b.persistent, b.alignment, b.total, b.lower_bound, b.n_buffers);
        printf(" \"invoke_ms_median\": %.3f, \"runs\": %llu}\n", median_ms, (unsigned long long)runs);
    } else if (rc == CLI_OK) {
        printf("model %s: %u input%s, %u output%s, strategy %s\n", a->model, n_in, n_in == 1 ? "" : "s", n_out,
               n_out == 1 ? "" : "s", strategy);
        for (uint32_t k = 0; k < n_out; k++) {
            const ta_io *o = ta_runtime_output(&rt, k);
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
        printf("arena: planned %zu B (lower bound %zu), scratch %zu B (%s), persistent %zu B, alignment %zu B, total %zu B\n",
               b.planned, b.lower_bound, b.scratch, mode, b.persistent, b.alignment, b.total);
        printf("invoke: median %.3f ms over %llu run%s%s\n", median_ms, (unsigned long long)runs, runs == 1 ? "" : "s",
               a->poison ? " (poison mode: checks passed)" : "");
    }
    for (uint32_t k = 0; k < n_in; k++) free(saved[k]);
    free(saved);
    free(times);
    free(arena);
    free(model);
    return rc;
}

int cmd_run(int argc, char **argv) {
    run_args a;
    memset(&a, 0, sizeof a);
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool has_val = i + 1 < argc;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            run_usage(stdout);
            return CLI_OK;
        }
        if ((!strcmp(arg, "--input") || !strcmp(arg, "--outputs") || !strcmp(arg, "--strategy") || !strcmp(arg, "--header") ||
             !strcmp(arg, "--scratch") || !strcmp(arg, "--runs")) &&
            !has_val) {
            cli_error("%s needs a value (see tinyarena run --help)", arg);
            return CLI_USAGE;
        }
        if (!strcmp(arg, "--input")) {
            if (a.n_inputs == MAX_INPUTS) {
                cli_error("at most %d --input files", MAX_INPUTS);
                return CLI_USAGE;
            }
            a.inputs[a.n_inputs++] = argv[++i];
        } else if (!strcmp(arg, "--header")) {
            a.header = argv[++i];
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
    if (!a.model) {
        run_usage(stderr);
        return CLI_USAGE;
    }
    return do_run(&a);
}
