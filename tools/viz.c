#include "viz.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"

viz_plan viz_plan_of_model(const model_plan *mp, const plan_outcome *o, size_t count, size_t chosen,
                           const char *name, const char *about) {
    viz_plan vp = {name, about ? about : "", mp, mp->reqs, mp->n, mp->ids, o, count, chosen, NULL, NULL};
    return vp;
}

viz_plan viz_plan_of_buffers(const ta_request *reqs, size_t n, const char *const *ids, const plan_outcome *o,
                             size_t count, size_t chosen, const char *name) {
    viz_plan vp = {name, "", NULL, reqs, n, ids, o, count, chosen, NULL, NULL};
    return vp;
}

size_t viz_find(const plan_outcome *o, size_t count, const char *name) {
    for (size_t i = 0; i < count; i++)
        if (!strcmp(o[i].s->name, name)) return i;
    return 0;
}

bool viz_drawable(const viz_plan *vp, size_t k, const char *what) {
    if (k < vp->count && !vp->o[k].st) return true;
    cli_error("%s: nothing to draw: strategy %s failed", what, k < vp->count ? vp->o[k].s->name : "?");
    return false;
}

viz_kind viz_buffer_kind(const viz_plan *vp, size_t i) {
    if (!vp->mp) return VIZ_ACTIVATION;
    const ta_buffer_origin *org = &vp->mp->origin[i];
    if (org->kind == TA_BUFFER_SCRATCH) return VIZ_SCRATCH;
    const ta_tensor *t = &vp->mp->g->tensors[org->index];
    /* Only the main subgraph's inputs and outputs are the graph's; a nested
     * subgraph's operands are activations of the op that calls it. */
    if (t->subgraph == 0 && (t->flags & TA_TENSOR_INPUT)) return VIZ_INPUT;
    if (t->subgraph == 0 && (t->flags & TA_TENSOR_OUTPUT)) return VIZ_OUTPUT;
    return VIZ_ACTIVATION;
}

const char *viz_kind_name(viz_kind k) {
    static const char *const names[VIZ_KIND_COUNT] = {"activation", "scratch", "graph input", "graph output"};
    return k < VIZ_KIND_COUNT ? names[k] : "?";
}

const char *viz_kind_class(viz_kind k) {
    static const char *const c[VIZ_KIND_COUNT] = {"activation", "scratch", "input", "output"};
    return k < VIZ_KIND_COUNT ? c[k] : "activation";
}

/* The time axis:
 *  1. the step range covers every buffer and, for models, every op's step;
 *  2. each op is entered at its step (control-flow steps without an op stay -1);
 *  3. live bytes come from a difference array over the range: +padded at
 *     first, -padded after last, then a prefix sum (O(n + steps)). */
void viz_time_build(const viz_plan *vp, viz_time *vt) {
    memset(vt, 0, sizeof *vt);
    int32_t lo = 0, hi = 0;
    if (vp->mp && vp->mp->lt.n_steps > 0) hi = vp->mp->lt.n_steps - 1;
    for (size_t i = 0; i < vp->n; i++) {
        if (vp->reqs[i].first < lo) lo = vp->reqs[i].first;
        if (vp->reqs[i].last > hi) hi = vp->reqs[i].last;
    }
    vt->lo = lo;
    vt->hi = hi;
    size_t steps = viz_steps(vt);
    vt->op = cli_xmalloc(steps * sizeof *vt->op);
    for (size_t s = 0; s < steps; s++) vt->op[s] = -1;
    if (vp->mp)
        for (uint32_t k = 0; k < vp->mp->lt.n_ops; k++) {
            int32_t s = vp->mp->lt.op_step[k];
            if (s >= lo && s <= hi && vt->op[s - lo] < 0) vt->op[s - lo] = (int32_t)k;
        }
    /* One extra slot takes the "-padded after last" of buffers ending at hi. */
    long long *delta = cli_xcalloc(steps + 1, sizeof *delta), *dcount = cli_xcalloc(steps + 1, sizeof *dcount);
    for (size_t i = 0; i < vp->n; i++) {
        size_t p = ta_request_padded(&vp->reqs[i]);
        delta[vp->reqs[i].first - lo] += (long long)p;
        delta[vp->reqs[i].last - lo + 1] -= (long long)p;
        dcount[vp->reqs[i].first - lo]++;
        dcount[vp->reqs[i].last - lo + 1]--;
    }
    vt->live = cli_xmalloc(steps * sizeof *vt->live);
    vt->nlive = cli_xmalloc(steps * sizeof *vt->nlive);
    long long run = 0, count = 0;
    for (size_t s = 0; s < steps; s++) {
        run += delta[s];
        count += dcount[s];
        vt->live[s] = (size_t)run;
        vt->nlive[s] = (size_t)count;
        if (vt->live[s] > vt->max_live) vt->max_live = vt->live[s];
    }
    free(delta);
    free(dcount);
}

void viz_time_free(viz_time *vt) {
    free(vt->op);
    free(vt->live);
    free(vt->nlive);
    memset(vt, 0, sizeof *vt);
}

static const char *op_type(const ta_op *op) {
    if ((op->kind == TA_OP_CUSTOM || op->kind == TA_OP_OTHER) && op->custom_name && *op->custom_name)
        return op->custom_name;
    return ta_op_kind_str(op->kind);
}

const char *viz_step_type(const viz_plan *vp, const viz_time *vt, int32_t step) {
    if (step < vt->lo || step > vt->hi) return "-";
    int32_t k = vt->op[step - vt->lo];
    if (k >= 0) return op_type(&vp->mp->g->ops[k]);
    return vp->mp && step == 0 ? "inputs" : "-";
}

void viz_step_label(const viz_plan *vp, const viz_time *vt, int32_t step, char *buf, size_t len) {
    int32_t k = step >= vt->lo && step <= vt->hi ? vt->op[step - vt->lo] : -1;
    if (k >= 0) {
        const ta_op *op = &vp->mp->g->ops[k];
        if (vp->mp->g->n_subgraphs > 1) snprintf(buf, len, "subgraph %u op %d %s", op->subgraph, op->index, op_type(op));
        else snprintf(buf, len, "op %d %s", op->index, op_type(op));
    } else if (vp->mp && step == 0) {
        snprintf(buf, len, "the inputs");
    } else if (vp->mp) {
        snprintf(buf, len, "step %d (subgraph entry)", step);
    } else {
        snprintf(buf, len, "step %d", step);
    }
}

const char *viz_id(const viz_plan *vp, size_t i, char *buf, size_t len) {
    if (vp->ids) return vp->ids[i] ? vp->ids[i] : "";
    snprintf(buf, len, "%zu", i);
    return buf;
}

void viz_buffer_shape(const viz_plan *vp, size_t i, char *buf, size_t len) {
    buf[0] = '\0';
    if (!vp->mp || vp->mp->origin[i].kind != TA_BUFFER_TENSOR) return;
    const ta_tensor *t = &vp->mp->g->tensors[vp->mp->origin[i].index];
    char shape[64];
    model_plan_shape(t, shape, sizeof shape);
    snprintf(buf, len, "%s %s", shape, ta_dtype_str(t->dtype));
}

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not one
 * (overlong forms, surrogates and code points above U+10FFFF included). */
static size_t utf8_len(const unsigned char *s) {
    if (s[0] < 0x80) return 1;
    size_t n;
    uint32_t cp;
    if ((s[0] & 0xe0) == 0xc0) n = 2, cp = s[0] & 0x1fu;
    else if ((s[0] & 0xf0) == 0xe0) n = 3, cp = s[0] & 0x0fu;
    else if ((s[0] & 0xf8) == 0xf0) n = 4, cp = s[0] & 0x07u;
    else return 0;
    for (size_t k = 1; k < n; k++) {
        if ((s[k] & 0xc0) != 0x80) return 0; /* also stops at the NUL */
        cp = (cp << 6) | (s[k] & 0x3fu);
    }
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    /* U+FFFE and U+FFFF are not XML characters either. */
    if (cp == 0xfffe || cp == 0xffff) return 0;
    return n;
}

size_t viz_chars(const char *s) {
    size_t c = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; c++) {
        size_t n = utf8_len(p);
        p += n ? n : 1;
    }
    return c;
}

void viz_xml(FILE *f, const char *s, size_t max_chars) {
    size_t total = max_chars ? viz_chars(s) : 0, c = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; c++) {
        if (max_chars && total > max_chars && c + 1 == max_chars) {
            fputs("\xe2\x80\xa6", f); /* U+2026, the ellipsis */
            return;
        }
        size_t n = utf8_len(p);
        if (!n) {
            fputc('?', f);
            p++;
            continue;
        }
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        /* Attribute values normalise raw newlines and tabs to spaces; keep them. */
        case '\n': fputs("&#10;", f); break;
        case '\t': fputs("&#9;", f); break;
        default:
            if (*p < 0x20 || *p == 0x7f) fputc('?', f);
            else fwrite(p, 1, n, f);
        }
        p += n;
    }
}
