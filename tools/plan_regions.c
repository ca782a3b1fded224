/* `tinyarena plan --region`: planning across memory regions (regions.h) --
 * parsing the regions, the weights from the graph, the table, JSON, one SVG
 * map per region and the budget header's region block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "emit_header.h"
#include "emit_svg.h"
#include "firmware.h"
#include "plan_regions.h"
#include "viz.h"

int cli_regions_arg(int argc, char **argv, int *i, cli_regions *r) {
    const char *arg = argv[*i];
    const bool reg = !strcmp(arg, "--region"), per = !strcmp(arg, "--persistent-region");
    if (!reg && !per) return 0;
    if (*i + 1 >= argc) {
        cli_error("%s needs a value (see tinyarena plan --help)", arg);
        return -1;
    }
    const char *v = argv[++*i];
    if (per) {
        r->persistent = v;
        return 1;
    }
    if (r->n == TA_MAX_REGIONS) {
        cli_error("--region %s: at most %u regions", v, TA_MAX_REGIONS);
        return -1;
    }
    r->spec[r->n++] = v;
    return 1;
}

/* One parsed region: NAME:BYTES[:COST] (BYTES may end in K or M: KiB, MiB). */
typedef struct {
    ta_region reg[TA_MAX_REGIONS];
    char names[TA_MAX_REGIONS][32];
    const char *name_ptr[TA_MAX_REGIONS];
    size_t n;
    uint32_t persistent;
} regions_set;

static bool parse_regions(const cli_regions *c, regions_set *rs) {
    memset(rs, 0, sizeof *rs);
    for (size_t k = 0; k < c->n; k++) {
        const char *s = c->spec[k], *c1 = strchr(s, ':');
        if (!c1 || c1 == s || (size_t)(c1 - s) >= sizeof rs->names[k]) {
            cli_error("--region %s: need NAME:BYTES[:COST] (a name of 1 to 31 characters)", s);
            return false;
        }
        memcpy(rs->names[k], s, (size_t)(c1 - s));
        for (size_t j = 0; j < k; j++)
            if (!strcmp(rs->names[j], rs->names[k])) {
                cli_error("--region %s: region '%s' given twice", s, rs->names[k]);
                return false;
            }
        char num[32];
        const char *c2 = strchr(c1 + 1, ':');
        size_t nl = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
        if (!nl || nl >= sizeof num) {
            cli_error("--region %s: BYTES missing", s);
            return false;
        }
        memcpy(num, c1 + 1, nl);
        num[nl] = 0;
        uint64_t mul = 1, bytes, cost = k;
        if (num[nl - 1] == 'K' || num[nl - 1] == 'k') mul = 1024, num[nl - 1] = 0;
        else if (num[nl - 1] == 'M' || num[nl - 1] == 'm') mul = 1024 * 1024, num[nl - 1] = 0;
        if (!cli_parse_u64(num, &bytes) || bytes > TA_PLAN_MAX_ARENA / mul) {
            cli_error("--region %s: BYTES must be a non-negative integer (K, M suffixes) up to 2^40", s);
            return false;
        }
        if (c2 && (!cli_parse_u64(c2 + 1, &cost) || cost > UINT32_MAX)) {
            cli_error("--region %s: COST must be a non-negative integer below 2^32", s);
            return false;
        }
        rs->name_ptr[k] = rs->names[k];
        rs->reg[k] = (ta_region){rs->names[k], (size_t)(bytes * mul), (uint32_t)cost};
    }
    rs->n = c->n;
    rs->persistent = (uint32_t)(c->n - 1);
    if (c->persistent) {
        size_t k = 0;
        while (k < c->n && strcmp(rs->names[k], c->persistent)) k++;
        if (k == c->n) {
            cli_error("--persistent-region %s: no --region of that name", c->persistent);
            return false;
        }
        rs->persistent = (uint32_t)k;
    }
    return true;
}

/* One plan across regions, with what the views print. */
typedef struct {
    ta_status st;
    ta_diag diag;
    uint32_t *reg;
    size_t *off;
    ta_region_result res;
    uint64_t time_us;
} regions_plan;

static regions_plan run_plan(const ta_strategy *s, const ta_request *reqs, size_t n, const ta_region_problem *p,
                             const ta_plan_options *opt) {
    regions_plan rp;
    memset(&rp, 0, sizeof rp);
    rp.reg = cli_xcalloc(n ? n : 1, sizeof *rp.reg);
    rp.off = cli_xcalloc(n ? n : 1, sizeof *rp.off);
    size_t need = 0;
    rp.st = ta_regions_scratch_bytes(s, reqs, n, p, opt, &need);
    if (rp.st) {
        ta_diag_set(&rp.diag, rp.st, "cannot size the scratch of %zu buffers", n);
        return rp;
    }
    void *scr = cli_xmalloc(need);
    uint64_t t0 = cli_now_us();
    rp.st = ta_regions_plan(s, reqs, n, p, opt, scr, need, rp.reg, rp.off, &rp.res, &rp.diag);
    rp.time_us = cli_now_us() - t0;
    free(scr);
    return rp;
}

static const char *assign_str(ta_proof p) {
    return p == TA_PROOF_OPTIMAL ? "proven optimal" : p == TA_PROOF_GAP ? "best found with gap" : "heuristic";
}

static void print_table(const regions_set *rs, const ta_region_problem *p, const regions_plan *rp, const ta_strategy *s,
                        const size_t *persistent) {
    char b1[32], b2[32], b3[32], b4[32];
    uint64_t tot = 0;
    for (size_t k = 0; k < rs->n; k++) tot += rp->res.accessed_bytes[k];
    printf("regions (%s per region; assignment %s, %.1f ms):\n", s->name, assign_str(rp->res.proof),
           (double)rp->time_us / 1000.0);
    printf("  %-12s %12s %12s %12s %8s %16s %7s %6s\n", "region", "capacity", "used", "lower bound", "buffers",
           "accessed bytes", "share", "cost");
    for (size_t k = 0; k < rs->n; k++) {
        printf("  %-12s %12s %12s %12s %8zu %16s %6.1f%% %6u%s\n", rs->names[k], fmt_bytes(rs->reg[k].capacity, b1),
               fmt_bytes(rp->res.used_bytes[k], b2), fmt_bytes(rp->res.lower_bound_bytes[k], b3), rp->res.n_buffers[k],
               fmt_bytes((size_t)rp->res.accessed_bytes[k], b4),
               tot ? 100.0 * (double)rp->res.accessed_bytes[k] / (double)tot : 0.0, p->regions[k].cost,
               persistent && k == rs->persistent ? "  + persistent part" : "");
    }
    printf("  weighted cost %llu (no assignment below %llu); one arena would need at least %s B\n",
           (unsigned long long)rp->res.cost, (unsigned long long)rp->res.cost_bound,
           fmt_bytes(rp->res.total_bound_bytes, b1));
    if (persistent)
        printf("  persistent part %s B in %s (room left there for planned buffers: %s B)\n", fmt_bytes(*persistent, b2),
               rs->names[rs->persistent], fmt_bytes(p->regions[rs->persistent].capacity, b3));
}

static void print_json(const regions_set *rs, const ta_region_problem *p, const regions_plan *rp,
                       const ta_strategy *s, const ta_request *reqs, size_t n, const char *const *ids, const char *extra,
                       const size_t *persistent) {
    size_t used = 0;
    for (size_t k = 0; k < rs->n; k++) used += rp->res.used_bytes[k];
    printf("{\"strategy\": ");
    cli_json_str(stdout, s->name);
    printf(", \"arena_bytes\": %zu, \"lower_bound_bytes\": %zu, \"time_us\": %llu, \"assignment_proof\": ", used,
           rp->res.total_bound_bytes, (unsigned long long)rp->time_us);
    cli_json_str(stdout, assign_str(rp->res.proof));
    printf(", \"weighted_cost\": %llu, \"weighted_cost_bound\": %llu, ", (unsigned long long)rp->res.cost,
           (unsigned long long)rp->res.cost_bound);
    if (extra) fputs(extra, stdout);
    printf("\"persistent_region\": ");
    cli_json_str(stdout, rs->names[rs->persistent]);
    if (persistent) printf(", \"persistent_bytes\": %zu", *persistent);
    printf(", \"regions\": [");
    for (size_t k = 0; k < rs->n; k++) {
        printf("%s{\"name\": ", k ? ", " : "");
        cli_json_str(stdout, rs->names[k]);
        printf(", \"capacity\": %zu, \"cost\": %u, \"used_bytes\": %zu, \"lower_bound_bytes\": %zu, \"accessed_bytes\": "
               "%llu, \"buffers\": %zu}",
               rs->reg[k].capacity, p->regions[k].cost, rp->res.used_bytes[k], rp->res.lower_bound_bytes[k],
               (unsigned long long)rp->res.accessed_bytes[k], rp->res.n_buffers[k]);
    }
    printf("], \"buffers\": [");
    for (size_t i = 0; i < n; i++) {
        printf("%s\n  {\"id\": ", i ? "," : "");
        if (ids) cli_json_str(stdout, ids[i]);
        else printf("\"%zu\"", i);
        printf(", \"size\": %zu, \"padded_size\": %zu, \"first\": %d, \"last\": %d, \"region\": ", reqs[i].size,
               ta_request_padded(&reqs[i]), reqs[i].first, reqs[i].last);
        cli_json_str(stdout, rs->names[rp->reg[i]]);
        printf(", \"offset\": %zu", rp->off[i]);
        if (p->weight) printf(", \"accessed_bytes\": %llu", (unsigned long long)p->weight[i]);
        if (reqs[i].align > 1) printf(", \"align\": %zu", reqs[i].align);
        if (reqs[i].fixed != TA_NO_OFFSET) printf(", \"fixed\": true");
        putchar('}');
    }
    printf("%s]}\n", n ? "\n" : "");
}

/* --svg F.svg: one map per region, F-NAME.svg (F.svg itself is not written). */
static int write_svgs(const char *path, const regions_set *rs, const regions_plan *rp, const ta_strategy *s,
                      const ta_request *reqs, size_t n, const char *const *ids, const char *title) {
    const char *dot = strrchr(path, '.');
    size_t stem = dot && strchr(dot, '/') == NULL ? (size_t)(dot - path) : strlen(path);
    int rc = CLI_OK;
    ta_request *sub = cli_xcalloc(n ? n : 1, sizeof *sub);
    const char **sid = cli_xcalloc(n ? n : 1, sizeof *sid);
    char **own = cli_xcalloc(n ? n : 1, sizeof *own);
    size_t *soff = cli_xcalloc(n ? n : 1, sizeof *soff);
    for (size_t k = 0; k < rs->n && !rc; k++) {
        size_t m = 0, naive = 0;
        for (size_t i = 0; i < n; i++)
            if (rp->reg[i] == k) {
                sub[m] = reqs[i];
                soff[m] = rp->off[i];
                if (ids) sid[m] = ids[i];
                else {
                    own[m] = cli_xmalloc(24);
                    snprintf(own[m], 24, "%zu", i);
                    sid[m] = own[m];
                }
                naive += ta_request_padded(&reqs[i]);
                m++;
            }
        plan_outcome o;
        memset(&o, 0, sizeof o);
        o.s = s;
        o.offsets = soff;
        o.res.arena_bytes = rp->res.used_bytes[k];
        o.res.lower_bound_bytes = rp->res.lower_bound_bytes[k];
        o.res.naive_bytes = naive;
        o.res.proven_bytes = o.res.lower_bound_bytes;
        char file[4096], name[256];
        snprintf(file, sizeof file, "%.*s-%s.svg", (int)stem, path, rs->names[k]);
        snprintf(name, sizeof name, "%s, region %s (capacity %zu B)", title, rs->names[k], rs->reg[k].capacity);
        viz_plan vp = viz_plan_of_buffers(sub, m, sid, &o, 1, 0, name);
        rc = emit_svg_file(file, &vp);
        if (!rc) printf("map of region %s: %s\n", rs->names[k], file);
        for (size_t j = 0; j < m; j++) free(own[j]), own[j] = NULL;
    }
    free(sub);
    free(sid);
    free(own);
    free(soff);
    return rc;
}

/* --offsets with --region: one row per buffer, its region and its offset
 * there (a virtual offset would mislead a reader). */
static int write_offsets(const char *path, const regions_set *rs, const regions_plan *rp, const ta_request *reqs,
                         size_t n, const char *const *ids) {
    FILE *f = fopen(path, "w");
    if (!f) return cli_error("%s: cannot write", path);
    fprintf(f, "id,size,first,last,region,offset\n");
    for (size_t i = 0; i < n; i++) {
        if (ids) fprintf(f, "%s,", ids[i]);
        else fprintf(f, "%zu,", i);
        fprintf(f, "%zu,%d,%d,%s,%zu\n", reqs[i].size, reqs[i].first, reqs[i].last, rs->names[rp->reg[i]], rp->off[i]);
    }
    return fclose(f) ? cli_error("%s: write failed", path) : CLI_OK;
}

static void free_plan(regions_plan *rp) {
    free(rp->reg);
    free(rp->off);
}

int plan_regions_buffers(const cli_regions *c, const char *path, const buffer_list *bl, const ta_strategy *s,
                         const ta_plan_options *opt) {
    regions_set rs;
    if (!parse_regions(c, &rs)) return CLI_USAGE;
    uint32_t *pin = NULL;
    if (bl->has_regions) {
        pin = cli_xcalloc(bl->n, sizeof *pin);
        for (size_t i = 0; i < bl->n; i++) {
            pin[i] = TA_REGION_ANY;
            if (!bl->regions[i]) continue;
            size_t k = 0;
            while (k < rs.n && strcmp(rs.names[k], bl->regions[i])) k++;
            if (k == rs.n) {
                free(pin);
                return cli_error("%s:%zu: buffer '%s': region '%s' is not one of the --region names", path,
                                 bl->lineno[i], bl->ids[i], bl->regions[i]);
            }
            pin[i] = (uint32_t)k;
        }
    }
    ta_region_problem p = {rs.reg, rs.n, pin, NULL};
    regions_plan rp = run_plan(s, bl->reqs, bl->n, &p, opt);
    int rc = CLI_OK;
    if (rp.st) {
        rc = cli_error("%s: %s", path, rp.diag.msg);
    } else {
        if (c->json) print_json(&rs, &p, &rp, s, bl->reqs, bl->n, (const char *const *)bl->ids, NULL, NULL);
        else {
            printf("%s: %zu buffers in %zu regions\n", path, bl->n, rs.n);
            print_table(&rs, &p, &rp, s, NULL);
        }
        if (c->svg_out) rc = write_svgs(c->svg_out, &rs, &rp, s, bl->reqs, bl->n, (const char *const *)bl->ids, path);
        if (!rc && c->offsets_out)
            rc = write_offsets(c->offsets_out, &rs, &rp, bl->reqs, bl->n, (const char *const *)bl->ids);
    }
    free_plan(&rp);
    free(pin);
    return rc;
}

/* The header's region block, inserted before its closing #endif: what each
 * region needs and the layout ta_runtime_use_regions takes. */
static int add_header_regions(const char *path, const regions_set *rs, const ta_region_layout *L, const size_t *need) {
    size_t len;
    unsigned char *text = cli_read_file(path, &len);
    if (!text) return cli_error("%s: cannot read back", path);
    size_t cut = len;
    while (cut >= 7 && memcmp(text + cut - 7, "#endif\n", 7)) cut--;
    if (cut < 7) {
        free(text);
        return cli_error("%s: no closing #endif", path);
    }
    cut -= 7;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char lo[256], up[256];
    size_t i = 0;
    for (; base[i] && base[i] != '.' && i + 1 < sizeof lo; i++) {
        char ch = base[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
        lo[i] = ok ? (char)(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch) : '_';
        up[i] = (char)(lo[i] >= 'a' && lo[i] <= 'z' ? lo[i] - 'a' + 'A' : lo[i]);
    }
    lo[i] = up[i] = 0;
    FILE *f = fopen(path, "w");
    if (!f) {
        free(text);
        return cli_error("%s: cannot write", path);
    }
    fwrite(text, 1, cut, f);
    fprintf(f, "/* Memory regions (plan --region): the offsets above are virtual, region k's\n"
               " * part from start[k]; firmware gives each region its own array of the\n"
               " * bytes below (any alignment) and runs ta_runtime_init_regions. */\n");
    fprintf(f, "#include \"tinyarena/runtime.h\"\n#define %s_REGIONS %zuu\n#define %s_PERSISTENT_REGION %uu\n", up, rs->n, up,
            L->persistent);
    for (size_t k = 0; k < rs->n; k++) {
        char un[32];
        size_t j = 0;
        for (; rs->names[k][j] && j + 1 < sizeof un; j++) {
            char ch = rs->names[k][j];
            bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
            un[j] = ok ? (char)(ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch) : '_';
        }
        un[j] = 0;
        fprintf(f, "#define %s_REGION_%s %zuu\n#define %s_REGION_%s_BYTES %zuu /* planned %zu%s */\n", up, un, k, up, un,
                need[k], L->bytes[k], k == L->persistent ? " + persistent + alignment" : " + alignment");
    }
    fprintf(f, "static const ta_region_layout %s_regions = {%zuu, %uu, {", lo, rs->n, L->persistent);
    for (size_t k = 0; k < rs->n; k++) fprintf(f, "%s%zuu", k ? ", " : "", L->start[k]);
    fprintf(f, "}, {");
    for (size_t k = 0; k < rs->n; k++) fprintf(f, "%s%zuu", k ? ", " : "", L->bytes[k]);
    fprintf(f, "}, {");
    for (size_t k = 0; k < rs->n; k++) fprintf(f, "%s\"%s\"", k ? ", " : "", rs->names[k]);
    fprintf(f, "}};\n\n#endif\n");
    free(text);
    return fclose(f) ? cli_error("%s: write failed", path) : CLI_OK;
}

int plan_regions_model(const cli_regions *c, const char *model_name, const loaded_model *lm, const model_plan *mp,
                       const ta_graph *g, const ta_strategy *s, const ta_plan_options *opt, bool runnable,
                       uint32_t applied, ta_align_rule rule) {
    regions_set rs;
    if (!parse_regions(c, &rs)) return CLI_USAGE;
    /* weights: the bytes each buffer's ops read and write */
    uint64_t *w = cli_xcalloc(mp->n ? mp->n : 1, sizeof *w), *tw = cli_xcalloc(g->n_tensors + 1u, sizeof *tw);
    ta_diag d;
    if (ta_lifetime_access_bytes(g, mp->origin, mp->reqs, mp->n, mp->buffer_of, mp->buffer_of ? g->n_tensors : 0, tw, w,
                                 &d)) {
        free(w);
        free(tw);
        return cli_error("%s: %s", model_name, d.msg);
    }
    free(tw);
    /* the persistent part takes its region's room first: what the runtime
     * needs beside the plan (from a first plan in one arena: it does not
     * depend on the offsets) -- with a header, with the op constants in flash */
    size_t persistent = 0, A = 1;
    bool have_p = false;
    fw_budget fw = {0};
    if (runnable) {
        const ta_strategy *nv = ta_strategy_find("naive");
        plan_outcome o1 = plan_report_run(nv, mp->reqs, mp->n, NULL);
        uint32_t *t1 = cli_xcalloc(mp->n ? mp->n : 1, sizeof *t1);
        for (size_t i = 0; !o1.st && i < mp->n; i++) t1[i] = (uint32_t)o1.offsets[i];
        ta_plan_table table = {t1, mp->n, o1.res.arena_bytes};
        if (!o1.st && fw_make(lm->bytes, lm->len, &table, applied, rule, &fw, &d)) {
            const ta_arena_breakdown *b = c->header_out ? &fw.fw : &fw.in_arena;
            persistent = b->persistent;
            A = b->head_align ? b->head_align : 1;
            have_p = true;
        }
        fw_free(&fw);
        free(t1);
        free(o1.offsets);
    }
    ta_region_problem p = {rs.reg, rs.n, NULL, w};
    ta_region eff[TA_MAX_REGIONS];
    memcpy(eff, rs.reg, sizeof eff);
    /* each region's memory aligns its start (A - 1 bytes), the persistent
     * region also holds the persistent part */
    for (size_t k = 0; k < rs.n; k++) {
        size_t take = (A - 1) + (have_p && k == rs.persistent ? persistent : 0);
        eff[k].capacity = eff[k].capacity > take ? eff[k].capacity - take : 0;
        eff[k].capacity &= ~(A - 1);
    }
    p.regions = eff;
    regions_plan rp = run_plan(s, mp->reqs, mp->n, &p, opt);
    int rc = CLI_OK;
    if (rp.st && have_p) {
        /* the core counts planned bytes; the runtime also needs the persistent part */
        rc = cli_error("%s: %s; plus the persistent part, %zu B, in %s", model_name, rp.diag.msg, persistent,
                       rs.names[rs.persistent]);
    } else if (rp.st) {
        rc = cli_error("%s: %s", model_name, rp.diag.msg);
    } else {
        if (c->json) {
            char extra[512];
            snprintf(extra, sizeof extra, "\"model\": \"%s\", \"ops\": %u, \"tensors\": %u, ", model_name, lm->g.n_ops,
                     lm->g.n_tensors);
            print_json(&rs, &p, &rp, s, mp->reqs, mp->n, mp->ids, extra, have_p ? &persistent : NULL);
        } else {
            printf("%s: %zu buffers in %zu regions (weights: bytes read and written by their ops)\n", model_name, mp->n,
                   rs.n);
            print_table(&rs, &p, &rp, s, have_p ? &persistent : NULL);
            if (c->verbose)
                for (size_t i = 0; i < mp->n; i++)
                    printf("  %-48s %-8s offset %10zu  %10zu B  accessed %llu\n", mp->ids[i], rs.names[rp.reg[i]],
                           rp.off[i], ta_request_padded(&mp->reqs[i]), (unsigned long long)w[i]);
        }
        if (c->svg_out) rc = write_svgs(c->svg_out, &rs, &rp, s, mp->reqs, mp->n, mp->ids, model_name);
        if (!rc && c->offsets_out) rc = write_offsets(c->offsets_out, &rs, &rp, mp->reqs, mp->n, mp->ids);
        if (!rc && c->header_out) {
            if (!runnable) {
                rc = cli_error("%s: --header with --region needs a model tinyarena's runtime runs", model_name);
            } else {
                ta_region_layout L;
                size_t *virt = cli_xcalloc(mp->n ? mp->n : 1, sizeof *virt);
                if (ta_region_layout_make(&L, (uint32_t)rs.n, rs.persistent, rp.res.used_bytes, rs.name_ptr, rp.reg,
                                          rp.off, mp->n, virt, &d)) {
                    rc = cli_error("%s: %s", model_name, d.msg);
                } else {
                    /* the budget header of the virtual plan, then its region block */
                    plan_outcome o;
                    memset(&o, 0, sizeof o);
                    o.s = s;
                    o.offsets = virt;
                    o.res.arena_bytes = L.start[rs.n - 1] + L.bytes[rs.n - 1];
                    o.res.lower_bound_bytes = rp.res.total_bound_bytes;
                    uint32_t *t = cli_xcalloc(mp->n ? mp->n : 1, sizeof *t);
                    for (size_t i = 0; i < mp->n; i++) t[i] = (uint32_t)virt[i];
                    ta_plan_table table = {t, mp->n, o.res.arena_bytes};
                    fw_budget fb = {0};
                    bool have = fw_make(lm->bytes, lm->len, &table, applied, rule, &fb, &d);
                    if (!have) rc = cli_error("%s: %s", model_name, d.msg);
                    else rc = emit_header(c->header_out, mp, &o, model_name, ta_budget_hash(lm->bytes, lm->len), lm->len,
                                          &fb, NULL, applied, rule);
                    if (!rc) {
                        size_t need[TA_MAX_REGIONS];
                        const size_t HA = fb.fw.head_align ? fb.fw.head_align : 1;
                        for (size_t k = 0; k < rs.n; k++) {
                            need[k] = ((L.bytes[k] + HA - 1) & ~(HA - 1)) + (HA - 1);
                            if (k == rs.persistent) need[k] += fb.fw.persistent;
                        }
                        rc = add_header_regions(c->header_out, &rs, &L, need);
                    }
                    fw_free(&fb);
                    free(t);
                }
                free(virt);
            }
        }
    }
    free_plan(&rp);
    free(w);
    return rc;
}
