/*
 * The runtime: model bytes + one arena -> prepared ops -> invoke.
 *
 * Query/init steps (both run the same `build`, init then lays out the arena):
 *  1. import the model into a graph in the work block; with FUSEPAD/ORDER
 *     rewrites, the rewritten graph (rewrite.h) replaces it from here on;
 *  2. prepare every op of subgraph 0 (size pass): each validates its op and
 *     states its record size and scratch need;
 *  3. lifetimes (TFLM's rules) with one [op, op] scratch request per op that
 *     needs scratch (PLANNED mode); with ALIAS/INPLACE rewrites, the buffer
 *     groups; the planner's request list (one request per group);
 *  4. plan with the options' plan source; compute the lower bound;
 *  5. size the persistent tail (tensor table, scratch pointers, io records,
 *     the const image unless a blob supplies it, shared scratch, poison
 *     tables, variable tensors with their reset records) and the total.
 *     With a const blob, check its header and that every op record in it
 *     is byte for byte what prepare derives.
 * Init then carves the tail from the arena's far end, writes the const image
 * (prepare, fill pass) unless a blob supplies it, and points each tensor at
 * its place: planned ones into the head (a tensor sharing a group's buffer
 * at the group's), constants into the model bytes, variables into the tail
 * (set to their reset value).
 *
 * With an init table (ta_runtime_export_init: everything the steps above
 * decide, per tensor, op and input/output) and a const blob, query and init
 * skip steps 1-5: they check both blobs against the model hash, each other
 * and their regions (fast_build) and lay out the tail from them (fast_init),
 * with no work block -- the firmware path.
 *
 * This file holds open, the init-table path, the tail layout and invoke;
 * steps 1-5, the init that follows them, poison mode and the init table's
 * export are runtime_build.c's, reached only through opt.work_path
 * (runtime_int.h), so firmware options without it
 * (ta_runtime_options_for_budget) link none of them.
 *
 * The const image (what ta_runtime_export_consts copies out), 32-bit words
 * in the host's byte order, every part 8-byte aligned:
 *   magic "TAC1", format version, image bytes, ops, tensors (subgraph 0),
 *   model hash low and high word, 0;  op_off[ops] (record offsets from the
 *   image start);  the op records (ops.h: frozen, position-independent).
 */
#include "runtime/runtime_int.h"
#include "tinyarena/rewrite.h" /* TA_REWRITE_ALL */

/* Every variable tensor back to its reset value, every op's state to zero
 * (TFLM's initial value for the one op that keeps state, spectral
 * subtraction's noise estimates). */
void ta__rt_reset_vars(ta_runtime *rt) {
    for (uint32_t i = 0; i < rt->n_vars; i++) memset(rt->vars[i].data, rt->vars[i].fill, rt->vars[i].bytes);
    for (uint32_t o = 0, k = 0; o < rt->n_ops && k < rt->n_state_ops; o++) {
        const uint32_t sb = ta__op_state_bytes_in(rt->opt.ops, ta__rt_op_record(rt, o));
        if (sb) memset(rt->state_ptrs[k++], 0, sb);
    }
    ta__rt_flow_reset(rt);
}

static void budget_fields(ta_runtime_options *opt, const ta_budget *budget);

/* Everything but the work-block path: what a firmware that initialises
 * from an init table needs (ta_runtime_options_for_budget). */
static ta_runtime_options options_base(const ta_op_list *ops) {
    ta_runtime_options o;
    memset(&o, 0, sizeof o);
    o.scratch = TA_SCRATCH_PLANNED;
    o.ops = ops;
    o.align_rule = TA_ALIGN_RULE_DEFAULT;
    return o;
}

ta_runtime_options ta_runtime_options_for_ops(const ta_op_list *ops) {
    ta_runtime_options o = options_base(ops);
    o.work_path = &ta__work_path_full;
    return o;
}

/* No work-block path: the only reference to it (ta__work_path_full) is in
 * the two constructors above, so a firmware calling only this one links no
 * importer, rewrite, lifetime analysis or op prepare. */
ta_runtime_options ta_runtime_options_for_budget(const ta_budget *budget, const ta_op_list *ops) {
    ta_runtime_options o = options_base(ops);
    budget_fields(&o, budget);
    return o;
}

/* A function of its own: firmware that names its ops never references the
 * list of all of them, so --gc-sections drops every unused kernel. */
ta_runtime_options ta_runtime_options_default(void) { return ta_runtime_options_for_ops(&ta_op_list_all); }

/* ---- table plan source --------------------------------------------------- */

static ta_status table_plan(void *ctx, const ta_request *reqs, size_t n, void *work, size_t work_bytes,
                            size_t *work_need, size_t *offsets, size_t *arena_bytes, ta_diag *diag) {
    (void)work_bytes;
    const ta_plan_table *t = (const ta_plan_table *)ctx;
    *work_need = 0;
    if (!t || (n && !t->offsets)) return ta_diag_set(diag, TA_E_INVALID_ARG, "plan table: missing");
    if (t->n != n)
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "plan table has %zu offsets, the model needs %zu", t->n, n);
    if (!work && !offsets) return TA_OK;
    for (size_t i = 0; i < n; i++) {
        size_t a = reqs[i].align ? reqs[i].align : 1, off = t->offsets[i];
        if (off % a) return ta_diag_set(diag, TA_E_MISALIGNED, "plan table: buffer %zu at %zu breaks alignment %zu", i, off, a);
        if (off > t->planned_bytes || reqs[i].size > t->planned_bytes - off)
            return ta_diag_set(diag, TA_E_OUT_OF_ARENA, "plan table: buffer %zu ends past %zu bytes", i, t->planned_bytes);
        offsets[i] = off;
    }
    *arena_bytes = t->planned_bytes;
    return TA_OK;
}

/* A budget table (budget.h): entries in request order, checked against the
 * requests' lifetimes and sizes. */
ta_status ta__rt_budget_plan(void *ctx, const ta_request *reqs, size_t n, void *work, size_t work_bytes,
                             size_t *work_need, size_t *offsets, size_t *arena_bytes, ta_diag *diag) {
    (void)work;
    (void)work_bytes;
    const ta_budget *b = (const ta_budget *)ctx;
    *work_need = 0;
    if (!b || (b->count && !b->entries)) return ta_diag_set(diag, TA_E_INVALID_ARG, "budget table: missing");
    if (b->count != n)
        return ta_diag_set(diag, TA_E_BAD_REQUEST,
                           "budget table has %u buffers, the runtime plans %zu (kernel scratch: regenerate the table, or use shared scratch)",
                           b->count, n);
    for (size_t i = 0; i < n; i++) {
        const ta_budget_entry *e = &b->entries[i];
        size_t a = reqs[i].align ? reqs[i].align : 1;
        if (e->first != reqs[i].first || e->last != reqs[i].last || e->size < reqs[i].size)
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "budget entry %zu does not match this model's buffer (steps %d..%d, %zu bytes)",
                               i, reqs[i].first, reqs[i].last, reqs[i].size);
        if (e->offset % a) return ta_diag_set(diag, TA_E_MISALIGNED, "budget entry %zu breaks alignment %zu", i, a);
        if (e->offset > b->arena_bytes || reqs[i].size > b->arena_bytes - e->offset)
            return ta_diag_set(diag, TA_E_OUT_OF_ARENA, "budget entry %zu ends past %u bytes", i, b->arena_bytes);
        if (offsets) offsets[i] = e->offset;
    }
    if (arena_bytes) *arena_bytes = b->arena_bytes;
    return TA_OK;
}

/* A budget's fields but the plan source: use_budget adds the planner that
 * checks the table against the requests (work-block path only); the
 * firmware options (no work-block path) keep planner NULL and read the
 * budget from planner_ctx, so they do not link that planner. */
static void budget_fields(ta_runtime_options *opt, const ta_budget *budget) {
    opt->planner_ctx = (void *)budget;
    opt->model_hash = budget ? budget->model_hash : 0;
    opt->consts = budget ? budget->consts : NULL;
    opt->consts_bytes = budget && budget->consts ? budget->consts_bytes : 0;
    opt->rewrites = budget ? budget->rewrites : 0;
    opt->init = budget && budget->consts ? budget->init : NULL;
    opt->init_bytes = opt->init ? budget->init_bytes : 0;
    /* the table's rule; one this runtime does not know stays unknown, and
     * query refuses it (rule_check) */
    if (budget && !ta_align_rule_decode(budget->align_rule, &opt->align_rule))
        opt->align_rule = (ta_align_rule){(ta_align_kind)0xFF, budget->align_rule};
}

void ta_runtime_use_budget(ta_runtime_options *opt, const ta_budget *budget) {
    if (!opt) return;
    opt->planner = ta__rt_budget_plan;
    opt->planner_overlaps = NULL;
    budget_fields(opt, budget);
}

/* The budget table the options plan with, or NULL (a strategy, a plan table). */
static const ta_budget *budget_of(const ta_runtime *rt) {
    if (!rt->opt.work_path) return rt->opt.planner ? NULL : (const ta_budget *)rt->opt.planner_ctx;
    return rt->opt.planner == rt->opt.work_path->budget_plan ? (const ta_budget *)rt->opt.planner_ctx : NULL;
}

void ta_runtime_use_init(ta_runtime_options *opt, const void *init, size_t bytes) {
    if (!opt) return;
    opt->init = init;
    opt->init_bytes = init ? bytes : 0;
}

void ta_runtime_use_consts(ta_runtime_options *opt, const void *consts, size_t bytes) {
    if (!opt) return;
    opt->consts = consts;
    opt->consts_bytes = consts ? bytes : 0;
}

void ta_runtime_use_table(ta_runtime_options *opt, const ta_plan_table *table) {
    if (!opt) return;
    opt->planner = table_plan;
    opt->planner_overlaps = NULL;
    opt->planner_ctx = (void *)table;
}

/* Every block at the tail's alignment: 16 under TFLM's rule (as TFLM), else
 * the records' natural alignment (w->tail_align). */
static void tail_layout(const ta_runtime *rt, const ta__built *w, ta__tail *t) {
    size_t n_t = w->n_tensors, off = 0;
    const size_t TA = w->tail_align;
#define BLOCK(field, bytes) (t->field = off, off = ta__align_up(ta__add_sat(off, (bytes)), TA))
    BLOCK(ptrs, n_t * sizeof(void *));
    BLOCK(sptrs, w->n_sops * sizeof(void *));
    BLOCK(io, w->n_io * sizeof(ta_io));
    BLOCK(image, rt->opt.consts ? 0 : w->image);
    BLOCK(shared, rt->opt.scratch == TA_SCRATCH_SHARED ? w->max_scratch : 0);
    BLOCK(poison, rt->opt.poison ? w->n_req * (sizeof(ta_poison_buf) + sizeof(uint32_t)) +
                                       (w->buffer_of || w->flow ? n_t * sizeof(int32_t) : 0)
                                 : 0);
    /* variable tensors: their reset records, then their data (each at its
     * alignment, which tail_align covers) */
    BLOCK(vars, w->n_vars ? ta__add_sat(ta__align_up(w->n_vars * sizeof(ta_var_rec), TA), w->var_bytes) : 0);
    /* op state: a pointer per op that keeps state, then the state (tail_align each) */
    BLOCK(state, w->n_state_ops ? ta__add_sat(ta__align_up(w->n_state_ops * sizeof(void *), TA), w->state_bytes) : 0);
    /* control flow and resource variables (runtime_subgraph.c) */
    BLOCK(flow, w->flow ? w->flow_bytes : 0);
#undef BLOCK
    t->total = off;
}

static void fill_breakdown(ta_runtime *rt, const ta__built *w, const ta__tail *t) {
    ta_arena_breakdown *b = &rt->b;
    /* The head starts at a multiple of arena_align (>= tail_align) and the
     * planned part is a multiple of it, so head + planned is tail-aligned:
     * the tail, aligned down from the arena's end, fits when arena_align - 1
     * bytes are spare, for any base address. */
    const size_t A = w->arena_align;
    b->planned = ta__align_up(w->planned, A);
    b->persistent = t->total;
    b->scratch = rt->opt.scratch == TA_SCRATCH_SHARED ? ta__align_up(w->max_scratch, w->tail_align) : w->sum_scratch;
    b->alignment = A - 1;
    b->total = ta__add_sat(ta__add_sat(b->planned, b->persistent), b->alignment);
    b->align_rule = ta_align_rule_code(rt->opt.align_rule);
    b->tail_align = w->tail_align;
    b->head_align = A;
    size_t head = b->planned > b->work_bytes ? b->planned : ta__align_up(b->work_bytes, A);
    b->total_in_place = ta__add_sat(ta__add_sat(head, b->persistent), b->alignment);
    b->n_buffers = w->n_req;
    b->lower_bound = w->lower_bound;
    const size_t image = t->shared - t->image; /* 0 with a const blob */
    b->tensor_table = t->sptrs - t->ptrs;
    b->op_tables = image ? w->tables : 0;
    b->op_records = t->io - t->sptrs + image - b->op_tables;
    b->io_table = t->image - t->io;
    b->const_bytes = w->image;
    b->shared_scratch = t->poison - t->shared;
    b->poison_table = t->vars - t->poison;
    b->variables = t->total - t->vars; /* variable tensors and op state */
    b->n_tensors = w->n_tensors;
    b->n_scratch_ops = w->n_sops;
    b->n_io = w->n_io;
    b->n_vars = w->n_vars;
    b->var_data_bytes = w->var_bytes;
    b->n_state_ops = w->n_state_ops;
    b->state_data_bytes = w->state_bytes;
    b->image_tail_bytes = image;
}

/* The blob's header (and the padding after its op offset table): this
 * model's bytes, this format, n_ops records for n_tensors tensors in `want`
 * bytes. */
ta_status ta__rt_blob_header(const ta_runtime *rt, uint32_t n_ops, uint32_t n_tensors, size_t want, ta_diag *diag) {
    const uint8_t *k = (const uint8_t *)rt->opt.consts;
    const size_t n = rt->opt.consts_bytes;
    if ((uintptr_t)k % REC_ALIGN)
        return ta_diag_set(diag, TA_E_MISALIGNED, "const blob is not 8-byte aligned (address %% 8 = %u)",
                           (unsigned)((uintptr_t)k % REC_ALIGN));
    if (n < CONSTS_HDR) return ta_diag_set(diag, TA_E_MALFORMED, "const blob of %zu bytes is shorter than its header", n);
    if (ta__rd32(k) != CONSTS_MAGIC)
        return ta_diag_set(diag, TA_E_MALFORMED, ta__rd32(k) == CONSTS_MAGIC_SWAPPED
                                                     ? "const blob was made on a host of the other byte order"
                                                     : "const blob does not start with the tinyarena magic");
    if (ta__rd32(k + 4) != CONSTS_VERSION)
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "const blob has format version %u, this runtime reads %u (regenerate it)",
                           ta__rd32(k + 4), CONSTS_VERSION);
    const uint64_t hash = ta__rt_model_hash(rt);
    if (ta__rd32(k + 20) != (uint32_t)hash || ta__rd32(k + 24) != (uint32_t)(hash >> 32))
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "const blob was made for other model bytes (hash mismatch)");
    if (ta__rd32(k + 8) != n || n != want || ta__rd32(k + 12) != n_ops || ta__rd32(k + 16) != n_tensors)
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "const blob has %zu bytes for %u ops (header: %u bytes), this model needs %zu for %u",
                           n, ta__rd32(k + 12), ta__rd32(k + 8), want, n_ops);
    const size_t at = ta__rt_records_at(n_ops);
    if (n < at) return ta_diag_set(diag, TA_E_MALFORMED, "const blob of %zu bytes is shorter than its op table", n);
    for (size_t i = CONSTS_HDR + 4 * (size_t)n_ops; i < at; i++)
        if (k[i]) return ta_diag_set(diag, TA_E_BAD_REQUEST, "const blob: padding byte %zu is not zero (corrupted)", i);
    if (ta__rd32(k + 28)) return ta_diag_set(diag, TA_E_BAD_REQUEST, "const blob: reserved header word is not zero (corrupted)");
    return TA_OK;
}

/* ---- init from an init table and a const blob ---------------------------- */

/* The init table (ta_runtime_export_init), 32-bit words in the host's byte
 * order:
 *   header (16 words): magic "TAI1", format version, table bytes, tensors,
 *     ops, inputs, outputs (subgraph 0), planned bytes, rewrites, scratch
 *     mode, model hash low and high word, checksum (FNV-1a of the table with
 *     this word zero), 3 reserved zero words;
 *   per tensor (3 words): place | fill << 8 (a variable's reset byte), then
 *     HEAD: offset in the head, bytes;  MODEL: offset in the model bytes,
 *     bytes;  VAR: bytes, 0;  NONE: 0, 0;
 *   per op in run order (2 words): FNV-1a of its const blob record, its
 *     scratch's offset in the head (NO_SCRATCH: none, or the shared region);
 *   per input then output (14 words): tensor, dtype, rank, shape[8], scale
 *     (float bits), zero point, bytes;
 *   format version 2 only (several subgraphs or a VAR_HANDLE): the flow
 *     section (runtime_int.h, runtime_flow_table.c).
 * Everything init would derive from the imported graph is here, computed by
 * the host from the same model bytes; the device checks it instead of
 * recomputing it: this is what lets init run with no work block. */
static bool fast_path(const ta_runtime *rt) { return rt->opt.init && rt->opt.consts && !rt->opt.poison; }

uint64_t ta__rt_init_table_bytes(uint64_t n_t, uint64_t n_ops, uint64_t n_io) {
    return INIT_HDR + INIT_TENSOR * n_t + INIT_OP * n_ops + INIT_IO * n_io;
}

/* The table's checksum: FNV-1a over it with the checksum word read as 0. */
uint32_t ta__rt_init_sum(const uint8_t *t, size_t n) {
    static const uint8_t zero[4] = {0, 0, 0, 0};
    uint32_t h = ta__rt_fnv32(FNV32_START, t, INIT_SUM_AT);
    h = ta__rt_fnv32(h, zero, 4);
    return ta__rt_fnv32(h, t + INIT_SUM_AT + 4, n - INIT_SUM_AT - 4);
}

/* From an init table and a const blob nothing is built: no work block
 * (and none without the work-block path: query and init refuse). */
size_t ta_runtime_work_bytes(const ta_runtime *rt) {
    return rt && rt->state != TA__RT_CLOSED && !fast_path(rt) && rt->opt.work_path ? rt->opt.work_path->work_guess(rt) : 0;
}

/* Checks the init table and the const blob -- against the model's hash,
 * each other, the options, and every offset against its region -- and
 * fills w's counts for tail_layout, streaming once through both (no memory
 * but the stack).  The record checksums take the place of re-deriving each
 * record (which needs the imported graph): a blob that differs from the
 * one the table was made with is refused naming the op, as a blob that
 * differs from what prepare derives is on the work-block path. */
ta_status ta__rt_init_frame(const uint8_t *t, size_t tn, uint64_t *base, ta_diag *diag) {
    if ((uintptr_t)t % 4)
        return ta_diag_set(diag, TA_E_MISALIGNED, "init table is not 4-byte aligned (address %% 4 = %u)", (unsigned)((uintptr_t)t % 4));
    if (tn < INIT_HDR) return ta_diag_set(diag, TA_E_MALFORMED, "init table of %zu bytes is shorter than its header", tn);
    if (ta__rd32(t) != INIT_MAGIC)
        return ta_diag_set(diag, TA_E_MALFORMED, ta__rd32(t) == INIT_MAGIC_SWAPPED ? "init table was made on a host of the other byte order"
                                                                              : "init table does not start with the tinyarena magic");
    /* version 2: a flow section (runtime_flow_table.c); version 3: patch
     * stages, which a firmware built without them (TA__RT_PATCHES 0)
     * refuses: none of their code is linked there */
    const uint32_t ver = ta__rd32(t + 4);
    if (ver == INIT_VERSION_PATCH && !TA__RT_PATCHES)
        return ta_diag_set(diag, TA_E_UNSUPPORTED, "init table runs patch stages: this runtime is built without them (TA_OPS_PATCHES)");
    if (ver - INIT_VERSION > INIT_VERSION_PATCH - INIT_VERSION)
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table has format version %u, this runtime reads %u to %u (regenerate it)",
                           ver, INIT_VERSION, INIT_VERSION_PATCH);
    const uint32_t n_t = ta__rd32(t + 12), n_ops = ta__rd32(t + 16), n_in = ta__rd32(t + 20), n_out = ta__rd32(t + 24);
    *base = ta__rt_init_table_bytes(n_t, n_ops, (uint64_t)n_in + n_out);
    /* a flow section runs to the table's end (its reader checks it) */
    if (ta__rd32(t + 8) != tn || tn < *base ||
        (ver != INIT_VERSION_FLOW && (uint64_t)tn != (TA__RT_PATCHES ? ta__rt_init_expected(t, tn) /* + its stages */ : *base)))
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table has %zu bytes, its header says %u for %u tensors and %u ops (corrupted)",
                           tn, ta__rd32(t + 8), n_t, n_ops);
    if (ta__rt_init_sum(t, tn) != ta__rd32(t + INIT_SUM_AT))
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: checksum mismatch (corrupted)");
    return TA_OK;
}

static ta_status fast_build(ta_runtime *rt, ta__built *w, bool bound, ta_diag *diag) {
    memset(w, 0, sizeof *w);
    const uint8_t *t = (const uint8_t *)rt->opt.init, *k = (const uint8_t *)rt->opt.consts;
    const size_t tn = rt->opt.init_bytes, kn = rt->opt.consts_bytes;
    uint64_t base;
    ta_status fst = ta__rt_init_frame(t, tn, &base, diag);
    if (fst) return fst;
    const bool fl = ta__rd32(t + 4) == INIT_VERSION_FLOW;
    const uint32_t n_t = ta__rd32(t + 12), n_ops = ta__rd32(t + 16), n_in = ta__rd32(t + 20), n_out = ta__rd32(t + 24);
    w->fsec = t + base; /* the flow section, if any (checked where it is read) */
    w->fsec_len = tn - (size_t)base;
    /* the alignment rule: the table's must be the runtime's; a table made
     * before the rules has zeros (TFLM's rule, 16 and 16) */
    const uint32_t rcode = ta__rd32(t + INIT_RULE_AT), ha = ta__rd32(t + INIT_HEAD_ALIGN_AT), tla = ta__rd32(t + INIT_TAIL_ALIGN_AT);
    const bool legacy = !rcode && !ha && !tla;
    const size_t TA = legacy ? ALIGN : tla, HA = legacy ? ALIGN : ha;
    if (!ta_align_rule_decode(rcode, NULL) || !ta__is_pow2(TA) || !ta__is_pow2(HA) || HA < TA || HA > TA_ALIGN_RULE_MAX ||
        (rcode == 0 && (TA != ALIGN || HA != ALIGN)) || (rcode != 0 && TA < TAIL_ALIGN))
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: alignment words %u/%u/%u name no rule (corrupted)", (unsigned)rcode,
                           (unsigned)ha, (unsigned)tla);
    if (rcode != ta_align_rule_code(rt->opt.align_rule)) {
        char a[32], b[32];
        ta_align_rule r;
        ta_align_rule_decode(rcode, &r);
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table was planned under alignment rule %s, the runtime uses %s",
                           ta_align_rule_str(r, a, sizeof a), ta_align_rule_str(rt->opt.align_rule, b, sizeof b));
    }
    w->tail_align = TA;
    w->arena_align = HA;
    const uint64_t hash = ta__rt_model_hash(rt);
    if (ta__rd32(t + 40) != (uint32_t)hash || ta__rd32(t + 44) != (uint32_t)(hash >> 32))
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table was made for other model bytes (hash mismatch)");
    if (rt->opt.subgraph != 0) return ta_diag_set(diag, TA_E_UNSUPPORTED, "only subgraph 0 can run");
    const uint32_t rw = rt->opt.rewrites;
    if (rw & ~TA_REWRITE_ALL) return ta_diag_set(diag, TA_E_INVALID_ARG, "unknown rewrite flags 0x%x", rw);
    if (ta__rd32(t + 32) != rw && !rt->opt.work_path) /* the names are the rewrite module's */
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "budget table was planned with rewrites 0x%x, the runtime applies 0x%x",
                           ta__rd32(t + 32), rw);
    if (ta__rd32(t + 32) != rw) {
        char a[64], b[64];
        const char *(*names)(uint32_t, char *, size_t) = rt->opt.work_path->rewrite_names;
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "budget table was planned with rewrites %s, the runtime applies %s",
                           names(ta__rd32(t + 32), a, sizeof a), names(rw, b, sizeof b));
    }
    if (ta__rd32(t + 36) != (uint32_t)rt->opt.scratch)
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table was made for %s scratch, the runtime uses %s",
                           ta__rd32(t + 36) ? "shared" : "planned", rt->opt.scratch == TA_SCRATCH_SHARED ? "shared" : "planned");
    const size_t planned = ta__rd32(t + 28);
    const ta_budget *bt = budget_of(rt);
    if (bt) {
        if (bt->arena_bytes != planned)
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table plans %zu bytes, the budget table %u (tables of two headers)",
                               planned, bt->arena_bytes);
        w->n_req = bt->count;
        if (bound && (!bt->count || bt->entries)) {
            /* the most bytes live at one step: at the first step of some entry */
            for (uint32_t i = 0; i < bt->count; i++) {
                size_t live = 0;
                for (uint32_t j = 0; j < bt->count; j++)
                    if (bt->entries[j].first <= bt->entries[i].first && bt->entries[i].first <= bt->entries[j].last)
                        live += bt->entries[j].size;
                if (live > w->lower_bound) w->lower_bound = live;
            }
        }
    }
    ta_status st = ta__rt_blob_header(rt, n_ops, n_t, kn, diag);
    if (!st && TA__RT_PATCHES) st = ta__rt_init_stages(t, &rt->patch, diag); /* none in a version 1 table */
    if (st) return st;
    /* every op: its record is the one the table was made with; its scratch
     * and state */
    const uint8_t *ops = t + INIT_HDR + (size_t)INIT_TENSOR * n_t;
    size_t at = ta__rt_records_at(n_ops);
    for (uint32_t o = 0; o < n_ops; o++) {
        const size_t off = ta__rd32(k + CONSTS_HDR + 4 * (size_t)o);
        const size_t end = o + 1 < n_ops ? ta__rd32(k + CONSTS_HDR + 4 * (size_t)o + 4) : kn;
        if (off != at || end <= off || end > kn || (end - off) % REC_ALIGN)
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "const blob: op %u record lies outside the blob (corrupted)", o);
        const uint8_t *rec = k + off;
        if (ta__rt_fnv32(FNV32_START, rec, end - off) != ta__rd32(ops + INIT_OP * (size_t)o))
            return ta_diag_set(diag, TA_E_BAD_REQUEST,
                               "const blob: op %u (%s) record differs from what this model derives (corrupted, or made by another tinyarena version)",
                               o, ta__op_name_in(rt->opt.ops, rec));
        /* control flow and resource variables: their definitions name the
         * host that reads the table's flow section */
        const struct ta__flow_table *ft = ta__op_flow_table(rt->opt.ops, rec);
        if (ft) w->ftab = ft;
        /* the op list (a header's <P>_OPS) must hold every op the table runs */
        if (!ta__op_has_def(rt->opt.ops, rec))
            return ta_diag_set(diag, TA_E_UNSUPPORTED, "op %u (%s): no kernel for this op in the runtime's op list", o,
                               ta_op_kind_str(ta__op_kind(rec)));
        const size_t sb = ta__op_scratch_bytes(rec), stb = ta__op_state_bytes_in(rt->opt.ops, rec);
        const uint32_t so = ta__rd32(ops + INIT_OP * (size_t)o + 4);
        /* the scratch at what its op module declares (under TFLM's rule 16) */
        const size_t sa = legacy ? ALIGN : ta_align_rule_buffer(rt->opt.align_rule, 1, ta__op_scratch_align_rec(rt->opt.ops, rec), 0);
        if (sb) {
            w->n_sops++;
            w->sum_scratch += ta__align_up(sb, TA);
            if (sb > w->max_scratch) w->max_scratch = sb;
        }
        const bool want = sb && rt->opt.scratch == TA_SCRATCH_PLANNED;
        if (sb && !want && sa > TA)
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: op %u's shared scratch needs %zu-byte alignment, the tail has %zu (corrupted)",
                               (unsigned)o, sa, TA);
        if (want ? (so == NO_SCRATCH || so % sa || sa > HA || so > planned || sb > planned - so) : so != NO_SCRATCH)
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: op %u's scratch lies outside the planned part (corrupted)", o);
        if (stb) {
            w->n_state_ops++;
            w->state_bytes += ta__align_up(stb, TA);
        }
        at = end;
    }
    if (fl != (w->ftab != NULL))
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: its flow section and its ops that run subgraphs or variables disagree (corrupted)");
    if (fl && (st = w->ftab->check(rt, w, n_ops, n_t, diag))) return st;
    /* every tensor: its place lies inside its region */
    for (uint32_t i = 0; i < n_t; i++) {
        const uint8_t *e = t + INIT_HDR + (size_t)INIT_TENSOR * i;
        const uint32_t kind = ta__rd32(e), a = ta__rd32(e + 4), b = ta__rd32(e + 8);
        /* a HEAD or VAR entry's alignment: log2 in bits 16-23 (16 in a
         * table made before the rules) */
        const uint32_t lg = (kind >> 16) & 0xFFu;
        const size_t al = legacy ? ALIGN : (size_t)1 << (lg < 31 ? lg : 31);
        bool ok;
        switch (kind & 0xFFu) {
        case AT_NONE: ok = kind == AT_NONE && !a && !b; break;
        case AT_HEAD:
            ok = (kind & 0xFF00FFFFu) == AT_HEAD && (legacy ? !lg : al <= HA) && a % al == 0 && a <= planned && b <= planned - a;
            break;
        case AT_MODEL: ok = kind == AT_MODEL && a <= rt->model.len && b <= rt->model.len - a; break;
        case AT_VAR:
            ok = kind >> 24 == 0 && (legacy ? !lg : al <= TA) && !b;
            w->n_vars++;
            w->var_bytes = ta__add_sat(w->var_bytes, ta__align_up(a, al));
            break;
        default: ok = false;
        }
        if (!ok) return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: tensor %u lies outside its region (corrupted)", i);
    }
    const uint8_t *io = ops + (size_t)INIT_OP * n_ops;
    for (uint32_t j = 0; j < n_in + n_out; j++) {
        /* the caller copies inputs in and outputs out by ta_io.bytes: they
         * must lie inside the tensor's place */
        const uint8_t *q = io + INIT_IO * (size_t)j;
        const uint32_t ti = ta__rd32(q);
        const uint8_t *e = t + INIT_HDR + (size_t)INIT_TENSOR * (ti < n_t ? ti : 0);
        const uint32_t room = (ta__rd32(e) & 0xFFu) == AT_VAR ? ta__rd32(e + 4) : ta__rd32(e + 8);
        if (ti >= n_t || ta__rd32(q + 8) > TA_MAX_RANK || ta__rd32(q + 52) > room)
            return ta_diag_set(diag, TA_E_BAD_REQUEST, "init table: %s %u names no tensor (corrupted)", j < n_in ? "input" : "output",
                               j < n_in ? j : j - n_in);
    }
    w->n_tensors = n_t;
    w->n_io = (size_t)n_in + n_out;
    w->planned = planned;
    w->image = kn;
    rt->b.work_bytes = 0;
    return TA_OK;
}

/* Lays out the tail from the tables (fast_build checked them). */
static void fast_init(ta_runtime *rt, const ta__built *w, const ta__tail *t, uint8_t *head, uint8_t *tp) {
    const uint8_t *T = (const uint8_t *)rt->opt.init;
    const uint32_t n_t = (uint32_t)w->n_tensors, n_ops = ta__rd32(T + 16), n_in = ta__rd32(T + 20);
    const uint8_t *ops = T + INIT_HDR + (size_t)INIT_TENSOR * n_t, *io = ops + (size_t)INIT_OP * n_ops;
    rt->head = head;
    rt->tail = tp;
    rt->n_tensors = n_t;
    rt->n_ops = n_ops;
    rt->consts = (const uint8_t *)rt->opt.consts;
    rt->ptrs = (void **)(tp + t->ptrs);
    rt->scratch_ptrs = (void **)(tp + t->sptrs);
    rt->vars = w->n_vars ? (ta_var_rec *)(tp + t->vars) : NULL;
    rt->n_vars = 0;
    const bool legacy = !ta__rd32(T + INIT_TAIL_ALIGN_AT);
    uint8_t *vd = tp + t->vars + ta__align_up(w->n_vars * sizeof(ta_var_rec), w->tail_align);
    for (uint32_t i = 0; i < n_t; i++) {
        const uint8_t *e = T + INIT_HDR + (size_t)INIT_TENSOR * i;
        const uint32_t kind = ta__rd32(e), a = ta__rd32(e + 4);
        void *p = NULL;
        switch (kind & 0xFFu) {
        case AT_HEAD: p = ta__rt_at(rt, a, ta__rd32(e + 8)); break;
        case AT_MODEL: p = (void *)(uintptr_t)(rt->model.bytes + a); break; /* read only: kernels take inputs as const */
        case AT_VAR: {
            ta_var_rec *v = &rt->vars[rt->n_vars++];
            v->data = vd;
            v->bytes = a;
            v->tensor = i;
            v->fill = (uint8_t)(kind >> 8);
            p = vd;
            vd += ta__align_up(a, legacy ? ALIGN : (size_t)1 << ((kind >> 16) & 0xFFu));
            break;
        }
        default: break;
        }
        rt->ptrs[i] = p;
    }
    rt->n_scratch_ops = (uint32_t)w->n_sops;
    rt->n_state_ops = (uint32_t)w->n_state_ops;
    rt->state_ptrs = w->n_state_ops ? (void **)(tp + t->state) : NULL;
    uint8_t *sd = tp + t->state + ta__align_up(w->n_state_ops * sizeof(void *), w->tail_align);
    for (uint32_t o = 0, ks = 0, kst = 0; o < n_ops; o++) {
        const uint8_t *rec = ta__rt_op_record(rt, o);
        const uint32_t sb = ta__op_scratch_bytes(rec), stb = ta__op_state_bytes_in(rt->opt.ops, rec);
        if (sb) {
            const uint32_t so = ta__rd32(ops + INIT_OP * (size_t)o + 4);
            rt->scratch_ptrs[ks++] = so == NO_SCRATCH ? (void *)(tp + t->shared) : (void *)ta__rt_at(rt, so, sb);
        }
        if (stb) {
            rt->state_ptrs[kst++] = sd;
            sd += ta__align_up(stb, w->tail_align);
        }
    }
    ta__rt_reset_vars(rt);
    rt->inputs = (ta_io *)(tp + t->io);
    rt->n_inputs = n_in;
    rt->n_outputs = ta__rd32(T + 24);
    rt->outputs = rt->inputs + n_in;
    for (uint32_t j = 0; j < w->n_io; j++) {
        const uint8_t *q = io + INIT_IO * (size_t)j;
        ta_io *x = &rt->inputs[j];
        memset(x, 0, sizeof *x);
        x->tensor = (int32_t)ta__rd32(q);
        x->data = rt->ptrs[x->tensor];
        x->dtype = (ta_dtype)ta__rd32(q + 4);
        x->rank = (int32_t)ta__rd32(q + 8);
        for (int32_t d = 0; d < x->rank; d++) x->shape[d] = (int32_t)ta__rd32(q + 12 + 4 * (size_t)d);
        const uint32_t sc = ta__rd32(q + 44);
        memcpy(&x->scale, &sc, 4);
        x->zero_point = (int32_t)ta__rd32(q + 48);
        x->bytes = ta__rd32(q + 52);
    }
    rt->pbuf = NULL;
    rt->porder = NULL;
    rt->pgroup = NULL;
    rt->n_pbuf = 0;
    rt->flow = NULL;
    if (w->flow) w->ftab->init(rt, w, tp + t->flow);
}

ta_status ta_runtime_open(ta_runtime *rt, const void *model, size_t len, const ta_runtime_options *opt,
                          ta_diag *diag) {
    if (!rt || !model || !opt) return ta_diag_set(diag, TA_E_INVALID_ARG, "runtime open: NULL argument");
    memset(rt, 0, sizeof *rt);
    if (!opt->ops || (opt->ops->count && !opt->ops->defs))
        return ta_diag_set(diag, TA_E_INVALID_ARG,
                           "runtime open: no op list (ta_runtime_options_default: every op; firmware: ta_runtime_options_for_ops)");
    if (opt->model_hash && ta_budget_hash(model, len) != opt->model_hash)
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "budget table was made for other model bytes (hash mismatch)");
    if (opt->work_path) {
        ta_status st = opt->work_path->open(&rt->model, model, len, diag);
        if (st) return st;
    } else {
        /* No work-block path (ta_runtime_options_for_budget): nothing on
         * this device reads the model's structure, only the byte ranges the
         * init table names, each checked against len.  The hash proves the
         * bytes are the ones the host verified and planned, so the TFLite
         * reader is not linked at all. */
        if (!opt->model_hash)
            return ta_diag_set(diag, TA_E_INVALID_ARG, "runtime open: firmware options without a budget (model hash)");
        if ((uintptr_t)model % 8)
            return ta_diag_set(diag, TA_E_INVALID_ARG, "model bytes must be 8-byte aligned (address %% 8 = %u)",
                               (unsigned)((uintptr_t)model % 8));
        rt->model.bytes = (const uint8_t *)model;
        rt->model.len = len;
        rt->model.open = true;
    }
    rt->opt = *opt;
    rt->state = TA__RT_OPEN;
    return TA_OK;
}

/* Query or init without the work-block path (ta_runtime_options_for_budget)
 * and without what the init-table path needs. */
static ta_status no_work_path(const ta_runtime *rt, ta_diag *diag) {
    return ta_diag_set(diag, TA_E_UNSUPPORTED, "runtime options for a budget's init table only (ta_runtime_options_for_budget), and %s: "
                       "use ta_runtime_options_for_ops to import and prepare the model",
                       rt->opt.poison ? "poison mode is on" : !rt->opt.consts ? "no const blob" : "no init table");
}

/* The options' alignment rule is one, and a budget table's is the same
 * (use_budget copies it; options changed afterwards are refused, as
 * rewrites are). */
static ta_status rule_check(const ta_runtime *rt, ta_diag *diag) {
    const uint32_t code = ta_align_rule_code(rt->opt.align_rule);
    if (!ta_align_rule_decode(code, NULL))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "unknown alignment rule (kind %u, %u bytes): regenerate the header or set tflm, dtype, arch or a power of two",
                           (unsigned)rt->opt.align_rule.kind, (unsigned)rt->opt.align_rule.bytes);
    const ta_budget *bt = budget_of(rt);
    if (bt && bt->align_rule != code) {
        char a[32], b[32];
        ta_align_rule r = {TA_ALIGN_TFLM, 0};
        ta_align_rule_decode(bt->align_rule, &r);
        return ta_diag_set(diag, TA_E_BAD_REQUEST, "budget table was planned under alignment rule %s, the runtime uses %s",
                           ta_align_rule_str(r, a, sizeof a), ta_align_rule_str(rt->opt.align_rule, b, sizeof b));
    }
    return TA_OK;
}

ta_status ta_runtime_query(ta_runtime *rt, void *work, size_t work_bytes, ta_arena_breakdown *b, ta_diag *diag) {
    if (!rt || rt->state == TA__RT_CLOSED) return ta_diag_set(diag, TA_E_STATE, "runtime query before open");
    ta_status rst = rule_check(rt, diag);
    if (rst) return rst;
    ta__built w;
    const bool fast = fast_path(rt);
    if (!fast && !rt->opt.work_path) return no_work_path(rt, diag);
    ta_status st = fast ? fast_build(rt, &w, true, diag) : rt->opt.work_path->build(rt, work, work_bytes, &w, diag);
    if (b) *b = rt->b;
    if (st) return st;
    ta__tail t;
    tail_layout(rt, &w, &t);
    fill_breakdown(rt, &w, &t);
    if (b) *b = rt->b;
    if (rt->state < TA__RT_QUERIED) rt->state = TA__RT_QUERIED;
    return TA_OK;
}

ta_status ta_runtime_init(ta_runtime *rt, void *work, size_t work_bytes, void *arena, size_t arena_bytes,
                          ta_diag *diag) {
    if (!rt || rt->state == TA__RT_CLOSED) return ta_diag_set(diag, TA_E_STATE, "runtime init before open");
    if (!arena) return ta_diag_set(diag, TA_E_INVALID_ARG, "runtime init: NULL arena");
    ta_status rst = rule_check(rt, diag);
    if (rst) return rst;
    const bool fast = fast_path(rt);
    if (!fast && !rt->opt.work_path) return no_work_path(rt, diag);
    /* from an init table the lower bound (a report, not needed to run) is
     * query's: init does not spend the instructions again */
    const size_t queried_bound = rt->state >= TA__RT_QUERIED ? rt->b.lower_bound : 0;
    /* No work block: build in the arena's head, which is free until invoke
     * (from an init table and a const blob nothing is built at all). */
    const bool in_place = work == NULL && !fast;
    if (in_place) {
        work = arena;
        work_bytes = arena_bytes;
    }
    ta__built w;
    ta_status st = fast ? fast_build(rt, &w, false, diag) : rt->opt.work_path->build(rt, work, work_bytes, &w, diag);
    if (st == TA_E_NO_MEMORY && in_place)
        return ta_diag_set(diag, st, "arena needs more than %zu bytes to initialise in place (work alone needs %zu)",
                           arena_bytes, rt->b.work_bytes);
    if (st) return st;
    ta__tail t;
    tail_layout(rt, &w, &t);
    fill_breakdown(rt, &w, &t);
    const size_t HA = w.arena_align, TA = w.tail_align;
    if (in_place && ((uintptr_t)arena + rt->b.work_bytes > (((uintptr_t)arena + arena_bytes - t.total) & ~(uintptr_t)(TA - 1)) ||
                     arena_bytes < t.total + rt->b.work_bytes))
        return ta_diag_set(diag, TA_E_NO_MEMORY, "arena needs %zu bytes to initialise in place, has %zu",
                           rt->b.total_in_place, arena_bytes);
    /* Lay out: head at the first aligned byte, tail ending at the last aligned end. */
    uintptr_t a0 = (uintptr_t)arena, a1 = a0 + arena_bytes;
    uintptr_t head = (a0 + (HA - 1)) & ~(uintptr_t)(HA - 1);
    size_t planned = ta__rt_head_planned(rt), persistent = t.total;
    if (a1 < a0 || a1 < persistent || head > a1 ||
        ((a1 - persistent) & ~(uintptr_t)(TA - 1)) < head + planned || (a1 - persistent) < head + planned) {
        return ta_diag_set(diag, TA_E_NO_MEMORY, "arena needs %zu bytes, has %zu (planned %zu + persistent %zu + alignment %zu)",
                           rt->b.total, arena_bytes, planned, persistent, rt->b.alignment);
    }
    uintptr_t tail = (a1 - persistent) & ~(uintptr_t)(TA - 1);
    uint8_t *tp = (uint8_t *)tail;
    if (fast) {
        rt->b.lower_bound = queried_bound;
        fast_init(rt, &w, &t, (uint8_t *)head, tp);
        /* patch stages: every band inside its tensor's planned bytes, proven before any kernel runs */
        if (TA__RT_PATCHES && rt->patch.n_stages && (st = ta__rt_patch_bounds(rt, (const uint8_t *)rt->opt.init, diag)))
            return st;
        rt->state = TA__RT_READY;
        return TA_OK;
    }
    return rt->opt.work_path->init(rt, &w, &t, (uint8_t *)head, tp, diag);
}

/* ---- invoke --------------------------------------------------------------- */

ta_status ta_runtime_reset(ta_runtime *rt, ta_diag *diag) {
    if (!rt || rt->state != TA__RT_READY) return ta_diag_set(diag, TA_E_STATE, "reset before init");
    ta__rt_reset_vars(rt);
    return TA_OK;
}

ta_status ta_runtime_invoke(ta_runtime *rt, ta_diag *diag) {
    if (!rt || rt->state != TA__RT_READY) return ta_diag_set(diag, TA_E_STATE, "invoke before init");
    /* poison tables exist only from the work-block path (an init table
     * refuses poison mode): its checks are reached through it, so a
     * firmware without that path does not link them */
    const struct ta__work_path *poison = rt->opt.poison && rt->pbuf ? rt->opt.work_path : NULL;
    if (poison) poison->poison_start(rt);
    /* with control flow: subgraph 0's ops here, the others through the host */
    const ta__op_host *host = ta__rt_flow_host(rt);
    for (uint32_t o = 0, slot = 0, sslot = 0, ps = 0, n = ta__rt_main_ops(rt); o < n; o++) {
        if (TA__RT_PATCHES && ps < rt->patch.n_stages && (int32_t)o == rt->patch.stages[ps].first_op) {
            /* patch.h: band by band */
            ta_status st = ta__rt_patch_invoke(rt, &rt->patch.stages[ps++], poison, &slot, diag);
            if (st) return st;
            o = (uint32_t)rt->patch.stages[ps - 1].last_op;
            continue;
        }
        const int32_t step = ta__rt_op_step(rt, o);
        if (poison) poison->poison_fill(rt, step);
        const uint8_t *rec = ta__rt_op_record(rt, o);
        void *scratch = ta__op_scratch_bytes(rec) && slot < rt->n_scratch_ops ? rt->scratch_ptrs[slot++] : NULL;
        void *state = ta__op_state_bytes_in(rt->opt.ops, rec) && sslot < rt->n_state_ops ? rt->state_ptrs[sslot++] : NULL;
        ta_status st = ta__op_invoke_host(rt->opt.ops, rec, rt->ptrs, scratch, state, poison != NULL, host, diag);
        if (st == TA_E_OVERLAP && poison) { /* the op's own walk check (ops.h) */
            rt->poison.clobbered = true;
            rt->poison.tensor = -1;
            rt->poison.op = (int32_t)o;
        }
        if (st) {
            ta_diag tmp;
            memset(&tmp, 0, sizeof tmp);
            if (diag) tmp = *diag;
            return ta_diag_set(diag, st, "op %u: %s", o, tmp.msg);
        }
        if (poison && (st = poison->poison_check(rt, step, o, diag))) return st;
    }
    return TA_OK;
}

const ta_io *ta_runtime_input(const ta_runtime *rt, uint32_t k) {
    return rt && rt->state == TA__RT_READY && k < rt->n_inputs ? &rt->inputs[k] : NULL;
}
const ta_io *ta_runtime_output(const ta_runtime *rt, uint32_t k) {
    return rt && rt->state == TA__RT_READY && k < rt->n_outputs ? &rt->outputs[k] : NULL;
}
uint32_t ta_runtime_input_count(const ta_runtime *rt) { return rt && rt->state == TA__RT_READY ? rt->n_inputs : 0; }
uint32_t ta_runtime_output_count(const ta_runtime *rt) { return rt && rt->state == TA__RT_READY ? rt->n_outputs : 0; }
ta_status ta_runtime_export_consts(const ta_runtime *rt, void *out, size_t cap, size_t *bytes, ta_diag *diag) {
    if (!rt || !bytes) return ta_diag_set(diag, TA_E_INVALID_ARG, "export consts: NULL argument");
    if (rt->state != TA__RT_READY || !rt->consts) return ta_diag_set(diag, TA_E_STATE, "export consts before init");
    *bytes = rt->b.const_bytes;
    if (!out) return TA_OK;
    if (cap < rt->b.const_bytes)
        return ta_diag_set(diag, TA_E_NO_MEMORY, "const blob needs %zu bytes, has %zu", rt->b.const_bytes, cap);
    memcpy(out, rt->consts, rt->b.const_bytes);
    return TA_OK;
}

const ta_arena_breakdown *ta_runtime_breakdown(const ta_runtime *rt) { return rt && rt->state >= TA__RT_QUERIED ? &rt->b : NULL; }
const ta_poison_report *ta_runtime_poison_report(const ta_runtime *rt) { return rt ? &rt->poison : NULL; }

