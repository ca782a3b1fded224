/* The arena map as SVG.
 *
 * Drawing one plan:
 *  1. scale: the plot is 1000 px wide, or 5 px per step when that is
 *     wider (so 300+ steps keep room for labels), capped at 2400 px; bytes
 *     map linearly onto a fixed plot height, offset 0 at the bottom, the
 *     arena (or the bound, if higher) at the top;
 *  2. background: the arena's bytes shaded grey, so the holes a plan leaves
 *     show between the coloured buffers; grid lines at the ticks;
 *  3. the peak step as a band behind the buffers, and one transparent strip
 *     per step whose hover text names the op and its live bytes;
 *  4. one rectangle per buffer, coloured by kind, outlined when it is part
 *     of the peak, with its name inside only where it fits;
 *  5. the live bytes per step as a line, the lower bound and the arena as
 *     horizontal lines labelled in the right margin;
 *  6. axes: byte ticks at 1/2/5 steps, step ticks every N steps, op types
 *     rotated under the axis and thinned so no two overlap (the peak's op
 *     is always labelled).
 * Everything is in the file: no scripts, fonts or links. */
#include "emit_svg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "viz_patch.h"

/* Layout in px (SVG user units). */
enum {
    ML = 84,  /* left margin: byte labels */
    MR = 124, /* right margin: arena / bound labels */
    MT = 72,  /* top: title, stats, legend */
    PH = 480, /* plot height */
};
#define LABEL_GAP 10.5 /* px between two rotated op labels (9 px font) */
#define OP_CHARS 20    /* longest op label, in characters */
#define CHAR_W 5.6     /* average glyph width of the 9.5 px font */

const char emit_svg_css[] =
    ".arena-map .buf:hover{stroke:#000;stroke-width:2px}"
    ".arena-map .buf.hl{stroke:#d00;stroke-width:2.5px}"
    ".arena-map .step:hover{fill:#000;fill-opacity:.06}"
    ".arena-map text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif}";

static const char *kind_fill(viz_kind k, size_t i) {
    /* Neighbours in a chain have consecutive indices: three shades keep
     * touching activations apart even where strokes vanish at small scale. */
    static const char *const act[3] = {"#4e79a7", "#6d94c4", "#3b6590"};
    switch (k) {
    case VIZ_SCRATCH: return "#f28e2b";
    case VIZ_INPUT: return "#59a14f";
    case VIZ_OUTPUT: return "#e15759";
    default: return act[i % 3];
    }
}


/* The smallest 1, 2 or 5 times a power of ten that is >= raw. */
static double nice_step(double raw) {
    if (raw <= 1) return 1;
    double mag = pow(10, floor(log10(raw)));
    const double m[] = {1, 2, 5, 10};
    for (size_t i = 0; i < 4; i++)
        if (m[i] * mag >= raw) return m[i] * mag;
    return 10 * mag;
}

typedef struct {
    double x0, px, y0, bpx; /* x of step lo, px per step, y of offset 0, px per byte */
    double pw;              /* plot width */
    int32_t lo;
    double ymax;            /* bytes at the top of the plot */
} geom;

static double gx(const geom *g, int32_t step) { return g->x0 + (double)(step - g->lo) * g->px; }
static double gy(const geom *g, double bytes) { return g->y0 - bytes * g->bpx; }

static void buffer_title(FILE *f, const viz_plan *vp, const viz_time *vt, size_t i, size_t off) {
    const ta_request *r = &vp->reqs[i];
    char idb[32], shape[96], b1[32], b2[32], b3[32], l1[96], l2[96];
    size_t padded = ta_request_padded(r);
    fputs("<title>", f);
    viz_xml(f, viz_id(vp, i, idb, sizeof idb), 0);
    viz_buffer_shape(vp, i, shape, sizeof shape);
    fprintf(f, "\nbuffer %zu, %s%s%s%s\n%s B", i, viz_kind_name(viz_buffer_kind(vp, i)), *shape ? ", " : "", shape,
            r->fixed != TA_NO_OFFSET ? ", fixed offset" : "", fmt_bytes(r->size, b1));
    if (padded != r->size) fprintf(f, " (takes %s B with alignment)", fmt_bytes(padded, b2));
    viz_step_label(vp, vt, r->first, l1, sizeof l1);
    viz_step_label(vp, vt, r->last, l2, sizeof l2);
    fputs("\nlive at steps ", f);
    if (r->first == r->last) {
        fprintf(f, "%d (", r->first);
        viz_xml(f, l1, 0);
    } else {
        fprintf(f, "%d..%d (", r->first, r->last);
        viz_xml(f, l1, 0);
        fputs(" .. ", f);
        viz_xml(f, l2, 0);
    }
    fprintf(f, ")\noffset %s .. %s", fmt_bytes(off, b1), fmt_bytes(off + padded, b3));
    const int role = vp->patch ? vp->patch->role[i] : VIZ_STAGE_NONE;
    static const char *const roles[] = {"", "held whole: an input of", "held whole: the output of",
                                        "one band at a time: inside"};
    if (role) fprintf(f, "\n%s stage %d", roles[role], vp->patch->stage[i] + 1);
    fputs("</title>", f);
}

static void header(FILE *f, const viz_plan *vp, const viz_time *vt, const plan_outcome *o) {
    const ta_plan_result *r = &o->res;
    char b1[32], b2[32], b3[32], label[96];
    fprintf(f, "<text x=\"12\" y=\"20\" font-size=\"15\" font-weight=\"bold\">");
    viz_xml(f, vp->name, 90);
    if (vp->patch) { /* the firmware's plan: the runtime's, with the stages; the bound is in the margin */
        fprintf(f, " \xe2\x80\x94 %s, %u patch stage%s: firmware arena %s B, planned %s B", o->s->name,
                vp->patch->patch.n_stages, vp->patch->patch.n_stages == 1 ? "" : "s",
                fmt_bytes(vp->patch->firmware_arena, b2), fmt_bytes(r->arena_bytes, b1));
    } else {
        fprintf(f, " \xe2\x80\x94 %s: arena %s B", o->s->name, fmt_bytes(r->arena_bytes, b1));
        if (r->fixed_conflicts)
            fprintf(f, "; %zu pair%s of fixed offsets overlap on purpose (offline plan)", r->fixed_conflicts,
                    r->fixed_conflicts == 1 ? "" : "s");
        else if (r->arena_bytes == r->lower_bound_bytes) fputs(" = lower bound", f);
        else if (r->lower_bound_bytes)
            fprintf(f, ", %.3f \xc3\x97 lower bound (+%s B)", (double)r->arena_bytes / (double)r->lower_bound_bytes,
                    fmt_bytes(r->arena_bytes > r->lower_bound_bytes ? r->arena_bytes - r->lower_bound_bytes : 0, b2));
    }
    fputs("</text>\n", f);
    viz_step_label(vp, vt, r->peak_step, label, sizeof label);
    fprintf(f, "<text x=\"12\" y=\"38\" font-size=\"11\" fill=\"#444\">%zu buffers over steps %d..%d; lower bound %s B "
               "at step %d (",
            vp->n, vt->lo, vt->hi, fmt_bytes(r->lower_bound_bytes, b1), r->peak_step);
    viz_xml(f, label, 0);
    fprintf(f, "); no reuse %s B; arena %s B</text>\n", fmt_bytes(r->naive_bytes, b2), fmt_bytes(r->arena_bytes, b3));
}

/* The legend, on one line: the kinds that occur (with counts), then the
 * marks.  Items are listed once, so the width reserved for the legend and
 * the legend drawn agree. */
#define LEGEND_CHAR_W 6.1 /* generous average glyph width of the 10.5 px font */
enum { MARK_HOLE = VIZ_KIND_COUNT, MARK_PEAK, MARK_BOUND, MARK_ARENA, MARK_LIVE, MARK_STAGE, MARK_BAND, LEGEND_MAX };
typedef struct {
    int what; /* a viz_kind or a MARK_* */
    char text[48];
} legend_item;

static size_t legend_items(const viz_plan *vp, legend_item *it) {
    size_t count[VIZ_KIND_COUNT] = {0}, n = 0;
    for (size_t i = 0; i < vp->n; i++) count[viz_buffer_kind(vp, i)]++;
    for (int k = 0; k < VIZ_KIND_COUNT; k++)
        if (count[k]) {
            it[n].what = k;
            snprintf(it[n++].text, sizeof it->text, "%s (%zu)", viz_kind_name((viz_kind)k), count[k]);
        }
    static const char *const marks[] = {"free (hole)", "peak step", "lower bound", "arena", "live bytes",
                                        "patch stage", "a band's bytes"};
    for (int m = MARK_HOLE; m < (vp->patch ? LEGEND_MAX : MARK_STAGE); m++) {
        it[n].what = m;
        snprintf(it[n++].text, sizeof it->text, "%s", marks[m - MARK_HOLE]);
    }
    return n;
}

static double legend_advance(const legend_item *it) { return 18 + (double)strlen(it->text) * LEGEND_CHAR_W + 12; }

static double legend_width(const viz_plan *vp) {
    legend_item it[LEGEND_MAX];
    size_t n = legend_items(vp, it);
    double w = 12;
    for (size_t i = 0; i < n; i++) w += legend_advance(&it[i]);
    return w;
}

static void legend(FILE *f, const viz_plan *vp) {
    legend_item it[LEGEND_MAX];
    size_t n = legend_items(vp, it);
    double x = 12, y = 56;
    fputs("<g font-size=\"10.5\" fill=\"#222\">\n", f);
    for (size_t i = 0; i < n; i++) {
        switch (it[i].what) {
        case MARK_HOLE:
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"#ececec\" stroke=\"#bbb\" "
                       "stroke-width=\".5\"/>",
                    x, y - 9);
            break;
        case MARK_PEAK:
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"#ffc107\" fill-opacity=\".35\" "
                       "stroke=\"#b26a00\" stroke-dasharray=\"3 2\"/>",
                    x, y - 9);
            break;
        case MARK_BOUND:
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" stroke-width=\"1.5\" "
                       "stroke-dasharray=\"6 3\"/>",
                    x, y - 4, x + 14, y - 4);
            break;
        case MARK_ARENA:
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#222\" stroke-width=\"1.5\"/>", x,
                    y - 4, x + 14, y - 4);
            break;
        case MARK_STAGE:
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"#7b3fa0\" fill-opacity=\".08\" "
                       "stroke=\"#7b3fa0\" stroke-dasharray=\"3 2\"/>",
                    x, y - 9);
            break;
        case MARK_BAND:
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"#4e79a7\" fill-opacity=\".3\"/>"
                       "<rect x=\"%.1f\" y=\"%.1f\" width=\"4\" height=\"7\" fill=\"#7b3fa0\"/>"
                       "<rect x=\"%.1f\" y=\"%.1f\" width=\"4\" height=\"10\" fill=\"#7b3fa0\"/>",
                    x, y - 9, x + 2, y - 6, x + 8, y - 9);
            break;
        case MARK_LIVE:
            fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#111\" stroke-width=\"1.2\" "
                       "stroke-opacity=\".7\"/>",
                    x, y - 4, x + 14, y - 4);
            break;
        default:
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>", x, y - 9,
                    kind_fill((viz_kind)it[i].what, 0));
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", x + 18, y, it[i].text);
        x += legend_advance(&it[i]);
    }
    fputs("</g>\n", f);
}

/* Label of a horizontal line in the right margin: name, then value, just
 * under the line but never above `*min_y` (the end of the label before),
 * so the arena's and the bound's never overlap however close they are. */
static void line_label(FILE *f, double x, double y, double *min_y, const char *name, size_t bytes,
                       const char *color) {
    char b[32];
    double y1 = y + 11 > *min_y + 11 ? y + 11 : *min_y + 11;
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">%s</text>"
               "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\" font-weight=\"bold\">%s B</text>\n",
            x, y1, color, name, x, y1 + 11, color, fmt_bytes(bytes, b));
    *min_y = y1 + 14;
}

/* A buffer's label: the part of its name that tells it apart.  A last path
 * component shared by several buffers ("Relu6", "Sigmoid", "Add") names the
 * op, not the tensor, so then the component before it is used
 * ("Conv2d_13_pointwise", "tf.math.sigmoid_57"). */
typedef struct {
    const char *s;
    size_t len;
} span;

static span last_part(const char *id) {
    size_t end = strcspn(id, ";"), start = end;
    while (start > 0 && id[start - 1] != '/') start--;
    span sp = {id + start, end - start};
    return sp;
}

static int span_cmp(const void *a, const void *b) {
    const span *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, n);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* Sorted last components, to count how many buffers share one (O(n log n)). */
static span *sorted_parts(const viz_plan *vp) {
    span *p = cli_xcalloc(vp->n, sizeof *p);
    char idb[32];
    for (size_t i = 0; i < vp->n; i++) {
        p[i] = last_part(viz_id(vp, i, idb, sizeof idb));
        if (!vp->ids) p[i].len = 0; /* numeric ids: nothing to share */
    }
    qsort(p, vp->n, sizeof *p, span_cmp);
    return p;
}

static size_t shared_by(const span *sorted, size_t n, span key) {
    size_t lo = 0, hi = n;
    while (lo < hi) { /* first element >= key */
        size_t mid = lo + (hi - lo) / 2;
        if (span_cmp(&sorted[mid], &key) < 0) lo = mid + 1;
        else hi = mid;
    }
    size_t c = 0;
    while (lo + c < n && !span_cmp(&sorted[lo + c], &key)) c++;
    return c;
}

static void buffer_label(const char *id, const span *sorted, size_t n, char *buf, size_t len) {
    span last = last_part(id);
    span use = last;
    if (last.len && last.s > id && shared_by(sorted, n, last) >= 3) {
        const char *end = last.s - 1, *start = end; /* the component before the '/' */
        while (start > id && start[-1] != '/') start--;
        if (end > start) use = (span){start, (size_t)(end - start)};
    }
    if (!use.len) use = (span){id, strlen(id)};
    size_t k = use.len < len - 1 ? use.len : len - 1;
    memcpy(buf, use.s, k);
    buf[k] = '\0';
}

/* Writes label inside a box of `fit` characters by `lines` lines, centred
 * on (x, yc): wrapped at '_', '.', '/' or '-' when one is in the second half
 * of a line, else mid-word; the last line ends in an ellipsis when the
 * label does not fit. */
static void wrapped_text(FILE *f, const char *label, double x, double yc, size_t fit, size_t lines) {
    size_t starts[130], nc = 0; /* byte offset of each character, plus the end */
    for (const unsigned char *p = (const unsigned char *)label; *p && nc < 128;) {
        starts[nc++] = (size_t)(p - (const unsigned char *)label);
        p++;
        while ((*p & 0xc0) == 0x80) p++;
    }
    starts[nc] = strlen(label);
    if (nc > 128) nc = 128;
    size_t cut[64][2], nl = 0, c = 0;
    bool truncated = false;
    while (c < nc && nl < lines && nl < 64) {
        size_t take = nc - c <= fit ? nc - c : fit;
        if (nl + 1 == lines && nc - c > fit) {
            take = fit - 1;
            truncated = true;
        } else if (nc - c > fit) {
            for (size_t b = take; b > fit / 2; b--) {
                char ch = label[starts[c + b - 1]];
                if (ch == '_' || ch == '.' || ch == '/' || ch == '-') {
                    take = b;
                    break;
                }
            }
        }
        cut[nl][0] = c;
        cut[nl][1] = c + take;
        nl++;
        c += take;
    }
    fprintf(f, "<text x=\"%.2f\" y=\"%.2f\">", x, yc - 5.0 * (double)(nl - 1) + 3.2);
    char part[520];
    for (size_t l = 0; l < nl; l++) {
        size_t b0 = starts[cut[l][0]], b1 = starts[cut[l][1]], k = b1 - b0 < 500 ? b1 - b0 : 500;
        memcpy(part, label + b0, k);
        part[k] = '\0';
        if (l) fprintf(f, "<tspan x=\"%.2f\" dy=\"10\">", x);
        viz_xml(f, part, 0);
        if (truncated && l + 1 == nl) fputs("\xe2\x80\xa6", f);
        if (l) fputs("</tspan>", f);
    }
    fputs("</text>\n", f);
}

/* The stages' data on the <svg> element, for tests and scripts: the same
 * figures `plan --json` gives ("patch", runtime.firmware_arena_bytes). */
static void patch_attrs(FILE *f, const viz_patch *z) {
    const ta_patch_plan *p = &z->patch;
    fprintf(f, " data-patch-stages=\"%u\" data-firmware-arena=\"%zu\" data-patch-bytes-before=\"%zu\" "
               "data-patch-bytes-after=\"%zu\" data-patch-extra-macs=\"%llu\" data-patch-macs=\"%llu\" "
               "data-patch-first-op=\"%d\" data-patch-last-op=\"%d\" data-patch-grid=\"%dx1\" data-band-buffers=\"%zu\"",
            p->n_stages, z->firmware_arena, p->bytes_before, p->bytes_after, (unsigned long long)p->extra_macs,
            (unsigned long long)p->macs, p->n_stages ? p->stages[0].first_op : -1, p->n_stages ? p->stages[0].last_op : -1,
            p->n_stages ? p->stages[0].bands : 0, z->bands_drawn);
}

/* Steps of stage k's ops: [*s0, *s1]. */
static void stage_steps(const viz_plan *vp, const ta_patch_stage *st, int32_t *s0, int32_t *s1) {
    const ta_lifetimes *lt = &vp->mp->lt;
    const ta_subgraph *sg = &vp->mp->g->subgraphs[0];
    const uint32_t base = sg->op_base;
    *s0 = *s1 = -1;
    if (st->first_op < 0 || st->last_op < st->first_op || (uint32_t)st->last_op >= sg->n_ops) return;
    *s0 = lt->op_step[base + (uint32_t)st->first_op];
    *s1 = lt->op_step[base + (uint32_t)st->last_op];
}

/* Each stage as a dashed box over its ops' steps (under the buffers), or
 * (labels) its name at the box's top (over them). */
static void stage_boxes(FILE *f, const viz_plan *vp, const geom *g, bool labels) {
    const viz_patch *z = vp->patch;
    fputs("<g class=\"stages\" pointer-events=\"none\">\n", f);
    for (uint32_t k = 0; k < z->patch.n_stages; k++) {
        int32_t s0, s1;
        stage_steps(vp, &z->patch.stages[k], &s0, &s1);
        if (s0 < 0 || s1 < s0) continue;
        const double w = (double)(s1 - s0 + 1) * g->px;
        char label[48];
        /* the full label where the box has room for it, else the stage's
         * number; alternate rows keep neighbours' labels apart */
        int len = snprintf(label, sizeof label, "stage %u: %dx1", k + 1, z->patch.stages[k].bands);
        if ((double)len * CHAR_W + 4 > w) snprintf(label, sizeof label, "%u", k + 1);
        if (labels)
            fprintf(f, "<text x=\"%.2f\" y=\"%d\" font-size=\"9.5\" font-weight=\"bold\" fill=\"#7b3fa0\" stroke=\"#fff\" "
                       "stroke-width=\"2.5\" paint-order=\"stroke\">%s</text>\n",
                    gx(g, s0) + 2, MT + 10 + (int)(k % 2) * 10, label);
        else
            fprintf(f, "<rect class=\"stage\" data-stage=\"%u\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"#7b3fa0\" "
                       "fill-opacity=\".08\" stroke=\"#7b3fa0\" stroke-width=\"1.2\" stroke-dasharray=\"3 2\"/>\n",
                    k, gx(g, s0), MT, w, PH);
    }
    fputs("</g>\n", f);
}

/* A band buffer's bands: one column each, left to right in band order,
 * from the buffer's offset up to the bytes that band holds. */
static void band_columns(FILE *f, const viz_plan *vp, const geom *g, size_t i, size_t off) {
    const viz_patch *z = vp->patch;
    const ta_request *q = &vp->reqs[i];
    const int32_t bands = z->patch.stages[z->stage[i]].bands;
    const double bw = (double)(q->last - q->first + 1) * g->px / (double)bands;
    for (int32_t b = 0; b < bands; b++) {
        const size_t bytes = z->band_bytes[z->band_at[i] + (size_t)b];
        const double yb = gy(g, (double)off), h = (double)bytes * g->bpx < 1 ? 1 : (double)bytes * g->bpx;
        char b1[32];
        fprintf(f, "<rect class=\"band\" data-i=\"%zu\" data-band=\"%d\" data-bytes=\"%zu\" x=\"%.2f\" y=\"%.2f\" "
                   "width=\"%.2f\" height=\"%.2f\" fill=\"#7b3fa0\" fill-opacity=\".75\" stroke=\"#fff\" stroke-width=\".4\">"
                   "<title>band %d of %d: %s B</title></rect>\n",
                i, b, bytes, gx(g, q->first) + bw * b, yb - h, bw, h, b + 1, bands, fmt_bytes(bytes, b1));
    }
}

/* Under the axis title: one line per stage, then the totals. */
static double patch_lines_height(const viz_plan *vp) { return vp->patch ? 14.0 * (vp->patch->patch.n_stages + 1) + 4 : 0; }

static void patch_lines(FILE *f, const viz_plan *vp, double y) {
    const viz_patch *z = vp->patch;
    const ta_patch_plan *p = &z->patch;
    char text[160], b1[32], b2[32], b3[32];
    fputs("<g class=\"patch-lines\" font-size=\"10.5\" fill=\"#4a2466\">\n", f);
    for (uint32_t k = 0; k < p->n_stages; k++) {
        viz_patch_stage_text(z, k, text, sizeof text);
        fprintf(f, "<text x=\"12\" y=\"%.2f\">stage %u: ", y, k + 1);
        viz_xml(f, text, 0);
        fprintf(f, "; extra MACs %llu</text>\n", (unsigned long long)p->stages[k].extra_macs);
        y += 14;
    }
    fprintf(f, "<text x=\"12\" y=\"%.2f\">band by band: planned %s B layer by layer \xe2\x86\x92 %s B; extra MACs %llu of "
               "%llu (%.2f%%); firmware arena (_ARENA_BYTES) %s B</text>\n</g>\n",
            y, fmt_bytes(p->bytes_before, b1), fmt_bytes(p->bytes_after, b2), (unsigned long long)p->extra_macs,
            (unsigned long long)p->macs, p->macs ? 100.0 * (double)p->extra_macs / (double)p->macs : 0.0,
            fmt_bytes(z->firmware_arena, b3));
}

void emit_svg(FILE *f, const viz_plan *vp, const viz_time *vt, size_t k, bool standalone) {
    const plan_outcome *o = &vp->o[k];
    const ta_plan_result *r = &o->res;
    size_t steps = viz_steps(vt);
    bool ops = vp->mp != NULL;

    /* 1. scale */
    geom g;
    g.lo = vt->lo;
    g.px = 1000.0 / (double)steps;
    if (g.px < 5) g.px = 5;
    if (g.px * (double)steps > 2400) g.px = 2400.0 / (double)steps;
    g.pw = g.px * (double)steps;
    g.x0 = ML;
    g.y0 = MT + PH;
    size_t top = r->arena_bytes > vt->max_live ? r->arena_bytes : vt->max_live;
    g.ymax = top ? (double)top : 1;
    g.bpx = PH / g.ymax;
    /* Under the axis: step numbers, then op types (rotated), then the axis title. */
    double op_band = ops ? OP_CHARS * CHAR_W + 10 : 0;
    double mb = 18 + op_band + 26 + patch_lines_height(vp);
    double w = ML + g.pw + MR, h = MT + PH + mb;
    double legend_w = legend_width(vp);
    if (w < legend_w + 12) w = legend_w + 12;

    if (standalone) fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"arena-map\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Verdana, Arial, sans-serif\" data-strategy=\"%s\" "
            "data-arena=\"%zu\" data-lower-bound=\"%zu\" data-peak-step=\"%d\" data-buffers=\"%zu\" "
            "data-lo=\"%d\" data-hi=\"%d\" data-x0=\"%.9g\" data-step-px=\"%.9g\" data-y0=\"%.9g\" "
            "data-byte-px=\"%.9g\" data-fixed-conflicts=\"%zu\"",
            w, h, w, h, o->s->name, r->arena_bytes, r->lower_bound_bytes, r->peak_step, vp->n, vt->lo, vt->hi, g.x0,
            g.px, g.y0, g.bpx, r->fixed_conflicts);
    if (vp->patch) patch_attrs(f, vp->patch);
    fputs(">\n<title>", f);
    viz_xml(f, vp->name, 0);
    fprintf(f, ": %s plan</title>\n", o->s->name);
    if (standalone) fprintf(f, "<style>%s</style>\n", emit_svg_css);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#fff\"/>\n", w, h);
    header(f, vp, vt, o);
    legend(f, vp);

    /* 2. background and grid */
    fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#ececec\"/>\n", g.x0,
            gy(&g, (double)r->arena_bytes), g.pw, (double)r->arena_bytes * g.bpx);
    double ystep = nice_step(g.ymax / 6);
    size_t xstep = (size_t)nice_step(32 / g.px);
    fputs("<g stroke=\"#d0d0d0\" stroke-width=\".6\">\n", f);
    for (double v = ystep; v <= g.ymax + 0.5; v += ystep)
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", g.x0, gy(&g, v), g.x0 + g.pw, gy(&g, v));
    for (int32_t s = vt->lo; s <= vt->hi; s++)
        if (s % (int32_t)xstep == 0)
            fprintf(f, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.2f\"/>\n", gx(&g, s) + g.px / 2, MT,
                    gx(&g, s) + g.px / 2, g.y0);
    fputs("</g>\n", f);

    /* 3. peak band and per-step hover strips (under the buffers, so buffers keep their own titles) */
    int32_t peak = r->peak_step;
    if (peak >= vt->lo && peak <= vt->hi) {
        fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"#ffc107\" fill-opacity=\".35\"/>\n",
                gx(&g, peak), MT, g.px, PH);
        fprintf(f, "<text x=\"%.2f\" y=\"%d\" font-size=\"10\" font-weight=\"bold\" fill=\"#b26a00\" "
                   "text-anchor=\"middle\">peak</text>\n",
                gx(&g, peak) + g.px / 2, MT - 3);
    }
    fputs("<g class=\"steps\">\n", f);
    for (int32_t s = vt->lo; s <= vt->hi; s++) {
        char label[96], b1[32];
        size_t live = vt->live[s - vt->lo];
        viz_step_label(vp, vt, s, label, sizeof label);
        fprintf(f, "<rect class=\"step\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%.2f\" fill=\"#fff\" "
                   "fill-opacity=\"0\"><title>step %d: ",
                gx(&g, s), MT, g.px, PH + 18 + op_band, s);
        viz_xml(f, label, 0);
        fprintf(f, "\n%zu buffers live, %s B", vt->nlive[s - vt->lo], fmt_bytes(live, b1));
        if (r->lower_bound_bytes)
            fprintf(f, " (%.0f%% of the lower bound)", 100.0 * (double)live / (double)r->lower_bound_bytes);
        fputs("</title></rect>\n", f);
    }
    fputs("</g>\n", f);
    if (vp->patch) stage_boxes(f, vp, &g, false);

    /* 4. buffers */
    fputs("<g class=\"buffers\" stroke=\"#fff\" stroke-width=\".6\">\n", f);
    for (size_t i = 0; i < vp->n; i++) {
        const ta_request *q = &vp->reqs[i];
        size_t off = o->offsets[i], padded = ta_request_padded(q);
        viz_kind kind = viz_buffer_kind(vp, i);
        double x = gx(&g, q->first), bw = (double)(q->last - q->first + 1) * g.px;
        double yb = gy(&g, (double)off), yt = gy(&g, (double)(off + padded));
        if (yb - yt < 1) yt = yb - 1;
        bool at_peak = q->first <= peak && peak <= q->last && padded;
        char idb[32];
        static const char *const role_class[] = {"", " stage-in", " stage-out", " stage-band"};
        const int role = vp->patch ? vp->patch->role[i] : VIZ_STAGE_NONE;
        const bool bands = role == VIZ_STAGE_BAND && vp->patch->band_at[i] != SIZE_MAX;
        fprintf(f, "<rect class=\"buf %s%s%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"%s "
                   "data-i=\"%zu\" data-id=\"",
                viz_kind_class(kind), at_peak ? " at-peak" : "", role_class[role], x, yt, bw, yb - yt, kind_fill(kind, i),
                at_peak ? " stroke=\"#111\" stroke-width=\"1.2\""
                /* A white edge would eat a sliver of a buffer whole. */
                : yb - yt < 3 || bw < 3 ? " stroke=\"none\"" : "",
                i);
        viz_xml(f, viz_id(vp, i, idb, sizeof idb), 0);
        fprintf(f, "\" data-offset=\"%zu\" data-size=\"%zu\" data-padded=\"%zu\" data-first=\"%d\" data-last=\"%d\" "
                   "data-kind=\"%s\"",
                off, q->size, padded, q->first, q->last, viz_kind_class(kind));
        if (role) fprintf(f, " data-stage=\"%d\"%s", vp->patch->stage[i], bands ? " fill-opacity=\".3\"" : "");
        fputc('>', f);
        buffer_title(f, vp, vt, i, off);
        fputs("</rect>\n", f);
        if (bands) band_columns(f, vp, &g, i, off);
    }
    fputs("</g>\n", f);
    /* Names inside the buffers that have room for a few characters, wrapped
     * over as many lines as the height allows. */
    span *parts = sorted_parts(vp);
    fputs("<g class=\"names\" font-size=\"9\" fill=\"#fff\" pointer-events=\"none\">\n", f);
    for (size_t i = 0; i < vp->n; i++) {
        const ta_request *q = &vp->reqs[i];
        double bw = (double)(q->last - q->first + 1) * g.px;
        double bh = (double)ta_request_padded(q) * g.bpx;
        size_t fit = bw > 6 ? (size_t)((bw - 6) / 5.4) : 0, lines = bh > 2 ? (size_t)((bh - 2) / 10) : 0;
        if (!lines || fit < 4) continue;
        char idb[32], label[128];
        buffer_label(viz_id(vp, i, idb, sizeof idb), parts, vp->n, label, sizeof label);
        wrapped_text(f, label, gx(&g, q->first) + 3, gy(&g, (double)o->offsets[i]) - bh / 2, fit, lines);
    }
    fputs("</g>\n", f);
    free(parts);
    if (vp->patch) stage_boxes(f, vp, &g, true);

    /* 5. live bytes, lower bound, arena */
    fputs("<path class=\"live\" fill=\"none\" stroke=\"#111\" stroke-width=\"1.2\" stroke-opacity=\".7\" "
          "stroke-linejoin=\"round\" pointer-events=\"none\" d=\"",
          f);
    for (int32_t s = vt->lo; s <= vt->hi; s++) {
        double y = gy(&g, (double)vt->live[s - vt->lo]);
        if (s == vt->lo) fprintf(f, "M%.2f %.2f", gx(&g, s), y);
        else fprintf(f, "V%.2f", y);
        fprintf(f, "H%.2f", gx(&g, s + 1));
    }
    fputs("\"/>\n", f);
    double ya = gy(&g, (double)r->arena_bytes), yl = gy(&g, (double)r->lower_bound_bytes);
    double xr = g.x0 + g.pw;
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#d62728\" stroke-width=\"1.5\" "
               "stroke-dasharray=\"6 3\" pointer-events=\"none\"/>\n",
            g.x0, yl, xr + 4, yl);
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#222\" stroke-width=\"1.5\" "
               "pointer-events=\"none\"/>\n",
            g.x0, ya, xr + 4, ya);
    double min_y = 0;
    if (r->arena_bytes == r->lower_bound_bytes) {
        line_label(f, xr + 8, ya, &min_y, "arena = lower bound", r->arena_bytes, "#222");
    } else if (r->arena_bytes > r->lower_bound_bytes) { /* top to bottom */
        line_label(f, xr + 8, ya, &min_y, "arena", r->arena_bytes, "#222");
        line_label(f, xr + 8, yl, &min_y, "lower bound", r->lower_bound_bytes, "#d62728");
    } else { /* conflicting fixed offsets: more live than the arena holds */
        line_label(f, xr + 8, yl, &min_y, "lower bound", r->lower_bound_bytes, "#d62728");
        line_label(f, xr + 8, ya, &min_y, "arena", r->arena_bytes, "#222");
    }
    /* The peak column outlined over the buffers: the band beneath is hidden
     * wherever the peak's buffers fill the column, which is the point. */
    if (peak >= vt->lo && peak <= vt->hi)
        fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"none\" stroke=\"#b26a00\" "
                   "stroke-width=\"1.5\" stroke-dasharray=\"4 2\" pointer-events=\"none\"/>\n",
                gx(&g, peak), MT, g.px, PH);

    /* 6. axes */
    fputs("<g font-size=\"10\" fill=\"#333\">\n", f);
    fprintf(f, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\"/>\n", g.x0, MT, g.x0, g.y0);
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\"/>\n", g.x0, g.y0, xr, g.y0);
    for (double v = 0; v <= g.ymax + 0.5; v += ystep) {
        char b[32];
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\"/>"
                   "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%s</text>\n",
                g.x0 - 4, gy(&g, v), g.x0, gy(&g, v), g.x0 - 6, gy(&g, v) + 3.5, fmt_bytes((size_t)v, b));
    }
    for (int32_t s = vt->lo; s <= vt->hi; s++) {
        if (s % (int32_t)xstep) continue;
        double x = gx(&g, s) + g.px / 2;
        fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#333\"/>"
                   "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%d</text>\n",
                x, g.y0, x, g.y0 + 4, x, g.y0 + 14, s);
    }
    fputs("</g>\n", f);
    if (ops) {
        /* Op types, rotated; a left-to-right sweep keeps LABEL_GAP between
         * neighbours and always keeps the peak's label. */
        double peak_x = peak >= vt->lo && peak <= vt->hi ? gx(&g, peak) + g.px / 2 : -1e9;
        double last_x = -1e9;
        fputs("<g class=\"ops\" font-size=\"9.5\" fill=\"#333\" pointer-events=\"none\">\n", f);
        for (int32_t s = vt->lo; s <= vt->hi; s++) {
            double x = gx(&g, s) + g.px / 2;
            bool is_peak = s == peak;
            if (!is_peak && (x - last_x < LABEL_GAP || fabs(x - peak_x) < LABEL_GAP)) continue;
            double ty = g.y0 + 20;
            fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" transform=\"rotate(-90 %.2f %.2f)\" text-anchor=\"end\"%s>",
                    x + 3.3, ty, x + 3.3, ty, is_peak ? " font-weight=\"bold\" fill=\"#b26a00\"" : "");
            viz_xml(f, viz_step_type(vp, vt, s), OP_CHARS);
            fputs("</text>\n", f);
            last_x = x;
        }
        fputs("</g>\n", f);
    }
    fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\" text-anchor=\"middle\" fill=\"#333\">%s</text>\n",
            g.x0 + g.pw / 2, h - 8 - patch_lines_height(vp), ops ? "step (op type; hover a column for its op and live bytes)" : "step");
    fprintf(f, "<text x=\"14\" y=\"%.2f\" font-size=\"11\" text-anchor=\"middle\" fill=\"#333\" "
               "transform=\"rotate(-90 14 %.2f)\">arena offset (bytes)</text>\n",
            g.y0 - PH / 2.0, g.y0 - PH / 2.0);
    if (vp->patch) patch_lines(f, vp, h - patch_lines_height(vp) + 10);
    fputs("</svg>\n", f);
}

int emit_svg_file(const char *path, const viz_plan *vp) {
    if (vp->firmware) vp = vp->firmware; /* the plan firmware runs */
    if (!viz_drawable(vp, vp->chosen, path)) return CLI_FAIL;
    FILE *f = fopen(path, "w");
    if (!f) return cli_error("%s: cannot write", path);
    viz_time vt;
    viz_time_build(vp, &vt);
    emit_svg(f, vp, &vt, vp->chosen, true);
    viz_time_free(&vt);
    if (fclose(f) != 0) return cli_error("%s: write failed", path);
    return CLI_OK;
}
