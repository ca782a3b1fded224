#include "buffers_csv.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

/* Splits a line in place on commas; trims spaces and a trailing \r. */
static int split_fields(char *line, char **fields, int max) {
    int n = 0;
    char *p = line;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        while (isspace((unsigned char)*p)) p++;
        char *e = p + strlen(p);
        while (e > p && isspace((unsigned char)e[-1])) *--e = '\0';
        if (n < max) fields[n] = p;
        n++;
        if (!comma) break;
        p = comma + 1;
    }
    return n;
}

static char *xstrdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = cli_xmalloc(n);
    memcpy(d, s, n);
    return d;
}

#define MAXCOLS 32

static const buffer_list *g_sort_bl; /* qsort has no context argument */
static int cmp_id(const void *a, const void *b) {
    return strcmp(g_sort_bl->ids[*(const size_t *)a], g_sort_bl->ids[*(const size_t *)b]);
}

/* Turns each relation's partner id into its row index: ids sorted once,
 * then a binary search per relation.  An unknown id, an id on several rows
 * or a buffer related to itself is an error naming the line. */
static bool resolve_overlaps(const char *path, buffer_list *bl, char **with, const size_t *row) {
    size_t *by = cli_xmalloc(bl->n * sizeof *by);
    for (size_t i = 0; i < bl->n; i++) by[i] = i;
    g_sort_bl = bl;
    qsort(by, bl->n, sizeof *by, cmp_id);
    bool ok = true;
    for (size_t k = 0; k < bl->n_overlaps && ok; k++) {
        size_t lo = 0, hi = bl->n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (strcmp(bl->ids[by[mid]], with[k]) < 0) lo = mid + 1;
            else hi = mid;
        }
        const char *y = bl->ids[row[k]];
        if (lo == bl->n || strcmp(bl->ids[by[lo]], with[k]))
            ok = !cli_error("%s:%zu: buffer '%s': overlap_with '%s' names no buffer", path, bl->lineno[row[k]], y,
                            with[k]);
        else if (lo + 1 < bl->n && !strcmp(bl->ids[by[lo + 1]], with[k]))
            ok = !cli_error("%s:%zu: buffer '%s': overlap_with '%s' names several rows (ids must be unique)", path,
                            bl->lineno[row[k]], y, with[k]);
        else if (by[lo] == row[k])
            ok = !cli_error("%s:%zu: buffer '%s': overlap_with names the buffer itself", path, bl->lineno[row[k]], y);
        else
            bl->overlaps[k].x = (uint32_t)by[lo];
    }
    free(by);
    return ok;
}

bool buffers_csv_read(const char *path, size_t min_align, buffer_list *out) {
    memset(out, 0, sizeof *out);
    out->col_offset = -1;
    size_t len = 0;
    const char *why;
    unsigned char *text = cli_read_file_max(path, CLI_MAX_FILE_BYTES, &len, &why);
    if (!text) {
        cli_error("%s: cannot read: %s", path, why);
        return false;
    }
    if (strlen((char *)text) != len) {
        cli_error("%s: contains a NUL byte; not a CSV file", path);
        free(text);
        return false;
    }
    size_t cap = 64, lineno = 0;
    out->reqs = cli_xmalloc(cap * sizeof *out->reqs);
    out->ids = cli_xmalloc(cap * sizeof *out->ids);
    out->lines = cli_xmalloc(cap * sizeof *out->lines);
    out->lineno = cli_xmalloc(cap * sizeof *out->lineno);
    out->regions = cli_xmalloc(cap * sizeof *out->regions);
    /* Two layouts, told apart by the header's column names:
     *   MiniMalloc: id,lower,upper,size[,alignment][,offset]   lifetime [lower, upper)
     *   TFLM:       id,size,first,last[,offline_offset]        lifetime [first, last]
     * Column order is free in both; an offset of -1 (or empty) means "not fixed". */
    int col[12] = {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}; /* id lower upper size alignment offset first last
                                                                overlap_with overlap_d overlap_kind region */
    static const char *const names[12] = {"id",   "lower",        "upper",     "size",        "alignment", "offset",
                                          "first", "last", "overlap_with", "overlap_d", "overlap_kind", "region"};
    /* relations: the partner's id per row, resolved once every id is known */
    char **rel_with = NULL;
    size_t *rel_row = NULL, rel_cap = 0;
    bool have_header = false, ok = true, inclusive = false;
    char *next = (char *)text, *end = (char *)text + len;
    while (next < end && ok) {
        char *line = next, *nl = memchr(line, '\n', (size_t)(end - line));
        if (nl) {
            *nl = '\0';
            next = nl + 1;
        } else {
            next = end;
        }
        lineno++;
        size_t ll = strlen(line);
        if (ll && line[ll - 1] == '\r') line[--ll] = '\0';
        char raw[4096];
        if (ll >= sizeof raw) {
            ok = !cli_error("%s:%zu: line longer than %zu characters", path, lineno, sizeof raw - 1);
            break;
        }
        memcpy(raw, line, ll + 1);
        char *p = line;
        while (isspace((unsigned char)*p)) p++;
        if (!*p || *p == '#') continue;
        char *f[MAXCOLS];
        int nf = split_fields(line, f, MAXCOLS);
        if (nf > MAXCOLS) {
            ok = !cli_error("%s:%zu: more than %d columns", path, lineno, MAXCOLS);
            break;
        }
        if (!have_header) {
            for (int i = 0; i < nf && ok; i++) {
                for (int k = 0; k < 12; k++) {
                    bool match = strcasecmp(f[i], names[k]) == 0 || (k == 4 && strcasecmp(f[i], "align") == 0) ||
                                 (k == 5 && strcasecmp(f[i], "offline_offset") == 0);
                    if (match) {
                        if (col[k] >= 0) {
                            ok = !cli_error("%s:%zu: column '%s' appears twice", path, lineno, names[k]);
                            break;
                        }
                        col[k] = i;
                    }
                }
            }
            bool mm = col[1] >= 0 || col[2] >= 0, tf = col[6] >= 0 || col[7] >= 0;
            if (ok && mm && tf)
                ok = !cli_error("%s:%zu: both lower/upper and first/last columns: give one lifetime format", path,
                                lineno);
            inclusive = tf;
            static const int need_mm[4] = {0, 1, 2, 3}, need_tf[4] = {0, 3, 6, 7};
            const int *need = inclusive ? need_tf : need_mm;
            for (int k = 0; k < 4 && ok; k++)
                if (col[need[k]] < 0)
                    ok = !cli_error("%s:%zu: missing column '%s' (need id,lower,upper,size or id,size,first,last)",
                                    path, lineno, names[need[k]]);
            if (inclusive) { /* [first, last] is parsed through the lower/upper slots */
                col[1] = col[6];
                col[2] = col[7];
            }
            if (ok && (col[8] >= 0) != (col[9] >= 0))
                ok = !cli_error("%s:%zu: overlap_with and overlap_d come together (one without the other)", path,
                                lineno);
            if (ok && col[10] >= 0 && col[8] < 0)
                ok = !cli_error("%s:%zu: overlap_kind without overlap_with", path, lineno);
            out->ncols = nf;
            out->col_offset = col[5];
            out->has_align = col[4] >= 0;
            out->header = xstrdup(raw);
            have_header = true;
            continue;
        }
        if (nf != out->ncols) {
            ok = !cli_error("%s:%zu: %d fields, header has %d", path, lineno, nf, out->ncols);
            break;
        }
        int64_t lower, upper, size, align = 1, offset = -1;
        int bad = 0; /* index into col/names of the field that failed */
        if (!cli_parse_i64(f[col[1]], &lower)) bad = 1;
        else if (!cli_parse_i64(f[col[2]], &upper)) bad = 2;
        else if (!cli_parse_i64(f[col[3]], &size)) bad = 3;
        else if (col[4] >= 0 && !cli_parse_i64(f[col[4]], &align)) bad = 4;
        else if (col[5] >= 0 && *f[col[5]] && !cli_parse_i64(f[col[5]], &offset)) bad = 5;
        if (bad) {
            const char *what = inclusive && bad <= 2 ? names[bad + 5] : names[bad];
            ok = !cli_error("%s:%zu: %s '%s' is not an integer (plain decimal: digits, optionally a leading '-')",
                            path, lineno, what, f[col[bad]]);
            break;
        }
        if (!*f[col[0]]) {
            ok = !cli_error("%s:%zu: empty id", path, lineno);
            break;
        }
        if (size < 0) {
            ok = !cli_error("%s:%zu: buffer '%s': negative size %lld", path, lineno, f[col[0]], (long long)size);
            break;
        }
        if (inclusive) {
            if (upper < lower) {
                ok = !cli_error("%s:%zu: buffer '%s': last %lld < first %lld (lifetimes are [first, last], inclusive)",
                                path, lineno, f[col[0]], (long long)upper, (long long)lower);
                break;
            }
            if (upper == INT64_MAX) {
                ok = !cli_error("%s:%zu: buffer '%s': lifetime out of the 32-bit step range", path, lineno, f[col[0]]);
                break;
            }
            upper += 1; /* to the half-open form the checks below use */
        }
        if (upper <= lower) {
            ok = !cli_error("%s:%zu: buffer '%s': upper %lld <= lower %lld (lifetimes are [lower, upper), half-open)",
                            path, lineno, f[col[0]], (long long)upper, (long long)lower);
            break;
        }
        if (lower < INT32_MIN || upper - 1 > INT32_MAX) {
            ok = !cli_error("%s:%zu: buffer '%s': lifetime out of the 32-bit step range", path, lineno, f[col[0]]);
            break;
        }
        if (align < 1 || (align & (align - 1))) {
            ok = !cli_error("%s:%zu: buffer '%s': alignment %lld is not a power of two", path, lineno, f[col[0]],
                            (long long)align);
            break;
        }
        if (size > (int64_t)TA_PLAN_MAX_ARENA) {
            ok = !cli_error("%s:%zu: buffer '%s': size %lld is above the 2^40-byte cap", path, lineno, f[col[0]],
                            (long long)size);
            break;
        }
        if (offset > (int64_t)TA_PLAN_MAX_ARENA || align > (int64_t)TA_PLAN_MAX_ARENA) {
            ok = !cli_error("%s:%zu: buffer '%s': %s %lld is above the 2^40-byte cap", path, lineno, f[col[0]],
                            offset > (int64_t)TA_PLAN_MAX_ARENA ? "offset" : "alignment",
                            (long long)(offset > (int64_t)TA_PLAN_MAX_ARENA ? offset : align));
            break;
        }
        if (out->n == TA_PLAN_MAX_BUFFERS) {
            ok = !cli_error("%s:%zu: more than %u buffers (the cap)", path, lineno, TA_PLAN_MAX_BUFFERS);
            break;
        }
        if (offset < -1) {
            ok = !cli_error("%s:%zu: buffer '%s': negative offset %lld", path, lineno, f[col[0]], (long long)offset);
            break;
        }
        if (out->n == cap) {
            cap *= 2;
            out->reqs = realloc(out->reqs, cap * sizeof *out->reqs);
            out->ids = realloc(out->ids, cap * sizeof *out->ids);
            out->lines = realloc(out->lines, cap * sizeof *out->lines);
            out->lineno = realloc(out->lineno, cap * sizeof *out->lineno);
            out->regions = realloc(out->regions, cap * sizeof *out->regions);
            if (!out->reqs || !out->ids || !out->lines || !out->lineno || !out->regions) {
                ok = !cli_error("out of memory");
                break;
            }
        }
        ta_request *r = &out->reqs[out->n];
        *r = ta_request_make((size_t)size, (int32_t)lower, (int32_t)(upper - 1));
        r->align = (size_t)align < min_align ? min_align : (size_t)align;
        if (offset >= 0) {
            r->fixed = (size_t)offset;
            if (r->fixed % r->align) {
                ok = !cli_error("%s:%zu: buffer '%s': fixed offset %lld is not a multiple of its alignment %zu",
                                path, lineno, f[col[0]], (long long)offset, r->align);
                break;
            }
        }
        if (col[8] >= 0 && *f[col[8]]) {
            int64_t dv;
            if (!cli_parse_i64(f[col[9]], &dv)) {
                ok = !cli_error("%s:%zu: buffer '%s': overlap_d '%s' is not an integer (plain decimal: digits, "
                                "optionally a leading '-')", path, lineno, f[col[0]], f[col[9]]);
                break;
            }
            if (dv > (int64_t)TA_PLAN_MAX_ARENA || dv < -(int64_t)TA_PLAN_MAX_ARENA) {
                ok = !cli_error("%s:%zu: buffer '%s': overlap_d %lld is beyond +-2^40", path, lineno, f[col[0]],
                                (long long)dv);
                break;
            }
            uint32_t kind = TA_OVERLAP_ABOVE;
            if (col[10] >= 0 && *f[col[10]]) {
                if (!strcasecmp(f[col[10]], "below")) kind = TA_OVERLAP_BELOW;
                else if (strcasecmp(f[col[10]], "above")) {
                    ok = !cli_error("%s:%zu: buffer '%s': overlap_kind '%s' is not 'above' or 'below'", path, lineno,
                                    f[col[0]], f[col[10]]);
                    break;
                }
            }
            if (out->n_overlaps == rel_cap) {
                rel_cap = rel_cap ? 2 * rel_cap : 16;
                out->overlaps = realloc(out->overlaps, rel_cap * sizeof *out->overlaps);
                rel_with = realloc(rel_with, rel_cap * sizeof *rel_with);
                rel_row = realloc(rel_row, rel_cap * sizeof *rel_row);
                if (!out->overlaps || !rel_with || !rel_row) {
                    ok = !cli_error("out of memory");
                    break;
                }
            }
            out->overlaps[out->n_overlaps] = (ta_overlap){0, (uint32_t)out->n, kind, dv};
            rel_with[out->n_overlaps] = xstrdup(f[col[8]]);
            rel_row[out->n_overlaps++] = out->n;
        } else if (col[8] >= 0 && *f[col[9]]) {
            ok = !cli_error("%s:%zu: buffer '%s': overlap_d without overlap_with", path, lineno, f[col[0]]);
            break;
        }
        out->ids[out->n] = xstrdup(f[col[0]]);
        /* a pinned buffer names its region (plan --region); empty: any */
        out->regions[out->n] = col[11] >= 0 && *f[col[11]] ? xstrdup(f[col[11]]) : NULL;
        out->has_regions |= out->regions[out->n] != NULL;
        out->lines[out->n] = xstrdup(raw);
        out->lineno[out->n] = lineno;
        out->n++;
    }
    if (ok && !have_header) ok = !cli_error("%s: empty file (no header row)", path);
    if (ok && out->n_overlaps) ok = resolve_overlaps(path, out, rel_with, rel_row);
    for (size_t i = 0; i < out->n_overlaps && rel_with; i++) free(rel_with[i]);
    free(rel_with);
    free(rel_row);
    free(text);
    if (!ok) buffers_csv_free(out);
    return ok;
}

bool buffers_csv_write_offsets(const char *path, const buffer_list *bl, const size_t *offsets) {
    FILE *f = fopen(path, "w");
    if (!f) return !cli_error("%s: cannot write", path) && false;
    if (bl->col_offset < 0) fprintf(f, "%s,offset\n", bl->header);
    else fprintf(f, "%s\n", bl->header);
    for (size_t i = 0; i < bl->n; i++) {
        if (bl->col_offset < 0) {
            fprintf(f, "%s,%zu\n", bl->lines[i], offsets[i]);
            continue;
        }
        char row[4096];
        snprintf(row, sizeof row, "%s", bl->lines[i]);
        char *fl[MAXCOLS];
        int nf = split_fields(row, fl, MAXCOLS);
        for (int k = 0; k < nf && k < MAXCOLS; k++) {
            if (k) fputc(',', f);
            if (k == bl->col_offset) fprintf(f, "%zu", offsets[i]);
            else fputs(fl[k], f);
        }
        fputc('\n', f);
    }
    bool ok = !ferror(f);
    if (fclose(f) != 0) ok = false;
    if (!ok) cli_error("%s: write failed", path);
    return ok;
}

bool buffers_csv_write(const char *path, const ta_request *reqs, size_t n, const char *const *ids,
                       const size_t *offsets) {
    FILE *f = fopen(path, "w");
    if (!f) return !cli_error("%s: cannot write", path) && false;
    bool any_fixed = false, any_align = false;
    for (size_t i = 0; i < n; i++) {
        any_fixed |= reqs[i].fixed != TA_NO_OFFSET;
        any_align |= reqs[i].align > 1;
    }
    fprintf(f, "id,lower,upper,size%s%s\n", any_align ? ",alignment" : "", any_fixed || offsets ? ",offset" : "");
    for (size_t i = 0; i < n; i++) {
        if (ids) fputs(ids[i], f);
        else fprintf(f, "%zu", i);
        fprintf(f, ",%d,%lld,%zu", reqs[i].first, (long long)reqs[i].last + 1, reqs[i].size);
        if (any_align) fprintf(f, ",%zu", reqs[i].align ? reqs[i].align : 1);
        if (offsets) fprintf(f, ",%zu", offsets[i]);
        else if (any_fixed) {
            if (reqs[i].fixed != TA_NO_OFFSET) fprintf(f, ",%zu", reqs[i].fixed);
            else fputs(",", f);
        }
        fputc('\n', f);
    }
    bool ok = !ferror(f);
    if (fclose(f) != 0) ok = false;
    if (!ok) cli_error("%s: write failed", path);
    return ok;
}

void buffers_csv_free(buffer_list *bl) {
    for (size_t i = 0; i < bl->n; i++) {
        free(bl->ids[i]);
        free(bl->lines[i]);
        if (bl->regions) free(bl->regions[i]);
    }
    free(bl->regions);
    free(bl->ids);
    free(bl->lines);
    free(bl->lineno);
    free(bl->reqs);
    free(bl->header);
    free(bl->overlaps);
    memset(bl, 0, sizeof *bl);
}
