/* `tinyarena plan`: plan a buffer list (CSV) or a model. */
#include <stdlib.h>
#include <string.h>

#include "buffers_csv.h"
#include "cli.h"
#include "plan_report.h"

typedef struct {
    const char *buffers;     /* --buffers FILE.csv */
    const char *model;       /* positional MODEL.tflite */
    const char *strategy;    /* --strategy S */
    const char *offsets_out; /* --offsets OUT.csv */
    bool json;
    double time_limit;
    uint64_t align;
    uint32_t seed;
} plan_args;

static void plan_usage(FILE *f) {
    fprintf(f,
            "usage: tinyarena plan --buffers FILE.csv [options]\n"
            "       tinyarena plan MODEL.tflite [options]\n"
            "options:\n"
            "  --strategy S      one strategy (default: a table of all; --json uses 'best')\n"
            "  --align N         minimum alignment (power of two) for every buffer\n"
            "  --offsets OUT.csv write the input columns plus 'offset'\n"
            "  --json            print the plan as JSON\n"
            "  --time-limit SEC  search strategies' time limit (default 10)\n"
            "  --seed N          seed for randomised heuristics (default 0)\n"
            "strategies:");
    size_t count;
    const ta_strategy *const *all = ta_strategy_list(&count);
    for (size_t i = 0; i < count; i++) fprintf(f, "\n  %-10s %s", all[i]->name, all[i]->summary);
    fputc('\n', f);
}

static int plan_buffers(const plan_args *a) {
    buffer_list bl;
    if (!buffers_csv_read(a->buffers, a->align ? (size_t)a->align : 1, &bl)) return CLI_FAIL;
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.time_limit_s = a->time_limit;
    opt.clock = cli_clock;
    opt.seed = a->seed;
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
    /* Input problems (bad alignment, colliding fixed offsets) are reported
     * against the file, naming lines. */
    {
        size_t need = ta_plan_check_scratch_bytes(bl.n);
        void *scratch = cli_xmalloc(need);
        ta_diag d;
        ta_status st = ta_plan_requests_check(bl.reqs, bl.n, 0, scratch, need, NULL, &d);
        free(scratch);
        if (st) {
            int rc;
            if (d.item[0] != SIZE_MAX && d.item[1] != SIZE_MAX)
                rc = cli_error("%s:%zu: buffer '%s': %s with buffer '%s' (line %zu): %s", a->buffers,
                               bl.lineno[d.item[1]], bl.ids[d.item[1]], ta_status_str(st), bl.ids[d.item[0]],
                               bl.lineno[d.item[0]], d.msg);
            else
                rc = cli_error("%s: %s: %s", a->buffers, ta_status_str(st), d.msg);
            buffers_csv_free(&bl);
            return rc;
        }
    }
    int rc = CLI_OK;
    if (one) {
        plan_outcome o = plan_report_run(one, bl.reqs, bl.n, &opt);
        if (o.st) {
            rc = cli_error("%s: strategy %s: %s: %s", a->buffers, one->name, ta_status_str(o.st), o.diag.msg);
        } else {
            if (a->json) plan_report_json(stdout, &o, bl.reqs, bl.n, (const char *const *)bl.ids, NULL);
            else plan_report_table(stdout, &o, 1);
            if (a->offsets_out && !buffers_csv_write_offsets(a->offsets_out, &bl, o.offsets)) rc = CLI_FAIL;
        }
        free(o.offsets);
    } else {
        plan_outcome *o = cli_xcalloc(count, sizeof *o);
        for (size_t i = 0; i < count; i++) o[i] = plan_report_run(all[i], bl.reqs, bl.n, &opt);
        char b1[32], b2[32];
        size_t lb = 0, naive = 0;
        for (size_t i = 0; i < count; i++)
            if (!o[i].st) {
                lb = o[i].res.lower_bound_bytes;
                naive = o[i].res.naive_bytes;
            }
        printf("%s: %zu buffers, lower bound %s B, no reuse %s B\n", a->buffers, bl.n, fmt_bytes(lb, b1),
               fmt_bytes(naive, b2));
        plan_report_table(stdout, o, count);
        for (size_t i = 0; i < count; i++) {
            if (o[i].st) rc = CLI_FAIL;
            free(o[i].offsets);
        }
        free(o);
    }
    buffers_csv_free(&bl);
    return rc;
}

int cmd_plan(int argc, char **argv) {
    plan_args a;
    memset(&a, 0, sizeof a);
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
        } else if (!strcmp(arg, "--strategy")) {
            NEED_VAL();
            a.strategy = argv[++i];
        } else if (!strcmp(arg, "--offsets")) {
            NEED_VAL();
            a.offsets_out = argv[++i];
        } else if (!strcmp(arg, "--json")) {
            a.json = true;
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
    if (a.buffers) return plan_buffers(&a);
    if (a.model) return cli_error("%s: model planning is not built into this binary yet", a.model);
    plan_usage(stderr);
    return CLI_USAGE;
}
