/* The terminal timeline.
 *
 *  1. live bytes per step come from viz_time (a prefix sum over lifetimes);
 *  2. each row: step, op index, op type, live bytes, a bar of BAR cells
 *     where the lower bound fills all of them, and "peak" on rows that reach
 *     the bound;
 *  3. every column has a fixed width that adds up to 80, so the view fits
 *     an 80-column terminal over ssh; colour is only added around the same
 *     characters, so removing the escapes gives the plain view back. */
#define _POSIX_C_SOURCE 200809L
#include "timeline.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* 4 step + 1 + 4 op + 1 + 17 type + 1 + 11 bytes + 1 + | BAR | + 1 + 4 marker = 80 */
enum { TYPE_W = 17, BYTES_W = 11, BAR = 33 };

#define ESC_BOLD "\033[1m"
#define ESC_DIM "\033[2m"
#define ESC_BAR "\033[32m"
#define ESC_PEAK "\033[1;31m"
#define ESC_RESET "\033[0m"

static bool want_color(FILE *f, bool forced) {
    if (forced) return true;
    const char *no = getenv("NO_COLOR"), *term = getenv("TERM");
    if (no && *no) return false;
    if (term && !strcmp(term, "dumb")) return false;
    return isatty(fileno(f)) != 0;
}

/* Bytes right-aligned in BYTES_W columns: "1,234,567", or in MB when too wide. */
static void bytes_cell(size_t v, char *out, size_t len) {
    char b[32];
    fmt_bytes(v, b);
    if (strlen(b) <= BYTES_W) snprintf(out, len, "%s", b);
    else snprintf(out, len, "%.0fM", (double)v / 1e6);
}

void timeline_print(FILE *f, const viz_plan *vp, bool color) {
    if (!viz_drawable(vp, vp->chosen, "--timeline")) return;
    bool c = want_color(f, color);
    const plan_outcome *o = &vp->o[vp->chosen];
    size_t bound = o->res.lower_bound_bytes;
    viz_time vt;
    viz_time_build(vp, &vt);
    char b1[32], b2[32], title[TIMELINE_COLUMNS + 1];

    /* Heading: the model and plan (cut to the width), then the scale. */
    snprintf(title, sizeof title, "timeline, %s plan: arena %s B, lower bound %s B", o->s->name,
             fmt_bytes(o->res.arena_bytes, b1), fmt_bytes(bound, b2));
    fprintf(f, "\n%s%s%s\n", c ? ESC_BOLD : "", title, c ? ESC_RESET : "");
    char scale[BAR + 1];
    memset(scale, ' ', BAR);
    scale[BAR] = '\0';
    bytes_cell(bound, b1, sizeof b1);
    size_t bl = strlen(b1);
    scale[0] = '0';
    if (bl + 2 <= BAR) memcpy(scale + BAR - bl, b1, bl);
    fprintf(f, "%4s %4s %-*s %*s |%s|\n", "step", "op", TYPE_W, "type", BYTES_W, "live bytes", scale);

    for (int32_t s = vt.lo; s <= vt.hi; s++) {
        size_t live = vt.live[s - vt.lo];
        char op[16] = "-", type[64], cell[32], bar[BAR + 1];
        int32_t k = vt.op[s - vt.lo];
        const char *t = viz_step_type(vp, &vt, s);
        if (k >= 0) {
            const ta_op *p = &vp->mp->g->ops[k];
            snprintf(op, sizeof op, "%d", p->index);
            /* Nested subgraphs: say which one the op belongs to. */
            if (vp->mp->g->n_subgraphs > 1) snprintf(type, sizeof type, "sg%u:%s", p->subgraph, t);
            else snprintf(type, sizeof type, "%s", t);
        } else {
            snprintf(type, sizeof type, "%s", strcmp(t, "-") ? t : "");
        }
        bytes_cell(live, cell, sizeof cell);
        /* Cells filled: live / bound of the bar, rounded; anything live shows. */
        size_t fill = bound ? (size_t)(((double)live * BAR) / (double)bound + 0.5) : 0;
        if (live && !fill) fill = 1;
        bool over = fill > BAR;
        if (over) fill = BAR;
        memset(bar, '#', fill);
        memset(bar + fill, '.', BAR - fill);
        if (over) bar[BAR - 1] = '+';
        bar[BAR] = '\0';
        bool peak = bound && live >= bound;
        fprintf(f, "%4d %4s %-*.*s %*s |", s, op, TYPE_W, TYPE_W, type, BYTES_W, cell);
        if (c) {
            fprintf(f, "%s%.*s%s%s%s%s|", peak ? ESC_PEAK : ESC_BAR, (int)fill, bar, ESC_RESET, ESC_DIM, bar + fill,
                    ESC_RESET);
            fprintf(f, "%s\n", peak ? " " ESC_PEAK "peak" ESC_RESET : "");
        } else {
            fprintf(f, "%s|%s\n", bar, peak ? " peak" : "");
        }
    }
    viz_time_free(&vt);
}
