/* The HTML report.
 *
 * One page, nothing fetched:
 *  1. a heading and summary: the model, its counts, the lower bound and the
 *     buffers that form the peak;
 *  2. the strategy table, cell for cell what the CLI prints (plan_report_row);
 *  3. every strategy's arena map, inline SVG in a grid, so plans can be
 *     compared side by side; hovering a buffer lights it up in every map
 *     and in the table;
 *  4. the buffer table of the chosen plan, sortable by clicking a header.
 * The page is well-formed XML (XHTML syntax, served as HTML) so xmllint and
 * XML tools can check it; the script sits in a CDATA section for that. */
#include "emit_html.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "emit_svg.h"

static const char page_css[] =
    "body{font:14px/1.45 'DejaVu Sans',Verdana,Arial,sans-serif;margin:16px 24px;color:#222;background:#fff}"
    "h1{font-size:20px;margin:0 0 4px}"
    "h2{font-size:16px;margin:22px 0 8px;padding-bottom:3px;border-bottom:1px solid #ddd}"
    "p{margin:3px 0}p.about{color:#555}"
    "table{border-collapse:collapse;font-size:12.5px}"
    "th,td{padding:3px 9px;border-bottom:1px solid #e6e6e6;text-align:left;white-space:nowrap}"
    "th{background:#f4f4f4}"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}"
    "tr.chosen td{background:#fff4cc;font-weight:bold}"
    ".maps{display:grid;gap:14px;grid-template-columns:repeat(2,minmax(0,1fr))}"
    ".maps.c1{grid-template-columns:minmax(0,1fr)}"
    ".maps.c3{grid-template-columns:repeat(3,minmax(0,1fr))}"
    "figure{margin:0;border:1px solid #ddd;padding:6px;background:#fff}"
    "figure.chosen{border:2px solid #b26a00;grid-column:1/-1}"
    "figcaption{font-size:12.5px;color:#333;margin-bottom:4px}"
    "figure svg{display:block;width:100%;height:auto}"
    ".controls{margin:4px 0 10px;font-size:12.5px;color:#444}"
    ".controls button{font:inherit;margin-left:4px;padding:1px 9px;cursor:pointer}"
    "table.sortable th{cursor:pointer;user-select:none;position:sticky;top:0}"
    "table.sortable th[aria-sort=ascending]::after{content:' \\25B2'}"
    "table.sortable th[aria-sort=descending]::after{content:' \\25BC'}"
    "tr.hl td{background:#ffe08a}"
    ".k{display:inline-block;width:10px;height:10px;margin-right:5px;vertical-align:-1px}"
    ".k.activation{background:#4e79a7}.k.scratch{background:#f28e2b}.k.input{background:#59a14f}"
    ".k.output{background:#e15759}"
    "td.name{max-width:30em;overflow:hidden;text-overflow:ellipsis}";

/* Sorting and highlighting.  No '<' or '&' appear, but the CDATA keeps the
 * page well-formed XML even if that changes. */
static const char page_js[] =
    "(function () {\n"
    "  function value(tr, col) {\n"
    "    var td = tr.cells[col], v = td.getAttribute('data-v');\n"
    "    return v === null ? td.textContent : Number(v);\n"
    "  }\n"
    "  document.querySelectorAll('table.sortable').forEach(function (table) {\n"
    "    var heads = table.tHead.rows[0].cells;\n"
    "    Array.prototype.forEach.call(heads, function (th, col) {\n"
    "      th.title = 'sort by this column';\n"
    "      th.addEventListener('click', function () {\n"
    "        var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;\n"
    "        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });\n"
    "        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');\n"
    "        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);\n"
    "        rows.sort(function (a, b) {\n"
    "          var x = value(a, col), y = value(b, col);\n"
    "          var c = typeof x === 'number' ? x - y : String(x).localeCompare(String(y));\n"
    "          return c * dir || value(a, 0) - value(b, 0);\n"
    "        });\n"
    "        rows.forEach(function (r) { body.appendChild(r); });\n"
    "      });\n"
    "    });\n"
    "  });\n"
    "  var lit = [];\n"
    "  document.addEventListener('mouseover', function (ev) {\n"
    "    var e = ev.target.closest ? ev.target.closest('[data-i]') : null;\n"
    "    var i = e ? e.getAttribute('data-i') : null;\n"
    "    lit.forEach(function (x) { x.classList.remove('hl'); });\n"
    /* the firmware map (patch stages) numbers its own buffers: an index
     * lights up inside it, or everywhere but it */
    "    var fw = e && e.closest('figure.firmware');\n"
    "    lit = i === null ? [] : Array.prototype.slice.call(document.querySelectorAll('[data-i=\"' + i + '\"]'))\n"
    "      .filter(function (x) { return x.closest('figure.firmware') === fw; });\n"
    "    lit.forEach(function (x) { x.classList.add('hl'); });\n"
    "  });\n"
    "  document.querySelectorAll('button[data-cols]').forEach(function (b) {\n"
    "    b.addEventListener('click', function () {\n"
    "      document.querySelector('.maps').className = 'maps c' + b.getAttribute('data-cols');\n"
    "    });\n"
    "  });\n"
    "})();\n";


static void summary(FILE *f, const viz_plan *vp, const viz_time *vt) {
    const plan_outcome *o = &vp->o[vp->chosen];
    const ta_plan_result *r = &o->res;
    char b1[32], b2[32], label[96];
    fputs("<h1>", f);
    viz_xml(f, vp->name, 0);
    fputs("</h1>\n", f);
    if (*vp->about) {
        fputs("<p class=\"about\">", f);
        viz_xml(f, vp->about, 200);
        fputs("</p>\n", f);
    }
    if (vp->mp) {
        const model_plan *mp = vp->mp;
        fprintf(f, "<p>%u subgraph%s, %u ops, %u tensors: %zu planned", mp->g->n_subgraphs,
                mp->g->n_subgraphs == 1 ? "" : "s", mp->g->n_ops, mp->g->n_tensors, mp->n - mp->lt.n_scratch);
        if (mp->lt.n_scratch) fprintf(f, " (+%u scratch)", mp->lt.n_scratch);
        fprintf(f, ", %zu constant (%s B, stay in flash), %zu variable (%s B, persistent).</p>\n", mp->n_const,
                fmt_bytes(mp->const_bytes, b1), mp->n_variable, fmt_bytes(mp->variable_bytes, b2));
    } else {
        fprintf(f, "<p>%zu buffers over steps %d..%d.</p>\n", vp->n, vt->lo, vt->hi);
    }
    viz_step_label(vp, vt, r->peak_step, label, sizeof label);
    fprintf(f, "<p>Lower bound (most bytes live at once) <b>%s B</b> at step %d (", fmt_bytes(r->lower_bound_bytes, b1),
            r->peak_step);
    viz_xml(f, label, 0);
    fprintf(f, "); no reuse at all would take %s B.", fmt_bytes(r->naive_bytes, b2));
    /* Which buffers form the peak: largest first, as `plan` prints them. */
    size_t *live = cli_xcalloc(vp->n, sizeof *live), k = 0;
    for (size_t i = 0; i < vp->n; i++)
        if (vp->reqs[i].first <= r->peak_step && r->peak_step <= vp->reqs[i].last && vp->reqs[i].size)
            live[k++] = i;
    for (size_t i = 1; i < k; i++) { /* insertion sort by size, stable */
        size_t v = live[i], j = i;
        while (j > 0 && vp->reqs[live[j - 1]].size < vp->reqs[v].size) {
            live[j] = live[j - 1];
            j--;
        }
        live[j] = v;
    }
    fprintf(f, " Live there (%zu):", k);
    for (size_t i = 0; i < k && i < 8; i++) {
        char idb[32];
        fputs(i ? ", " : " ", f);
        fprintf(f, "<span data-i=\"%zu\">", live[i]);
        viz_xml(f, viz_id(vp, live[i], idb, sizeof idb), 80);
        fprintf(f, "</span> (%s B)", fmt_bytes(vp->reqs[live[i]].size, b1));
    }
    if (k > 8) fprintf(f, " and %zu more", k - 8);
    fputs(".</p>\n", f);
    free(live);
}

static void strategy_table(FILE *f, const viz_plan *vp) {
    fputs("<h2>Strategies</h2>\n<table class=\"strategies\">\n<thead><tr><th>strategy</th><th class=\"n\">arena_bytes</th>"
          "<th class=\"n\">vs_naive</th><th class=\"n\">/bound</th><th class=\"n\">time_us</th><th>status</th></tr>"
          "</thead>\n<tbody>\n",
          f);
    for (size_t k = 0; k < vp->count; k++) {
        plan_row row;
        plan_report_row(&vp->o[k], &row);
        fprintf(f, "<tr%s data-strategy=\"%s\"><td>%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
                   "<td class=\"n\">%s</td><td class=\"n\">%s</td><td>",
                k == vp->chosen ? " class=\"chosen\"" : "", vp->o[k].s->name, vp->o[k].s->name, row.arena, row.vs_naive,
                row.ratio, row.time_us);
        viz_xml(f, row.status, 0);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody>\n</table>\n", f);
    fprintf(f, "<p class=\"about\">vs_naive: bytes saved against no reuse; /bound: arena over the lower bound "
               "(1.000 cannot be beaten); the highlighted row is the plan drawn in detail below.</p>\n");
}

static void maps(FILE *f, const viz_plan *vp, const viz_time *vt) {
    char b1[32];
    fputs("<h2>Arena maps</h2>\n<p class=\"about\">Time runs left to right (one column per op step), arena offsets "
          "bottom to top; every rectangle is a buffer at its planned offset, grey is free space inside the arena. "
          "Hover a buffer for its name, shape, bytes, lifetime and offset: it lights up in every map and in the "
          "buffer table.</p>\n<div class=\"controls\">maps per row:<button type=\"button\" data-cols=\"1\">1</button>"
          "<button type=\"button\" data-cols=\"2\">2</button><button type=\"button\" data-cols=\"3\">3</button></div>\n"
          "<div class=\"maps\">\n",
          f);
    /* With patch stages, the plan firmware runs (the runtime's, viz_patch.h)
     * first: the strategies' maps below are layer by layer. */
    if (vp->firmware) {
        const viz_plan *fp = vp->firmware;
        viz_time fvt;
        viz_time_build(fp, &fvt);
        fprintf(f, "<figure class=\"chosen firmware\" data-strategy=\"%s\"><figcaption><b>firmware plan</b>: %s with "
                   "patch stages, planned %s B (what <code>--header</code> gives firmware)</figcaption>\n",
                fp->o[0].s->name, fp->o[0].s->name, fmt_bytes(fp->o[0].res.arena_bytes, b1));
        emit_svg(f, fp, &fvt, 0, false);
        fputs("</figure>\n", f);
        viz_time_free(&fvt);
    }
    /* The chosen plan first, then the others in table order. */
    for (size_t pass = 0; pass < vp->count; pass++) {
        size_t k = pass == 0 ? vp->chosen : pass <= vp->chosen ? pass - 1 : pass;
        const plan_outcome *o = &vp->o[k];
        fprintf(f, "<figure%s data-strategy=\"%s\"><figcaption><b>%s</b>", k == vp->chosen ? " class=\"chosen\"" : "",
                o->s->name, o->s->name);
        if (o->st) {
            fputs(": failed: ", f);
            viz_xml(f, o->diag.msg, 0);
            fputs("</figcaption></figure>\n", f);
            continue;
        }
        fprintf(f, ": arena %s B", fmt_bytes(o->res.arena_bytes, b1));
        if (o->res.lower_bound_bytes)
            fprintf(f, " (%.3f \xc3\x97 lower bound)", (double)o->res.arena_bytes / (double)o->res.lower_bound_bytes);
        fputs(k == vp->chosen ? ", the plan chosen" : "", f);
        fputs("</figcaption>\n", f);
        emit_svg(f, vp, vt, k, false);
        fputs("</figure>\n", f);
    }
    fputs("</div>\n", f);
}

static void buffer_table(FILE *f, const viz_plan *vp, const viz_time *vt) {
    const plan_outcome *o = &vp->o[vp->chosen];
    bool model = vp->mp != NULL;
    fprintf(f, "<h2>Buffers (%s plan)</h2>\n<p class=\"about\">Click a column header to sort.</p>\n", o->s->name);
    fputs("<div style=\"overflow-x:auto\">\n<table class=\"sortable buffers\">\n<thead><tr><th class=\"n\">#</th><th>name</th><th>kind</th>", f);
    if (model) fputs("<th>shape</th><th>dtype</th>", f);
    fputs("<th class=\"n\">bytes</th><th class=\"n\">first</th><th class=\"n\">last</th>", f);
    if (model) fputs("<th>first op</th><th>last op</th>", f);
    fputs("<th class=\"n\">offset</th><th class=\"n\">end</th></tr></thead>\n<tbody>\n", f);
    for (size_t i = 0; i < vp->n; i++) {
        const ta_request *r = &vp->reqs[i];
        size_t off = o->offsets[i], end = off + ta_request_padded(r);
        viz_kind kind = viz_buffer_kind(vp, i);
        char idb[32], b1[32];
        fprintf(f, "<tr data-i=\"%zu\"><td class=\"n\" data-v=\"%zu\">%zu</td><td class=\"name\" title=\"", i, i, i);
        const char *id = viz_id(vp, i, idb, sizeof idb);
        viz_xml(f, id, 0);
        fputs("\">", f);
        viz_xml(f, id, 0);
        fprintf(f, "</td><td><span class=\"k %s\"></span>%s</td>", viz_kind_class(kind), viz_kind_name(kind));
        if (model) {
            char shape[96] = "", dtype[24] = "";
            if (vp->mp->origin[i].kind == TA_BUFFER_TENSOR) {
                const ta_tensor *t = &vp->mp->g->tensors[vp->mp->origin[i].index];
                model_plan_shape(t, shape, sizeof shape);
                snprintf(dtype, sizeof dtype, "%s", ta_dtype_str(t->dtype));
            }
            fprintf(f, "<td>%s</td><td>%s</td>", shape, dtype);
        }
        fprintf(f, "<td class=\"n\" data-v=\"%zu\">%s</td><td class=\"n\" data-v=\"%d\">%d</td>"
                   "<td class=\"n\" data-v=\"%d\">%d</td>",
                r->size, fmt_bytes(r->size, b1), r->first, r->first, r->last, r->last);
        if (model) {
            char l1[96], l2[96];
            viz_step_label(vp, vt, r->first, l1, sizeof l1);
            viz_step_label(vp, vt, r->last, l2, sizeof l2);
            fputs("<td>", f);
            viz_xml(f, l1, 0);
            fputs("</td><td>", f);
            viz_xml(f, l2, 0);
            fputs("</td>", f);
        }
        fprintf(f, "<td class=\"n\" data-v=\"%zu\">%s</td>", off, fmt_bytes(off, b1));
        fprintf(f, "<td class=\"n\" data-v=\"%zu\">%s</td></tr>\n", end, fmt_bytes(end, b1));
    }
    fputs("</tbody>\n</table>\n</div>\n", f);
}

int emit_html_file(const char *path, const viz_plan *vp) {
    if (!viz_drawable(vp, vp->chosen, path)) return CLI_FAIL;
    FILE *f = fopen(path, "w");
    if (!f) return cli_error("%s: cannot write", path);
    viz_time vt;
    viz_time_build(vp, &vt);
    fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>tinyarena: ",
          f);
    viz_xml(f, vp->name, 0);
    fprintf(f, "</title>\n<style>%s%s</style>\n</head>\n<body>\n", page_css, emit_svg_css);
    summary(f, vp, &vt);
    strategy_table(f, vp);
    maps(f, vp, &vt);
    buffer_table(f, vp, &vt);
    fprintf(f, "<p class=\"about\">Made by tinyarena plan.</p>\n<script>//<![CDATA[\n%s//]]></script>\n</body>\n</html>\n",
            page_js);
    viz_time_free(&vt);
    if (fclose(f) != 0) return cli_error("%s: write failed", path);
    return CLI_OK;
}
