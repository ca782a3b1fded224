/*
 * The op layer's generic half: the frozen record (encode, decode, header
 * words), the prepare and invoke drivers that find an op's definition in an
 * op list, and the helpers every op file's prepare shares.  What one kind
 * does lives in its own file (op.h).
 *
 * The record is frozen: portable and position-independent, so that it can
 * be exported (ta_runtime_export_consts), emitted into a C header on a host
 * and read from flash on a target with another ABI.  It holds no pointer and
 * no size_t, only 32-bit words in the host's byte order:
 *
 *   w0 kind | path << 16     w1 n_in | n_out << 16
 *   w2 scratch bytes         w3 np: params words
 *   io[n_in + n_out]         tensor indices (-1: absent)
 *   params[np]               the kind's params, field by field
 *   tables                   8-aligned: per-channel multipliers (int32) and
 *                            shifts (int8), concat sizes (int64), twiddles
 *
 * A pointer field is written as its table's offset from the record start
 * (0: NULL), a size_t as a 32-bit word, an int64 as two words, a bool as 0/1.
 * Invoke decodes the record into the kind's params struct on the stack
 * (pointers resolved against the record) and calls the kind's invoke.
 */
#include "runtime/ops/op.h"

#define HDR_WORDS 4u
#define REC_ALIGN 8u

/* ---- the table ----------------------------------------------------------- */

const ta_op_def *ta__op_def_of_kind(const ta_op_list *list, unsigned kind) {
    for (uint32_t i = 0; list && i < list->count; i++)
        if (list->defs[i] && list->defs[i]->kind == kind) return list->defs[i];
    return NULL;
}

/* Builtin kinds match by kind; the signal library's custom ops by name. */
const ta_op_def *ta__op_def_for(const ta_op_list *list, const ta_op *op) {
    for (uint32_t i = 0; list && op && i < list->count; i++) {
        const ta_op_def *d = list->defs[i];
        if (!d) continue;
        if (d->kind >= TA__K_SIGNAL ? op->kind == TA_OP_CUSTOM && op->custom_name && !strcmp(op->custom_name, d->name)
                                    : (unsigned)op->kind == d->kind)
            return d;
    }
    return NULL;
}

const char *ta_op_def_name(const ta_op_def *def) { return def ? def->name : "UNKNOWN"; }

uint32_t ta_op_def_types(const ta_op_def *def) { return def ? def->types : 0; }

void ta_op_list_inplace_kinds(const ta_op_list *ops, ta_op_kind_set *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; ops && i < ops->count; i++) {
        const ta_op_def *d = ops->defs[i];
        if (d && (d->flags & TA__OP_INPLACE) && d->kind < TA_OP_KIND_COUNT)
            ta_op_kind_set_add(out, (ta_op_kind)d->kind);
    }
}

void ta_op_list_overlap_kinds(const ta_op_list *ops, ta_op_kind_set *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    for (uint32_t i = 0; ops && i < ops->count; i++) {
        const ta_op_def *d = ops->defs[i];
        if (d && d->overlap != TA__OVERLAP_NONE && d->kind < TA_OP_KIND_COUNT) ta_op_kind_set_add(out, (ta_op_kind)d->kind);
    }
}

static ta_status no_kernel(const ta_op_list *list, const ta_op *op, uint32_t index, ta_diag *diag) {
    const char *name = (op->kind == TA_OP_CUSTOM || op->kind == TA_OP_OTHER) && op->custom_name
                           ? op->custom_name
                           : ta_op_kind_str(op->kind);
    if (list && list->complete)
        return ta_diag_set(diag, TA_E_UNSUPPORTED, "op %u (%s): no kernel for this op", index, name);
    return ta_diag_set(diag, TA_E_UNSUPPORTED, "op %u (%s): no kernel for this op in the runtime's op list", index,
                       name);
}

ta_status ta_op_list_needed(const ta_op_list *from, const ta_graph *g, const ta_op_def **out, size_t cap, size_t *n,
                            ta_diag *diag) {
    if (!from || !g || !n || (cap && !out)) return TA_E_INVALID_ARG;
    *n = 0;
    if (!g->n_subgraphs) return TA_OK;
    /* every subgraph's ops: the runtime runs them all (control flow) */
    for (uint32_t o = 0; o < g->n_ops; o++) {
        const ta_op *op = &g->ops[o];
        if (!ta__op_def_for(from, op)) return no_kernel(from, op, (uint32_t)op->index, diag);
    }
    /* from's order, each definition once */
    for (uint32_t i = 0; i < from->count; i++) {
        const ta_op_def *d = from->defs[i];
        bool used = false, seen = false;
        for (uint32_t o = 0; d && !used && o < g->n_ops; o++) used = ta__op_def_for(from, &g->ops[o]) == d;
        for (uint32_t j = 0; used && j < i; j++) seen = seen || from->defs[j] == d;
        if (!used || seen) continue;
        if (*n < cap) out[*n] = d;
        ++*n;
    }
    return *n > cap && out ? TA_E_NO_MEMORY : TA_OK;
}

/* ---- fields ---------------------------------------------------------------- */

static size_t field_size(unsigned t) {
    switch (t) {
        case TA__F_I32:
        case TA__F_F32:
        case TA__F_RAW4: return 4;
        case TA__F_BOOL: return sizeof(bool);
        case TA__F_SIZE: return sizeof(size_t);
        case TA__F_I64: return sizeof(int64_t);
        case TA__F_DTYPE: return sizeof(ta_dtype);
        case TA__F_PTR: return sizeof(const void *);
        default: return 0; /* TA__F_EDGE */
    }
}

static size_t field_align(unsigned t) {
    switch (t) {
        case TA__F_I32: return _Alignof(int32_t);
        case TA__F_F32: return _Alignof(float);
        case TA__F_RAW4: return 1;
        case TA__F_BOOL: return _Alignof(bool);
        case TA__F_SIZE: return _Alignof(size_t);
        case TA__F_I64: return _Alignof(int64_t);
        case TA__F_DTYPE: return _Alignof(ta_dtype);
        case TA__F_PTR: return _Alignof(const void *);
        case TA__F_EDGE: return _Alignof(ta_requant);
        default: return 1;
    }
}

/* Record words a definition's params take. */
static size_t params_words(const ta_op_def *d) {
    size_t w = 0;
    for (size_t i = 0; d && i < d->n_fields; i++)
        w += (size_t)d->fields[i].count * (d->fields[i].type == TA__F_I64 ? 2u : 1u);
    return w;
}

/* Writes the params' fields as record words at out; pointers become offsets
 * from rec (they must point into [rec, rec + rec_bytes)).  False when a
 * value does not fit its word. */
static bool encode(const ta_op_def *d, const void *params, const uint8_t *rec, size_t rec_bytes, uint8_t *out) {
    const uint8_t *base = (const uint8_t *)params;
    for (size_t i = 0; i < d->n_fields; i++) {
        const ta__field *f = &d->fields[i];
        const size_t es = field_size(f->type);
        for (unsigned k = 0; k < f->count; k++) {
            const uint8_t *src = base + f->off + k * es;
            uint32_t w = 0;
            switch (f->type) {
                case TA__F_I32:
                case TA__F_F32:
                case TA__F_RAW4: memcpy(&w, src, 4); break;
                case TA__F_BOOL: {
                    bool b;
                    memcpy(&b, src, sizeof b);
                    w = b ? 1u : 0u;
                    break;
                }
                case TA__F_SIZE: {
                    size_t v;
                    memcpy(&v, src, sizeof v);
                    if (v > UINT32_MAX) return false;
                    w = (uint32_t)v;
                    break;
                }
                case TA__F_I64: {
                    int64_t v;
                    memcpy(&v, src, sizeof v);
                    ta__wr32(out, (uint32_t)((uint64_t)v & 0xFFFFFFFFu));
                    out += 4;
                    w = (uint32_t)((uint64_t)v >> 32);
                    break;
                }
                case TA__F_DTYPE: {
                    ta_dtype t;
                    memcpy(&t, src, sizeof t);
                    w = (uint32_t)t;
                    break;
                }
                case TA__F_PTR: {
                    const uint8_t *p;
                    memcpy(&p, src, sizeof p);
                    if (p && (p < rec || p >= rec + rec_bytes)) return false;
                    w = p ? (uint32_t)(p - rec) : 0u;
                    break;
                }
                default: return false;
            }
            ta__wr32(out, w);
            out += 4;
        }
    }
    return true;
}

/* The inverse: the params words of rec into params (zeroed first). */
static void decode(const ta_op_def *d, const uint8_t *rec, void *params) {
    memset(params, 0, d->params_bytes);
    const uint32_t w1 = ta__rd32(rec + 4);
    const uint8_t *in = rec + 4 * (HDR_WORDS + (size_t)(w1 & 0xFFFFu) + (w1 >> 16));
    uint8_t *base = (uint8_t *)params;
    for (size_t i = 0; i < d->n_fields; i++) {
        const ta__field *f = &d->fields[i];
        const size_t es = field_size(f->type);
        for (unsigned k = 0; k < f->count; k++) {
            uint8_t *dst = base + f->off + k * es;
            const uint32_t w = ta__rd32(in);
            in += 4;
            switch (f->type) {
                case TA__F_I32:
                case TA__F_F32:
                case TA__F_RAW4: memcpy(dst, &w, 4); break;
                case TA__F_BOOL: {
                    bool b = w != 0;
                    memcpy(dst, &b, sizeof b);
                    break;
                }
                case TA__F_SIZE: {
                    size_t v = w;
                    memcpy(dst, &v, sizeof v);
                    break;
                }
                case TA__F_I64: {
                    uint64_t v = (uint64_t)w | (uint64_t)ta__rd32(in) << 32;
                    in += 4;
                    int64_t sv = (int64_t)v;
                    memcpy(dst, &sv, sizeof sv);
                    break;
                }
                case TA__F_DTYPE: {
                    ta_dtype t = (ta_dtype)w;
                    memcpy(dst, &t, sizeof t);
                    break;
                }
                case TA__F_PTR: {
                    const uint8_t *p = w ? rec + w : NULL;
                    memcpy(dst, &p, sizeof p);
                    break;
                }
                default: break;
            }
        }
    }
}

/* C places each member at the first offset past the previous one that its
 * alignment allows, so a described member must sit exactly there -- any
 * other gap is a member the list forgot.  A forgotten member small enough
 * to hide in the padding before the next one is what clear_padding finds:
 * every byte that is neither padding nor described must not exist. */
ta_status ta__op_def_layout_check(const ta_op_def *d, ta_diag *diag) {
    _Alignas(16) unsigned char buf[TA__OP_PARAMS_MAX];
    if (d->params_bytes > sizeof buf)
        return ta_diag_set(diag, TA_E_MALFORMED, "%s record: params above %u bytes", d->name, TA__OP_PARAMS_MAX);
    size_t at = 0, max_align = 1;
    for (size_t i = 0; i < d->n_fields; i++) {
        const ta__field *f = &d->fields[i];
        const size_t a = field_align(f->type);
        const size_t want = (at + a - 1) / a * a;
        if (a > max_align) max_align = a;
        if (f->off != want)
            return ta_diag_set(diag, TA_E_MALFORMED,
                               "%s record: field %zu is at byte %u, expected %zu (a member is not described)", d->name,
                               i, f->off, want);
        at = f->off + field_size(f->type) * f->count;
    }
    if ((at + max_align - 1) / max_align * max_align != d->params_bytes)
        return ta_diag_set(diag, TA_E_MALFORMED, "%s record: bytes %zu..%u are not described", d->name, at,
                           d->params_bytes);
    if (!d->clear_padding) return TA_OK;
    memset(buf, 0xFF, sizeof buf);
    d->clear_padding(buf);
    for (size_t i = 0; i < d->n_fields; i++) /* described bytes: zero them too */
        memset(buf + d->fields[i].off, 0, field_size(d->fields[i].type) * d->fields[i].count);
    for (size_t i = 0; i < d->params_bytes; i++)
        if (buf[i])
            return ta_diag_set(diag, TA_E_MALFORMED, "%s record: byte %zu holds a member that is not described",
                               d->name, i);
    return TA_OK;
}

/* ---- prepare --------------------------------------------------------------- */

/* Checks every operand before any kind-specific prepare (issue 9):
 *  - no op writes a constant: its bytes are the model's, in flash on a target;
 *  - a constant holds at least the bytes its shape says the kernel reads
 *    (the importer guarantees it; a graph built through graph.h may not);
 *  - every shape, with 0 dims counted as 1, has at most INT32_MAX elements.
 *    Kernels index with int32, and prepare multiplies subsets of dims in
 *    int64: with this bound no such product can overflow;
 *  - no dim is -1 (unknown: the planner sizes it as 1, but the kinds'
 *    prepares read dims as extents) and no output has a 0 dim (the runtime
 *    gives zero-size tensors no bytes, and kernels refuse a NULL buffer);
 *  - quantisation: every scale is finite and >= 0 (prepares divide by them
 *    and convert ratios to integers), every zero point fits the tensor's
 *    type (int8 -128..127, uint8 0..255, int16 -32768..32767, others int32
 *    without INT32_MIN): kernels add and negate them in int32. */
static ta_status operands_ok(const ta__op_ctx *c) {
    for (uint32_t k = 0; k < c->op->n_inputs + c->op->n_outputs; k++) {
        const bool is_out = k >= c->op->n_inputs;
        const int32_t idx = is_out ? c->op->outputs[k - c->op->n_inputs] : c->op->inputs[k];
        const ta_tensor *t = idx >= 0 ? ta_graph_tensor(c->g, c->sg, idx) : NULL;
        if (!t) continue;
        if (is_out && (t->flags & TA_TENSOR_CONST || t->data))
            return ta_diag_set(c->diag, TA_E_MALFORMED,
                               "op %u (%s): output tensor %d '%s' is a constant (would write into the model)", c->index,
                               ta__op_ctx_name(c), idx, t->name);
        for (uint32_t q = 0; q < t->quant.count; q++) {
            const float sc = t->quant.scale ? t->quant.scale[q] : 0.0f;
            const int64_t zp = t->quant.zero_point ? t->quant.zero_point[q] : 0;
            const int64_t lo = t->dtype == TA_DTYPE_INT8    ? -128
                               : t->dtype == TA_DTYPE_UINT8 ? 0
                               : t->dtype == TA_DTYPE_INT16 ? -32768
                                                            : -INT32_MAX;
            const int64_t hi = t->dtype == TA_DTYPE_INT8    ? 127
                               : t->dtype == TA_DTYPE_UINT8 ? 255
                               : t->dtype == TA_DTYPE_INT16 ? 32767
                                                            : INT32_MAX;
            if (!(sc >= 0.0f && sc <= 3.4e38f))
                return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): tensor %d has a negative, infinite or NaN scale",
                                   c->index, ta__op_ctx_name(c), idx);
            if (zp < lo || zp > hi)
                return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): tensor %d has zero point %lld, outside its %s range",
                                   c->index, ta__op_ctx_name(c), idx, (long long)zp, ta_dtype_str(t->dtype));
        }
        if (t->data && ta_dtype_size(t->dtype) && t->data_bytes < t->bytes)
            return ta_diag_set(c->diag, TA_E_MALFORMED,
                               "op %u (%s): constant tensor %d holds %zu bytes, its shape needs %zu", c->index,
                               ta__op_ctx_name(c), idx, t->data_bytes, t->bytes);
        int64_t n = 1;
        for (int32_t d = 0; d < t->rank; d++) {
            if (t->shape[d] < 0)
                return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): tensor %d has an unknown (-1) dim", c->index,
                                   ta__op_ctx_name(c), idx);
            if (is_out && t->shape[d] == 0)
                return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): output tensor %d has no elements (a 0 dim)",
                                   c->index, ta__op_ctx_name(c), idx);
            n *= t->shape[d] > 1 ? t->shape[d] : 1;
            if (n > INT32_MAX)
                return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): tensor %d has more than 2^31-1 elements",
                                   c->index, ta__op_ctx_name(c), idx);
        }
    }
    return TA_OK;
}

ta_status ta__op_prepare_in(const ta_op_list *ops, const ta_graph *g, uint32_t sg, uint32_t op_index, void *data,
                            size_t data_bytes, ta__op_info *info, ta_diag *diag) {
    if (!g || !info) return TA_E_INVALID_ARG;
    const ta_op *op = ta_graph_op(g, sg, op_index);
    if (!op) return ta_diag_set(diag, TA_E_INVALID_ARG, "op %u: no such op", op_index);
    if (data && ((uintptr_t)data & 7u))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "op %u: misaligned op data", op_index);
    ta__op_ctx c;
    memset(&c, 0, sizeof c);
    c.g = g;
    c.sg = sg;
    c.index = op_index;
    c.op = op;
    c.diag = diag;
    ta_status st = operands_ok(&c); /* before the kind: what no kernel may meet */
    if (st) return st;
    const ta_op_def *def = ta__op_def_for(ops, op);
    if (!def) return no_kernel(ops, op, op_index, diag);
    if (!def->prepare) /* TA_OPS_NO_PREPARE (op.h) */
        return ta_diag_set(diag, TA_E_UNSUPPORTED,
                           "op %u (%s): built without prepare (TA_OPS_NO_PREPARE): init from a budget's init table",
                           op_index, def->name);
    _Alignas(16) unsigned char params[TA__OP_PARAMS_MAX];
    memset(params, 0, sizeof params);
    c.def = def;
    c.params = params;
    ta__bump_init(&c.carve, data, data_bytes);
    if (data) memset(data, 0, data_bytes); /* padding too: records compare byte for byte */
    const size_t words = params_words(def);
    const uint32_t n_io = op->n_inputs + op->n_outputs;
    uint8_t *rec = ta__bump_take_aligned(&c.carve, HDR_WORDS + n_io + words, 4u, REC_ALIGN);
    const size_t fixed_bytes = c.carve.used;
    st = def->prepare(&c);
    /* Everything a kind's prepare hands to a kernel helper comes from the
     * model: a helper's TA_E_INVALID_ARG (a scale or range it cannot take)
     * is the model's value, not the caller's mistake (the diag says which). */
    if (st == TA_E_INVALID_ARG) st = TA_E_UNSUPPORTED;
    if (st) return st;
    if (c.scratch > UINT32_MAX) return ta__op_fail(&c, TA_E_UNSUPPORTED, "scratch above 4 GiB");
    if (c.state > UINT32_MAX) return ta__op_fail(&c, TA_E_UNSUPPORTED, "op state above 4 GiB");
    if (c.carve.used > UINT32_MAX) return ta__op_fail(&c, TA_E_UNSUPPORTED, "op record above 4 GiB");
    info->data_bytes = c.carve.used;
    info->scratch_bytes = c.scratch;
    info->state_bytes = c.state;
    info->table_bytes = c.carve.used - fixed_bytes;
    if (!data) return TA_OK;
    if (c.carve.used > data_bytes || !rec)
        return ta_diag_set(diag, TA_E_NO_MEMORY, "op %u: op data needs %zu bytes, has %zu", op_index, c.carve.used,
                           data_bytes);
    ta__wr32(rec, (uint32_t)def->kind | (uint32_t)c.path << 16);
    ta__wr32(rec + 4, (uint32_t)op->n_inputs | (uint32_t)op->n_outputs << 16);
    ta__wr32(rec + 8, (uint32_t)c.scratch);
    ta__wr32(rec + 12, (uint32_t)words);
    for (uint32_t k = 0; k < n_io; k++)
        ta__wr32(rec + 4 * (HDR_WORDS + k),
                 (uint32_t)(k < op->n_inputs ? op->inputs[k] : op->outputs[k - op->n_inputs]));
    if (!encode(def, params, rec, c.carve.used, rec + 4 * (HDR_WORDS + n_io)))
        return ta__op_fail(&c, TA_E_UNSUPPORTED, "a parameter does not fit its 32-bit record word");
    return TA_OK;
}

/* ---- invoke and the record's header ------------------------------------------ */

static unsigned rec_kind(const void *rec) { return ta__rd32((const uint8_t *)rec) & 0xFFFFu; }

uint32_t ta__op_scratch_bytes(const void *rec) { return rec ? ta__rd32((const uint8_t *)rec + 8) : 0; }

ta_op_kind ta__op_kind(const void *rec) {
    if (!rec) return TA_OP_OTHER;
    const unsigned rk = rec_kind(rec);
    return rk >= TA__K_SIGNAL ? TA_OP_CUSTOM : rk < TA_OP_KIND_COUNT ? (ta_op_kind)rk : TA_OP_OTHER;
}

const char *ta__op_name_in(const ta_op_list *ops, const void *rec) {
    return rec ? ta_op_def_name(ta__op_def_of_kind(ops, rec_kind(rec))) : "OTHER";
}

uint32_t ta__op_state_bytes_in(const ta_op_list *ops, const void *rec) {
    const ta_op_def *d = rec ? ta__op_def_of_kind(ops, rec_kind(rec)) : NULL;
    if (!d || !(d->flags & TA__OP_STATE) || !d->state_bytes) return 0;
    _Alignas(16) unsigned char params[TA__OP_PARAMS_MAX];
    decode(d, (const uint8_t *)rec, params);
    return d->state_bytes(params);
}

uint32_t ta__op_output(const void *rec, uint32_t k, int32_t *tensor) {
    if (!rec) return 0;
    const uint8_t *r = (const uint8_t *)rec;
    const uint32_t w1 = ta__rd32(r + 4), n_in = w1 & 0xFFFFu, n_out = w1 >> 16;
    if (k < n_out && tensor) *tensor = (int32_t)ta__rd32(r + 4 * (HDR_WORDS + n_in + k));
    return n_out;
}

uint32_t ta__op_input(const void *rec, uint32_t k, int32_t *tensor) {
    if (!rec) return 0;
    const uint8_t *r = (const uint8_t *)rec;
    const uint32_t n_in = ta__rd32(r + 4) & 0xFFFFu;
    if (k < n_in && tensor) *tensor = (int32_t)ta__rd32(r + 4 * (HDR_WORDS + k));
    return n_in;
}

bool ta__op_has_def(const ta_op_list *ops, const void *rec) {
    return rec && ta__op_def_of_kind(ops, rec_kind(rec)) != NULL;
}

bool ta__op_walks_rows(const ta_op_list *ops, const void *rec) {
    const ta_op_def *d = rec ? ta__op_def_of_kind(ops, rec_kind(rec)) : NULL;
    return d && d->overlap != TA__OVERLAP_NONE; /* ROWS, or a checked forward gather */
}

ta_status ta__op_invoke_in(const ta_op_list *ops, const void *rec, void *const *ptrs, void *scratch, void *state,
                           ta_diag *diag) {
    return ta__op_invoke_checked(ops, rec, ptrs, scratch, state, false, diag);
}

bool ta__op_row_window(int32_t oy, int32_t stride, int32_t pad, int32_t dilation, int32_t taps, int32_t in_h,
                       int32_t *first, int32_t *lead) {
    /* the same first in-bounds tap walk.c's ROWS walk takes, so the runtime
     * cuts exactly the rows the declared relation was derived for */
    const int64_t base = (int64_t)oy * stride - pad;
    int64_t k = 0;
    if (base < 0) k = (-base + dilation - 1) / dilation;
    const int64_t row = base + k * dilation;
    if (k >= taps || row >= in_h) return false;
    *first = (int32_t)row;
    *lead = (int32_t)(row - base);
    return true;
}

int32_t ta__op_rows_low(int32_t oy, int32_t out_h, int32_t stride, int32_t pad, int32_t dilation, int32_t taps,
                        int32_t in_h) {
    int32_t lo = -1;
    for (int32_t r = oy; r < out_h; r++) {
        /* a row whose window starts at or below lo (in bounds) reads
         * nothing lower, and neither does any row after it */
        if (lo >= 0 && (int64_t)r * stride - pad >= lo) break;
        int32_t f, lead;
        if (ta__op_row_window(r, stride, pad, dilation, taps, in_h, &f, &lead) && (lo < 0 || f < lo)) lo = f;
    }
    return lo;
}

ta_status ta__op_reduce_axes(ta__op_ctx *c, ta_mean_params *m) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    const int32_t *axes;
    int64_t na;
    if ((st = ta__op_const_i32(c, ta__op_in(c, 1), &axes, &na))) return st;
    if (ta_mean_axes(m, in->shape, in->rank, axes, (int32_t)na))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "bad axes or rank > 5");
    int64_t no = 1;
    for (int32_t d = 0; d < m->rank; d++)
        if (!m->reduce[d]) no *= m->in_shape[d];
    if (no != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size does not match the reduction");
    if (in->dtype != out->dtype) return ta__op_fail_type(c, "output", out->dtype);
    return TA_OK;
}

ta_status ta__op_rows_walk(const ta__op_run *r, const ta__op_rows_geom *g, const void *in_v, void *out_v,
                           ta__op_band_fn call, const void *ctx) {
    const uint8_t *in = in_v;
    uint8_t *out = out_v;
    const size_t xs = (size_t)g->in_n * (size_t)g->in_h * g->in_row;
    const size_t ys = (size_t)g->out_n * (size_t)g->out_h * g->out_row;
    if (!ta__op_bytes_overlap(in, xs, out, ys)) return call(r, ctx, NULL);
    for (int32_t n = 0; n < g->out_n; n++)
        for (int32_t oy = 0; oy < g->out_h;) {
            const int32_t first = ta__op_rows_low(oy, g->out_h, g->stride, g->pad, g->dilation, g->taps, g->in_h);
            if (first < 0) return TA_E_OVERLAP; /* no walk declares an overlap here (walk.h) */
            const int32_t lead = first - (oy * g->stride - g->pad); /* >= 0: a window starts at or above it */
            ta__op_band b;
            b.in = in + ((size_t)n * (size_t)g->in_h + (size_t)first) * g->in_row;
            b.out = out + ((size_t)n * (size_t)g->out_h + (size_t)oy) * g->out_row;
            int32_t rows = ta__op_rows_band(b.in, in + xs, b.out, g->out_row, g->out_h - oy);
            if (!rows) {
                if (r->check_walk) return TA_E_OVERLAP;
                rows = 1; /* the plan is trusted outside poison mode */
            }
            b.out_h = rows;
            b.in_h = g->in_h - first;
            b.pad = lead;
            const ta_status st = call(r, ctx, &b);
            if (st) return st;
            oy += rows;
        }
    return TA_OK;
}

ta_status ta__op_invoke_checked(const ta_op_list *ops, const void *rec, void *const *ptrs, void *scratch, void *state,
                                bool check_walk, ta_diag *diag) {
    return ta__op_invoke_host(ops, rec, ptrs, scratch, state, check_walk, NULL, diag);
}

bool ta__op_needs_host(const ta_op_list *ops, const void *rec) {
    const ta_op_def *d = rec ? ta__op_def_of_kind(ops, rec_kind(rec)) : NULL;
    return d && (d->flags & TA__OP_HOST);
}

const struct ta__flow_table *ta__op_flow_table(const ta_op_list *ops, const void *rec) {
    const ta_op_def *d = rec ? ta__op_def_of_kind(ops, rec_kind(rec)) : NULL;
    return d && (d->flags & TA__OP_HOST) ? d->flow_table : NULL;
}

ta_status ta__op_invoke_host(const ta_op_list *ops, const void *rec, void *const *ptrs, void *scratch, void *state,
                             bool check_walk, const ta__op_host *host, ta_diag *diag) {
    if (!rec || !ptrs) return TA_E_INVALID_ARG;
    const uint8_t *r = (const uint8_t *)rec;
    const unsigned rk = rec_kind(rec);
    const ta_op_def *d = ta__op_def_of_kind(ops, rk);
    if (!d) return ta_diag_set(diag, TA_E_UNSUPPORTED, "record kind %u: no kernel in the runtime's op list", rk);
    _Alignas(16) unsigned char params[TA__OP_PARAMS_MAX];
    decode(d, r, params);
    const uint32_t w0 = ta__rd32(r), w1 = ta__rd32(r + 4);
    ta__op_run run;
    run.params = params;
    run.kind = rk;
    run.path = (uint8_t)(w0 >> 16);
    run.n_in = (uint16_t)(w1 & 0xFFFFu);
    run.n_out = (uint16_t)(w1 >> 16);
    run.io = (const int32_t *)(const void *)(r + 4 * HDR_WORDS);
    run.ptrs = ptrs;
    run.scratch = scratch;
    run.scratch_bytes = ta__rd32(r + 8);
    run.state = state;
    run.check_walk = check_walk;
    run.host = host;
    run.diag = diag;
    if ((d->flags & TA__OP_HOST) && !host)
        return ta_diag_set(diag, TA_E_UNSUPPORTED, "%s runs only inside the runtime (no host)", d->name);
    const ta_status st = d->invoke(&run);
    if (st && (d->flags & TA__OP_HOST)) return st; /* its diag says where (a nested op, the cap) */
    if (st == TA_E_OVERLAP && check_walk)
        return ta_diag_set(diag, st, "%s writes an output row over input bytes its row walk still reads (the plan overlaps "
                                     "its output and input closer than the walk's relation permits)", d->name);
    if (st) return ta_diag_set(diag, st, "%s kernel failed: %s", d->name, ta_status_str(st));
    return TA_OK;
}

/* The run a record decodes to (params into the caller's buffer). */
static const ta_op_def *decode_run(const ta_op_list *ops, const void *rec, void *const *ptrs, void *params,
                                   ta__op_run *run) {
    const uint8_t *r = (const uint8_t *)rec;
    const ta_op_def *d = ta__op_def_of_kind(ops, rec_kind(rec));
    if (!d) return NULL;
    decode(d, r, params);
    const uint32_t w0 = ta__rd32(r), w1 = ta__rd32(r + 4);
    memset(run, 0, sizeof *run);
    run->params = params;
    run->kind = rec_kind(rec);
    run->path = (uint8_t)(w0 >> 16);
    run->n_in = (uint16_t)(w1 & 0xFFFFu);
    run->n_out = (uint16_t)(w1 >> 16);
    run->io = (const int32_t *)(const void *)(r + 4 * HDR_WORDS);
    run->ptrs = ptrs;
    run->scratch_bytes = ta__rd32(r + 8);
    return d;
}

bool ta__op_band_rows(const ta_op_list *ops, const void *rec, int32_t rows[6], size_t *in_row, size_t *out_row) {
    _Alignas(16) unsigned char params[TA__OP_PARAMS_MAX];
    ta__op_run run;
    const ta_op_def *d = rec ? decode_run(ops, rec, NULL, params, &run) : NULL;
    if (!d || !d->banded) return false;
    ta__op_rows_geom g;
    d->banded->geom(&run, &g);
    if (g.in_n != 1 || g.out_n != 1) return false;
    rows[0] = g.in_h, rows[1] = g.out_h, rows[2] = g.stride, rows[3] = g.pad, rows[4] = g.dilation, rows[5] = g.taps;
    *in_row = g.in_row;
    *out_row = g.out_row;
    return true;
}

ta_status ta__op_invoke_band(const ta_op_list *ops, const void *rec, void *const *ptrs, void *scratch,
                             const ta__op_band_call *band, ta_diag *diag) {
    if (!rec || !ptrs || !band) return TA_E_INVALID_ARG;
    _Alignas(16) unsigned char params[TA__OP_PARAMS_MAX];
    ta__op_run run;
    const ta_op_def *d = decode_run(ops, rec, ptrs, params, &run);
    if (!d || !d->banded) return ta_diag_set(diag, TA_E_UNSUPPORTED, "record kind %u cannot run on bands", rec_kind(rec));
    run.scratch = scratch;
    const ta__op_band b = {(const uint8_t *)band->in, (uint8_t *)band->out, band->in_h, band->out_h, band->pad,
                           (const uint8_t *)band->in2, band->h};
    const ta_status st = d->banded->set_rows ? ta__op_elem_band(d, &run, params, &b) : d->banded->band(&run, params, &b);
    if (st) return ta_diag_set(diag, st, "%s kernel failed on a band: %s", d->name, ta_status_str(st));
    return TA_OK;
}

/* ---- shared prepare helpers ---------------------------------------------------- */

const char *ta__op_ctx_name(const ta__op_ctx *c) {
    return c->op->kind == TA_OP_CUSTOM && c->op->custom_name ? c->op->custom_name : ta_op_kind_str(c->op->kind);
}

ta_status ta__op_fail(const ta__op_ctx *c, ta_status st, const char *what) {
    return ta_diag_set(c->diag, st, "op %u (%s): %s", c->index, ta__op_ctx_name(c), what);
}

ta_status ta__op_fail_type(const ta__op_ctx *c, const char *role, ta_dtype t) {
    return ta_diag_set(c->diag, TA_E_UNSUPPORTED, "op %u (%s): %s type %s is not supported", c->index,
                       ta__op_ctx_name(c), role, ta_dtype_str(t));
}

const ta_tensor *ta__op_in(const ta__op_ctx *c, uint32_t k) {
    if (k >= c->op->n_inputs || c->op->inputs[k] < 0) return NULL;
    return ta_graph_tensor(c->g, c->sg, c->op->inputs[k]);
}

const ta_tensor *ta__op_out(const ta__op_ctx *c, uint32_t k) {
    if (k >= c->op->n_outputs || c->op->outputs[k] < 0) return NULL;
    return ta_graph_tensor(c->g, c->sg, c->op->outputs[k]);
}

float ta__op_scale(const ta_tensor *t) { return t->quant.count && t->quant.scale ? t->quant.scale[0] : 0.0f; }
int32_t ta__op_zp(const ta_tensor *t) {
    return t->quant.count && t->quant.zero_point ? (int32_t)t->quant.zero_point[0] : 0;
}
int64_t ta__op_elems(const ta_tensor *t) { return (int64_t)ta_tensor_elements(t); }

void *ta__op_take(ta__op_ctx *c, size_t bytes) { return ta__bump_take_aligned(&c->carve, 1, bytes, REC_ALIGN); }

ta_status ta__op_need_io(ta__op_ctx *c, uint32_t min_in, uint32_t max_in, uint32_t n_out) {
    if (c->op->n_inputs < min_in || c->op->n_inputs > max_in || c->op->n_outputs != n_out)
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): expects %u..%u inputs and %u outputs, has %u and %u",
                           c->index, ta__op_ctx_name(c), min_in, max_in, n_out, c->op->n_inputs, c->op->n_outputs);
    for (uint32_t k = 0; k < min_in; k++)
        if (!ta__op_in(c, k)) return ta__op_fail(c, TA_E_MALFORMED, "a required input is missing");
    for (uint32_t k = 0; k < n_out; k++)
        if (!ta__op_out(c, k)) return ta__op_fail(c, TA_E_MALFORMED, "an output is missing");
    return TA_OK;
}

ta_status ta__op_dims4(const ta__op_ctx *c, const ta_tensor *t, ta_dims4 *d) {
    if (t->rank != 4) return ta__op_fail(c, TA_E_MALFORMED, "expects 4-D tensors");
    d->n = t->shape[0];
    d->h = t->shape[1];
    d->w = t->shape[2];
    d->c = t->shape[3];
    if (d->n <= 0 || d->h <= 0 || d->w <= 0 || d->c <= 0)
        return ta__op_fail(c, TA_E_MALFORMED, "a tensor has a non-positive dim");
    return TA_OK;
}

ta_status ta__op_const_i32(const ta__op_ctx *c, const ta_tensor *t, const int32_t **v, int64_t *n) {
    if (!t || !t->data) return ta__op_fail(c, TA_E_UNSUPPORTED, "a shape/axis operand is not constant");
    if (t->dtype != TA_DTYPE_INT32) return ta__op_fail_type(c, "index operand", t->dtype);
    *n = ta__op_elems(t);
    if ((size_t)*n * 4u > t->data_bytes)
        return ta__op_fail(c, TA_E_MALFORMED, "constant operand is shorter than its shape");
    if (((uintptr_t)t->data & 3u) != 0) return ta__op_fail(c, TA_E_MALFORMED, "constant operand is misaligned");
    *v = (const int32_t *)t->data;
    return TA_OK;
}

ta_status ta__op_float_act(ta__op_ctx *c, float *lo, float *hi) {
    ta_status st = ta_float_activation_range(c->op->opt.activation, lo, hi);
    return st ? ta__op_fail(c, st, "unsupported fused activation") : TA_OK;
}

ta_status ta__op_prep_binary(ta__op_ctx *c, ta_broadcast *shape, float *f_act_min, float *f_act_max) {
    ta_status st = ta__op_need_io(c, 2, 2, 1);
    if (st) return st;
    const ta_tensor *a = ta__op_in(c, 0), *b = ta__op_in(c, 1), *out = ta__op_out(c, 0);
    if (a->dtype != b->dtype || a->dtype != out->dtype) return ta__op_fail_type(c, "mixed input/output", b->dtype);
    if (ta_broadcast_init(shape, a->shape, a->rank, b->shape, b->rank))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "input shapes do not broadcast (or rank > 6)");
    int64_t n = 1;
    for (int32_t i = 0; i < shape->rank; i++) n *= shape->out[i];
    if (n != ta__op_elems(out)) return ta__op_fail(c, TA_E_MALFORMED, "output size does not match the broadcast shape");
    if (a->dtype != TA_DTYPE_FLOAT32) return TA_OK;
    c->path = TA__P_F32;
    return ta__op_float_act(c, f_act_min, f_act_max);
}

ta_status ta__op_prep_unary(ta__op_ctx *c, size_t *count) {
    ta_status st = ta__op_need_io(c, 1, 1, 1);
    if (st) return st;
    const ta_tensor *in = ta__op_in(c, 0), *out = ta__op_out(c, 0);
    if (in->dtype != out->dtype || ta__op_elems(in) != ta__op_elems(out))
        return ta__op_fail(c, TA_E_MALFORMED, "output differs from input");
    *count = (size_t)ta__op_elems(in);
    if (in->dtype == TA_DTYPE_FLOAT32) c->path = TA__P_F32;
    return TA_OK;
}

ta_status ta__op_need_state(ta__op_ctx *c, const ta_tensor *t, ta_dtype type, const char *what) {
    if (!t) return ta__op_fail(c, TA_E_MALFORMED, what);
    if (!(t->flags & TA_TENSOR_VARIABLE) || (t->flags & TA_TENSOR_CONST))
        return ta__op_fail(c, TA_E_UNSUPPORTED, "state operand is not a variable tensor");
    if (t->dtype != type) return ta__op_fail_type(c, "state", t->dtype);
    return TA_OK;
}

/* ---- alignment declarations (op.h, ta__op_align) ------------------------------ */

uint32_t ta__op_scratch_align(const ta_op_list *ops, const ta_op *op) {
    const ta_op_def *d = ta__op_def_for(ops, op);
    return d && d->align && d->align->scratch ? d->align->scratch : 16u;
}

void ta__op_operand_align(const ta_op_list *ops, const ta_graph *g, uint32_t *out) {
    for (uint32_t i = 0; i < g->n_tensors; i++) out[i] = 0;
    for (uint32_t s = 0; s < g->n_subgraphs; s++) {
        const ta_subgraph *sg = &g->subgraphs[s];
        for (uint32_t o = 0; o < sg->n_ops; o++) {
            const ta_op *op = &g->ops[sg->op_base + o];
            const ta_op_def *d = ta__op_def_for(ops, op);
            if (!d || !d->align) continue;
            for (uint32_t k = 0; k < op->n_inputs && k < TA__OP_ALIGN_IN; k++) {
                const int32_t t = op->inputs[k];
                if (t >= 0 && (uint32_t)t < sg->n_tensors && d->align->in[k] > out[sg->tensor_base + (uint32_t)t])
                    out[sg->tensor_base + (uint32_t)t] = d->align->in[k];
            }
            for (uint32_t k = 0; k < op->n_outputs && k < TA__OP_ALIGN_OUT; k++) {
                const int32_t t = op->outputs[k];
                if (t >= 0 && (uint32_t)t < sg->n_tensors && d->align->out[k] > out[sg->tensor_base + (uint32_t)t])
                    out[sg->tensor_base + (uint32_t)t] = d->align->out[k];
            }
        }
    }
}

uint32_t ta__op_scratch_align_rec(const ta_op_list *ops, const void *rec) {
    const ta_op_def *d = rec ? ta__op_def_of_kind(ops, rec_kind(rec)) : NULL;
    return d && d->align && d->align->scratch ? d->align->scratch : 16u;
}
