/* Lifetime analysis with TensorFlow Lite Micro's rules (see lifetime.h). */
#include <string.h>

#include "common/util.h"
#include "tinyarena/lifetime.h"

typedef struct {
    const ta_graph *g;
    ta_lifetimes *lt;
    const ta_scratch_request *scratch;
    uint32_t *op_scratch_head; /* per global op: first scratch request, or UINT32_MAX */
    uint32_t *scratch_next;    /* per scratch request: next one of the same op */
    uint8_t *on_stack;         /* per subgraph: being marked (cycle check) */
    int32_t scope;
    int32_t entry;             /* the scope at which the subgraph being marked was entered */
    ta_diag *d;
} walker;

static bool carve(ta__bump *b, const ta_graph *g, size_t n_scratch, ta_lifetimes *lt, walker *w) {
    lt->first = ta__bump_take(b, g->n_tensors, sizeof(int32_t));
    lt->last = ta__bump_take(b, g->n_tensors, sizeof(int32_t));
    lt->scratch_first = ta__bump_take(b, n_scratch, sizeof(int32_t));
    lt->scratch_last = ta__bump_take(b, n_scratch, sizeof(int32_t));
    lt->op_step = ta__bump_take(b, g->n_ops, sizeof(int32_t));
    w->op_scratch_head = ta__bump_take(b, g->n_ops, sizeof(uint32_t));
    w->scratch_next = ta__bump_take(b, n_scratch, sizeof(uint32_t));
    w->on_stack = ta__bump_take(b, g->n_subgraphs, 1);
    return !b->fail;
}

size_t ta_lifetime_bytes(const ta_graph *g, size_t n_scratch) {
    if (!g) return 0;
    ta__bump b;
    ta_lifetimes lt;
    walker w;
    ta__bump_init(&b, NULL, 0);
    if (!carve(&b, g, n_scratch, &lt, &w)) return 0;
    return ta__bump_need(&b);
}

/* TFLM's two updates: a use moves the end; creation sets the start, once
 * per entry into the subgraph (within one, the op that writes a subgraph
 * output re-creates it at its own step), and never moves a start an
 * earlier entry set: a subgraph that two control-flow calls run (two IFs,
 * then = else, a WHILE body also run by CALL_ONCE) is marked once per call
 * and its tensors and scratch stay live from the first call to the last
 * -- TFLM's allocation_info.cc keeps the first creation the same way --
 * so a plan keeps them apart from everything live in between, for both
 * call sites.  (Starts set by an earlier entry are below `entry`: the
 * scope only grows.) */
static void created(int32_t *first, int32_t *last, int32_t step, int32_t entry) {
    if (*first < entry) {
        if (*first < 0) *first = step;
    } else {
        *first = step;
    }
    *last = step;
}

static void used(int32_t *last, int32_t step) { *last = step; }

static ta_status mark(walker *w, uint32_t sg, int depth);

static ta_status enter(walker *w, uint32_t from_sg, uint32_t op, int32_t target, int depth) {
    const ta_graph *g = w->g;
    if (target < 0) return TA_OK;
    if ((uint32_t)target >= g->n_subgraphs)
        return ta_diag_set(w->d, TA_E_MALFORMED, "subgraph %u op %u: control flow to missing subgraph %d",
                           from_sg, op, target);
    if (w->on_stack[target])
        return ta_diag_set(w->d, TA_E_MALFORMED, "subgraph %u op %u: control flow cycle back to subgraph %d",
                           from_sg, op, target);
    if (depth + 1 > TA_LIFETIME_MAX_DEPTH)
        return ta_diag_set(w->d, TA_E_UNSUPPORTED, "control flow nested deeper than %d subgraphs",
                           TA_LIFETIME_MAX_DEPTH);
    if (w->scope >= TA_LIFETIME_MAX_STEPS)
        return ta_diag_set(w->d, TA_E_UNSUPPORTED, "more than %d steps", TA_LIFETIME_MAX_STEPS);
    w->scope++; /* each subgraph entry is a new step */
    const int32_t caller = w->entry;
    w->entry = w->scope;
    const ta_status st = mark(w, (uint32_t)target, depth + 1);
    w->entry = caller;
    return st;
}

static bool control_flow(const ta_op *op) {
    return op->kind == TA_OP_IF || op->kind == TA_OP_WHILE || op->kind == TA_OP_CALL_ONCE;
}

/* Steps: 1. the subgraph's inputs and outputs are created at the current
 * step; 2. every op takes a new step, creates its outputs, enters its
 * subgraphs (control flow), then marks its inputs and outputs used at the
 * step reached, and times its scratch buffers from its own step to there;
 * 3. the subgraph's outputs are used up to the last step. */
static ta_status mark(walker *w, uint32_t sg, int depth) {
    const ta_graph *g = w->g;
    const ta_subgraph *s = &g->subgraphs[sg];
    ta_lifetimes *lt = w->lt;
    int32_t *first = lt->first + s->tensor_base, *last = lt->last + s->tensor_base;
    w->on_stack[sg] = 1;
    for (uint32_t i = 0; i < s->n_inputs; i++)
        if (s->inputs[i] >= 0) created(&first[s->inputs[i]], &last[s->inputs[i]], w->scope, w->entry);
    for (uint32_t i = 0; i < s->n_outputs; i++)
        if (s->outputs[i] >= 0) created(&first[s->outputs[i]], &last[s->outputs[i]], w->scope, w->entry);
    for (uint32_t k = 0; k < s->n_ops; k++) {
        const ta_op *op = &g->ops[s->op_base + k];
        if (w->scope >= TA_LIFETIME_MAX_STEPS)
            return ta_diag_set(w->d, TA_E_UNSUPPORTED, "more than %d steps", TA_LIFETIME_MAX_STEPS);
        w->scope++;
        lt->op_step[s->op_base + k] = w->scope;
        for (uint32_t n = 0; n < op->n_outputs; n++)
            if (op->outputs[n] >= 0) created(&first[op->outputs[n]], &last[op->outputs[n]], w->scope, w->entry);
        int32_t start = w->scope;
        if (control_flow(op)) {
            ta_status st = enter(w, sg, k, op->opt.subgraph_a, depth);
            if (!st) st = enter(w, sg, k, op->opt.subgraph_b, depth);
            if (st) return st;
        }
        for (uint32_t n = 0; n < op->n_inputs; n++)
            if (op->inputs[n] >= 0) used(&last[op->inputs[n]], w->scope);
        for (uint32_t n = 0; n < op->n_outputs; n++)
            if (op->outputs[n] >= 0) used(&last[op->outputs[n]], w->scope);
        for (uint32_t r = w->op_scratch_head[s->op_base + k]; r != UINT32_MAX; r = w->scratch_next[r]) {
            if (lt->scratch_first[r] < 0) lt->scratch_first[r] = start; /* the first call's, as tensors */
            lt->scratch_last[r] = w->scope;
        }
    }
    for (uint32_t i = 0; i < s->n_outputs; i++)
        if (s->outputs[i] >= 0) used(&last[s->outputs[i]], w->scope);
    w->on_stack[sg] = 0;
    return TA_OK;
}

ta_status ta_lifetime_analyze(const ta_graph *g, const ta_scratch_request *scratch, size_t n_scratch,
                              void *mem, size_t bytes, ta_lifetimes *lt, ta_diag *d) {
    if (!g || !lt || (n_scratch && !scratch)) return ta_diag_set(d, TA_E_INVALID_ARG, "NULL argument");
    if (n_scratch > 0x7fffffffu) return ta_diag_set(d, TA_E_INVALID_ARG, "too many scratch requests");
    size_t need = ta_lifetime_bytes(g, n_scratch);
    if (!need || !mem || bytes < need)
        return ta_diag_set(d, TA_E_NO_MEMORY, "lifetime analysis needs %zu bytes, has %zu", need, mem ? bytes : 0);
    ta_status st = ta_graph_validate(g, d);
    if (st) return st;
    memset(lt, 0, sizeof *lt);
    walker w;
    memset(&w, 0, sizeof w);
    ta__bump b;
    ta__bump_init_aligned(&b, mem, bytes);
    if (!carve(&b, g, n_scratch, lt, &w)) return TA_E_NO_MEMORY;
    lt->n_tensors = g->n_tensors;
    lt->n_scratch = (uint32_t)n_scratch;
    lt->scratch = scratch;
    lt->n_ops = g->n_ops;
    for (uint32_t i = 0; i < g->n_tensors; i++) lt->first[i] = lt->last[i] = -1;
    for (uint32_t i = 0; i < g->n_ops; i++) {
        lt->op_step[i] = -1;
        w.op_scratch_head[i] = UINT32_MAX;
    }
    if (g->n_subgraphs) memset(w.on_stack, 0, g->n_subgraphs);
    /* Bucket scratch requests by op, keeping request order within an op. */
    for (size_t r = n_scratch; r-- > 0;) {
        lt->scratch_first[r] = lt->scratch_last[r] = -1;
        const ta_op *op = ta_graph_op(g, scratch[r].subgraph, scratch[r].op);
        if (!op)
            return ta_diag_set(d, TA_E_MALFORMED, "scratch request %zu names subgraph %u op %u, which does not exist",
                               r, scratch[r].subgraph, scratch[r].op);
        uint32_t gi = g->subgraphs[scratch[r].subgraph].op_base + scratch[r].op;
        w.scratch_next[r] = w.op_scratch_head[gi];
        w.op_scratch_head[gi] = (uint32_t)r;
    }
    w.g = g;
    w.lt = lt;
    w.scratch = scratch;
    w.d = d;
    w.scope = 0;
    if (g->n_subgraphs) {
        st = mark(&w, 0, 0);
        if (st) return st;
    }
    lt->n_steps = w.scope + 1;
    return TA_OK;
}

int ta_lifetime_is_planned(const ta_tensor *t) {
    return t && !(t->flags & (TA_TENSOR_CONST | TA_TENSOR_VARIABLE | TA_TENSOR_ELIDED)) && t->bytes != 0;
}

/* ---- alignment rules ------------------------------------------------------ */

static bool rule_bytes_ok(uint32_t b) { return b && b <= TA_ALIGN_RULE_MAX && (b & (b - 1)) == 0; }

uint32_t ta_align_rule_code(ta_align_rule r) {
    uint32_t b = r.kind == TA_ALIGN_ARCH && !r.bytes ? 4u : r.bytes;
    if (r.kind == TA_ALIGN_TFLM || r.kind == TA_ALIGN_DTYPE) b = 0;
    return (uint32_t)r.kind | b << 8;
}

bool ta_align_rule_decode(uint32_t code, ta_align_rule *r) {
    const uint32_t k = code & 0xFFu, b = code >> 8;
    bool ok;
    switch (k) {
    case TA_ALIGN_TFLM:
    case TA_ALIGN_DTYPE: ok = b == 0; break;
    case TA_ALIGN_ARCH:
    case TA_ALIGN_FIXED: ok = rule_bytes_ok(b); break;
    default: ok = false;
    }
    if (ok && r) {
        r->kind = (ta_align_kind)k;
        r->bytes = b;
    }
    return ok;
}

ta_status ta_align_rule_parse(const char *s, uint32_t arch_bytes, ta_align_rule *r, ta_diag *d) {
    if (!s || !r) return ta_diag_set(d, TA_E_INVALID_ARG, "NULL argument");
    if (arch_bytes && !rule_bytes_ok(arch_bytes))
        return ta_diag_set(d, TA_E_INVALID_ARG, "architecture word %u is not a power of two up to %u", (unsigned)arch_bytes,
                           TA_ALIGN_RULE_MAX);
    if (!strcmp(s, "tflm")) *r = (ta_align_rule){TA_ALIGN_TFLM, 0};
    else if (!strcmp(s, "dtype")) *r = (ta_align_rule){TA_ALIGN_DTYPE, 0};
    else if (!strcmp(s, "arch")) *r = (ta_align_rule){TA_ALIGN_ARCH, arch_bytes ? arch_bytes : 4u};
    else {
        /* plain decimal only: "08", "+8" or "8k" are not rules */
        unsigned long v = 0;
        size_t n = strlen(s);
        bool digits = n > 0 && n <= 5 && s[0] != '0';
        for (size_t i = 0; digits && i < n; i++) {
            digits = s[i] >= '0' && s[i] <= '9';
            v = v * 10u + (unsigned long)(s[i] - '0');
        }
        if (!digits || !rule_bytes_ok((uint32_t)v))
            return ta_diag_set(d, TA_E_INVALID_ARG, "alignment rule '%.40s': need tflm, dtype, arch or a power of two up to %u",
                               s, TA_ALIGN_RULE_MAX);
        *r = (ta_align_rule){TA_ALIGN_FIXED, (uint32_t)v};
    }
    return TA_OK;
}

/* Written by hand, not with snprintf: the init-table path names rules in
 * its messages, and newlib's printf family would link an allocator into
 * the firmware (which build.sh refuses). */
const char *ta_align_rule_str(ta_align_rule r, char *buf, size_t len) {
    if (!buf || !len) return "";
    const char *word = r.kind == TA_ALIGN_TFLM    ? "tflm"
                       : r.kind == TA_ALIGN_DTYPE ? "dtype"
                       : r.kind == TA_ALIGN_ARCH  ? "arch "
                       : r.kind == TA_ALIGN_FIXED ? "fixed "
                                                  : "unknown";
    size_t at = 0;
    for (const char *p = word; *p && at + 1 < len; p++) buf[at++] = *p;
    if (r.kind == TA_ALIGN_ARCH || r.kind == TA_ALIGN_FIXED) {
        char digits[12];
        size_t nd = 0;
        uint32_t v = r.kind == TA_ALIGN_ARCH && !r.bytes ? 4u : r.bytes;
        do digits[nd++] = (char)('0' + v % 10u);
        while ((v /= 10u) != 0 && nd < sizeof digits);
        while (nd && at + 1 < len) buf[at++] = digits[--nd];
    }
    buf[at] = '\0';
    return buf;
}

size_t ta_align_rule_buffer(ta_align_rule r, size_t elem_bytes, size_t declared, size_t min_align) {
    /* a scalar's natural alignment: its size, up to the 8 of int64/double
     * (complex64 asks 8 where 4 would do: never below what a kernel needs) */
    size_t a = elem_bytes == 0 ? 1 : elem_bytes > 8 ? 8 : elem_bytes;
    if (!ta__is_pow2(a)) a = 8;
    switch (r.kind) {
    case TA_ALIGN_TFLM: a = 16; break;
    case TA_ALIGN_DTYPE: break;
    case TA_ALIGN_ARCH: {
        const size_t w = r.bytes ? r.bytes : 4u;
        if (w > a) a = w;
        break;
    }
    case TA_ALIGN_FIXED:
        if (r.bytes > a) a = r.bytes;
        break;
    }
    if (declared > a) a = declared;
    if (min_align > a) a = min_align;
    return a;
}

ta_status ta_lifetime_requests(const ta_graph *g, const ta_lifetimes *lt, const ta_lifetime_options *opt,
                               ta_request *reqs, ta_buffer_origin *origin, size_t cap, size_t *n,
                               ta_diag *d) {
    if (!g || !lt || !n) return ta_diag_set(d, TA_E_INVALID_ARG, "NULL argument");
    const size_t min_align = opt ? opt->align : 0;
    if (min_align && !ta__is_pow2(min_align))
        return ta_diag_set(d, TA_E_INVALID_ARG, "alignment %zu is not a power of two", min_align);
    const ta_align_rule rule = opt ? opt->rule : (ta_align_rule){TA_ALIGN_TFLM, 0};
    if (!ta_align_rule_decode(ta_align_rule_code(rule), NULL))
        return ta_diag_set(d, TA_E_INVALID_ARG, "alignment rule %u/%u is not a rule", (unsigned)rule.kind, (unsigned)rule.bytes);
    /* TFLM's rule rounds every size to the alignment, as TFLM does; the
     * others leave sizes alone (the planner pads to the alignment) */
    const bool tflm = rule.kind == TA_ALIGN_TFLM;
    const uint32_t *decl = opt ? opt->tensor_align : NULL;
    if (decl && opt->n_tensor_align != g->n_tensors)
        return ta_diag_set(d, TA_E_MALFORMED, "%zu declared alignments for %u tensors", opt->n_tensor_align, g->n_tensors);
    for (uint32_t i = 0; decl && i < g->n_tensors; i++)
        if (decl[i] > TA_ALIGN_RULE_MAX || (decl[i] & (decl[i] - 1)))
            return ta_diag_set(d, TA_E_INVALID_ARG, "tensor %u: declared alignment %u is not a power of two up to %u", (unsigned)i,
                               (unsigned)decl[i], TA_ALIGN_RULE_MAX);
    const int32_t *offline = opt ? opt->offline_offsets : NULL;
    if (offline && opt->n_offline != g->n_tensors)
        return ta_diag_set(d, TA_E_MALFORMED, "%zu offline offsets for %u tensors", opt->n_offline, g->n_tensors);
    const int32_t *group = opt ? opt->buffer_of : NULL;
    if (group && opt->n_buffer_of != g->n_tensors)
        return ta_diag_set(d, TA_E_MALFORMED, "%zu buffer groups entries for %u tensors", opt->n_buffer_of, g->n_tensors);
    const size_t *gat = group ? opt->buffer_at : NULL;
    size_t count = 0;
    for (uint32_t i = 0; i < g->n_tensors; i++) {
        const bool planned = ta_lifetime_is_planned(&g->tensors[i]);
        if (group && group[i] != (int32_t)i) {
            const int32_t r = group[i];
            if (r < 0 || (uint32_t)r >= g->n_tensors || group[r] != r || !planned ||
                !ta_lifetime_is_planned(&g->tensors[r]))
                return ta_diag_set(d, TA_E_MALFORMED, "tensor %u: bad buffer group %d (not flat, or not planned)", i, r);
            if (gat && (gat[r] != 0 || gat[i] > SIZE_MAX / 2 || g->tensors[i].bytes > SIZE_MAX / 2))
                return ta_diag_set(d, TA_E_MALFORMED, "tensor %u: bad offset %zu in tensor %d's buffer", i, gat[i], r);
            if (offline && (offline[i] >= 0 || offline[r] >= 0))
                return ta_diag_set(d, TA_E_BAD_REQUEST, "tensor %u shares tensor %d's buffer but has an offline offset", i, r);
            continue; /* covered by its group's request */
        }
        count += planned ? 1 : 0;
    }
    count += lt->n_scratch;
    *n = count;
    if (!reqs) return TA_OK;
    if (cap < count) return ta_diag_set(d, TA_E_NO_MEMORY, "%zu requests, room for %zu", count, cap);
    size_t k = 0;
    for (uint32_t i = 0; i < g->n_tensors; i++) {
        const ta_tensor *t = &g->tensors[i];
        if (!ta_lifetime_is_planned(t) || (group && group[i] != (int32_t)i)) continue;
        const size_t align = ta_align_rule_buffer(rule, ta_dtype_size(t->dtype), decl ? decl[i] : 0, min_align);
        size_t sz = tflm ? ta__align_up(t->bytes, align) : t->bytes;
        if (sz == SIZE_MAX) return ta_diag_set(d, TA_E_OVERFLOW, "tensor %u: size overflows", i);
        reqs[k] = ta_request_make(sz, lt->first[i], lt->last[i]);
        reqs[k].align = align;
        if (offline && offline[i] >= 0) reqs[k].fixed = (size_t)offline[i];
        if (origin) {
            origin[k].kind = TA_BUFFER_TENSOR;
            origin[k].index = i;
        }
        k++;
    }
    /* Members widen their group's request.  A group's request is the
     * (number of listed tensors before r)-th; members are few (one per
     * rewritten op), so counting is cheaper than a map we have no room for. */
    for (uint32_t i = 0; group && i < g->n_tensors; i++) {
        const int32_t r = group[i];
        if (r == (int32_t)i || !ta_lifetime_is_planned(&g->tensors[i])) continue;
        size_t at = 0;
        for (int32_t j = 0; j < r; j++) at += ta_lifetime_is_planned(&g->tensors[j]) && group[j] == j ? 1 : 0;
        const size_t align = ta_align_rule_buffer(rule, ta_dtype_size(g->tensors[i].dtype), decl ? decl[i] : 0, min_align);
        /* a member at an offset (a slice of a concatenation) reaches that far */
        const size_t reach = g->tensors[i].bytes + (gat ? gat[i] : 0);
        size_t sz = tflm ? ta__align_up(reach, align) : reach;
        if (sz == SIZE_MAX) return ta_diag_set(d, TA_E_OVERFLOW, "tensor %u: size overflows", i);
        ta_request *q = &reqs[at];
        if (sz > q->size) q->size = sz;
        if (align > q->align) q->align = align; /* every member's alignment holds */
        if (lt->first[i] >= 0 && (q->first < 0 || lt->first[i] < q->first)) q->first = lt->first[i];
        if (lt->last[i] > q->last) q->last = lt->last[i];
    }
    for (uint32_t r = 0; r < lt->n_scratch; r++) {
        /* scratch has no element type: its op declares what its kernel
         * reads through it (0: 16, the most any kernel here asks) */
        const size_t sa = lt->scratch[r].align;
        if (sa && (sa > TA_ALIGN_RULE_MAX || !ta__is_pow2(sa)))
            return ta_diag_set(d, TA_E_INVALID_ARG, "scratch %u: declared alignment %zu is not a power of two up to %u", (unsigned)r,
                               sa, TA_ALIGN_RULE_MAX);
        const size_t align = ta_align_rule_buffer(rule, 1, sa ? sa : 16, min_align);
        size_t sz = tflm ? ta__align_up(lt->scratch[r].bytes, align) : lt->scratch[r].bytes;
        if (sz == SIZE_MAX) return ta_diag_set(d, TA_E_OVERFLOW, "scratch %u: size overflows", r);
        reqs[k] = ta_request_make(sz, lt->scratch_first[r], lt->scratch_last[r]);
        reqs[k].align = align;
        if (origin) {
            origin[k].kind = TA_BUFFER_SCRATCH;
            origin[k].index = r;
        }
        k++;
    }
    return TA_OK;
}
