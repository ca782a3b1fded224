#include "plan_report.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *fmt_bytes(size_t v, char *buf) {
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%zu", v), o = 0;
    for (int i = 0; i < n; i++) {
        if (i && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

plan_outcome plan_report_run(const ta_strategy *s, const ta_request *reqs, size_t n,
                             const ta_plan_options *opt) {
    plan_outcome o;
    memset(&o, 0, sizeof o);
    o.s = s;
    o.offsets = cli_xcalloc(n, sizeof(size_t));
    size_t need = 0;
    o.st = ta_plan_scratch_bytes(s, reqs, n, opt, &need);
    if (o.st) {
        ta_diag_set(&o.diag, o.st, "cannot size scratch");
        return o;
    }
    void *scratch = cli_xmalloc(need);
    uint64_t t0 = cli_now_us();
    o.st = ta_plan_run(s, reqs, n, opt, scratch, need, o.offsets, &o.res, &o.diag);
    o.time_us = cli_now_us() - t0;
    free(scratch);
    return o;
}

void plan_report_row(const plan_outcome *o, plan_row *row) {
    char b[32];
    memset(row, 0, sizeof *row);
    snprintf(row->time_us, sizeof row->time_us, "%llu", (unsigned long long)o->time_us);
    if (o->st) {
        snprintf(row->arena, sizeof row->arena, "-");
        snprintf(row->vs_naive, sizeof row->vs_naive, "-");
        snprintf(row->ratio, sizeof row->ratio, "-");
        snprintf(row->status, sizeof row->status, "failed: %s", o->diag.msg);
        return;
    }
    const ta_plan_result *r = &o->res;
    double save = r->naive_bytes ? 100.0 * (1.0 - (double)r->arena_bytes / (double)r->naive_bytes) : 0.0;
    double ratio = r->lower_bound_bytes ? (double)r->arena_bytes / (double)r->lower_bound_bytes : 1.0;
    const char *status = r->proof != TA_PROOF_NONE ? ta_proof_str(r->proof)
                         : r->arena_bytes == r->lower_bound_bytes ? "= bound"
                                                                  : "";
    fmt_bytes(r->arena_bytes, row->arena);
    snprintf(row->vs_naive, sizeof row->vs_naive, "%.1f%%", save);
    snprintf(row->ratio, sizeof row->ratio, "%.3f", ratio);
    if (r->proof == TA_PROOF_GAP || r->proof == TA_PROOF_TIMEOUT)
        snprintf(row->status, sizeof row->status, "%s (gap %s B)", status,
                 fmt_bytes(r->arena_bytes - r->proven_bytes, b));
    else
        snprintf(row->status, sizeof row->status, "%s", status);
}

void plan_report_table(FILE *f, const plan_outcome *o, size_t count) {
    fprintf(f, "%-10s %14s %9s %8s %10s  %s\n", "strategy", "arena_bytes", "vs_naive", "/bound",
            "time_us", "status");
    for (size_t i = 0; i < count; i++) {
        plan_row row;
        plan_report_row(&o[i], &row);
        fprintf(f, "%-10s %14s %9s %8s %10s  %s\n", o[i].s->name, row.arena, row.vs_naive, row.ratio, row.time_us,
                row.status);
    }
}

void plan_report_json(FILE *f, const plan_outcome *o, const ta_request *reqs, size_t n,
                      const char *const *ids, const char *extra) {
    const ta_plan_result *r = &o->res;
    bool optimal = r->proof == TA_PROOF_OPTIMAL || r->arena_bytes == r->lower_bound_bytes;
    size_t proven = r->proven_bytes > r->lower_bound_bytes ? r->proven_bytes : r->lower_bound_bytes;
    fprintf(f, "{\"strategy\": ");
    cli_json_str(f, o->s->name);
    fprintf(f,
            ", \"arena_bytes\": %zu, \"lower_bound_bytes\": %zu, \"time_us\": %llu, \"optimal\": %s, "
            "\"gap_bytes\": %zu, \"proof\": ",
            r->arena_bytes, r->lower_bound_bytes, (unsigned long long)o->time_us, optimal ? "true" : "false",
            optimal ? 0 : r->arena_bytes - proven);
    cli_json_str(f, optimal && r->proof == TA_PROOF_NONE ? "lower bound reached" : ta_proof_str(r->proof));
    fprintf(f, ", \"naive_bytes\": %zu, \"peak_step\": %d, ", r->naive_bytes, r->peak_step);
    if (extra) fputs(extra, f);
    fprintf(f, "\"buffers\": [");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n  {\"id\": ", i ? "," : "");
        if (ids) cli_json_str(f, ids[i]);
        else fprintf(f, "\"%zu\"", i);
        /* size: the bytes asked for (the tensor's or the CSV's), unpadded;
         * padded_size: what the buffer occupies in the arena, rounded up to
         * its alignment -- the unit of arena_bytes and lower_bound_bytes */
        fprintf(f, ", \"size\": %zu, \"padded_size\": %zu, \"first\": %d, \"last\": %d, \"offset\": %zu",
                reqs[i].size, ta_request_padded(&reqs[i]), reqs[i].first, reqs[i].last, o->offsets[i]);
        if (reqs[i].align > 1) fprintf(f, ", \"align\": %zu", reqs[i].align);
        if (reqs[i].fixed != TA_NO_OFFSET) fprintf(f, ", \"fixed\": true");
        fputc('}', f);
    }
    fprintf(f, "%s]}\n", n ? "\n" : "");
}
