/*
 * IF, WHILE and CALL_ONCE: ops that run other subgraphs, through the
 * runtime's host (ta__op_host: runtime_subgraph.c), with TFLM's copies
 * (if.cc, while.cc, call_once.cc):
 *  - IF: the first input (bool, one element) picks then or else; the other
 *    inputs are copied into that subgraph's inputs, it runs, its outputs
 *    are copied into the op's;
 *  - WHILE: inputs into the cond subgraph's and into the op's outputs; the
 *    cond runs; while its first output is true: the op's outputs into the
 *    body's inputs, the body runs, its outputs into the op's, those into the
 *    cond's inputs, the cond runs.  A WHILE that does not end is stopped
 *    after host->max_iterations body runs with TA_E_TIMEOUT (TFLM loops for
 *    ever; the count is per invoke, every WHILE and nesting level together);
 *  - CALL_ONCE: runs its init subgraph on the first invoke only (its state:
 *    a flag).  ta_runtime_reset clears the flag with the variables, so the
 *    next invoke is a first invoke again; TFLM's MicroInterpreter::Reset
 *    resets the variables but not the flag (its init subgraph never runs
 *    again): after a reset, tinyarena gives what a fresh interpreter gives.
 * Every copy has the bytes prepare proved equal on both sides: each pair of
 * tensors has one type, shape and size (TFLM checks the counts only).
 *
 * The record: the bytes of each op input and output, and per subgraph a
 * descriptor -- index, op_base, n_ops, tensor_base, n_in, n_out, then its
 * input and output tensors (local) -- all 32-bit words.
 */
#include "runtime/ops/op.h"

typedef struct ta_cf_params {
    const uint32_t *bytes; /* per op input, then per output */
    const uint32_t *sub_a; /* IF then, WHILE cond, CALL_ONCE init */
    const uint32_t *sub_b; /* IF else, WHILE body; NULL for CALL_ONCE */
} ta_cf_params;

/* clang-format off */
#define TA__PARAMS_T ta_cf_params
static const ta__field k_fields_cf[] = {F(bytes, TA__F_PTR), F(sub_a, TA__F_PTR), F(sub_b, TA__F_PTR)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_cf, ta_cf_params)

enum { D_SG, D_OP_BASE, D_N_OPS, D_TBASE, D_N_IN, D_N_OUT, D_IO };

static const ta_tensor *sub_tensor(const ta__op_ctx *c, uint32_t s, bool out, uint32_t k) {
    const ta_subgraph *sg = &c->g->subgraphs[s];
    return ta_graph_tensor(c->g, s, out ? sg->outputs[k] : sg->inputs[k]);
}

/* Both tensors present, of one type, shape and size. */
static bool same(const ta_tensor *a, const ta_tensor *b) {
    if (!a || !b || a->dtype != b->dtype || a->rank != b->rank || a->bytes != b->bytes || a->bytes > UINT32_MAX)
        return false;
    for (int32_t d = 0; d < a->rank; d++)
        if (a->shape[d] != b->shape[d]) return false;
    return true;
}

/* The op copies into every input of a subgraph it runs: none may be a
 * constant (the model's bytes, read-only) or a variable tensor. */
static ta_status inputs_writable(const ta__op_ctx *c, uint32_t s, const char *role) {
    for (uint32_t k = 0; k < c->g->subgraphs[s].n_inputs; k++) {
        const ta_tensor *t = sub_tensor(c, s, false, k);
        if (t && ((t->flags & (TA_TENSOR_CONST | TA_TENSOR_VARIABLE)) || t->data))
            return ta_diag_set(c->diag, TA_E_MALFORMED,
                               "op %u (%s): %s subgraph %u's input %u is a constant or variable tensor", c->index,
                               ta__op_ctx_name(c), role, s, k);
    }
    return TA_OK;
}

/* Subgraph `index` (role for messages) as a descriptor in the record. */
static ta_status take_sub(ta__op_ctx *c, int32_t index, const char *role, const uint32_t **out, uint32_t *sg) {
    if (index < 0 || (uint32_t)index >= c->g->n_subgraphs || (uint32_t)index == c->sg) {
        return ta_diag_set(c->diag, TA_E_MALFORMED, "op %u (%s): %s subgraph %d is not another subgraph of the model",
                           c->index, ta__op_ctx_name(c), role, index);
    }
    const ta_subgraph *s = &c->g->subgraphs[index];
    uint32_t *d = ta__op_take(c, 4 * ((size_t)D_IO + s->n_inputs + s->n_outputs));
    *sg = (uint32_t)index;
    *out = d;
    const ta_status st = inputs_writable(c, (uint32_t)index, role);
    if (st) return st;
    if (!d) return TA_OK;
    const uint32_t w[D_IO] = {(uint32_t)index, s->op_base, s->n_ops, s->tensor_base, s->n_inputs, s->n_outputs};
    memcpy(d, w, sizeof w);
    for (uint32_t k = 0; k < s->n_inputs; k++) d[D_IO + k] = (uint32_t)s->inputs[k];
    for (uint32_t k = 0; k < s->n_outputs; k++) d[D_IO + s->n_inputs + k] = (uint32_t)s->outputs[k];
    return TA_OK;
}

/* The op's io bytes table (every op tensor present). */
static ta_status take_bytes(ta__op_ctx *c, ta_cf_params *p) {
    const uint32_t n = c->op->n_inputs + c->op->n_outputs;
    uint32_t *b = ta__op_take(c, 4 * (size_t)(n ? n : 1));
    for (uint32_t k = 0; k < n; k++) {
        const ta_tensor *t = k < c->op->n_inputs ? ta__op_in(c, k) : ta__op_out(c, k - c->op->n_inputs);
        if (!t) return ta__op_fail(c, TA_E_MALFORMED, "an input or output is missing");
        if (t->bytes > UINT32_MAX) return ta__op_fail(c, TA_E_UNSUPPORTED, "a tensor above 4 GiB");
        if (b) b[k] = (uint32_t)t->bytes;
    }
    p->bytes = b;
    return TA_OK;
}

static ta_status mismatch(const ta__op_ctx *c, const char *role, uint32_t s, const char *what, uint32_t k) {
    return ta_diag_set(c->diag, TA_E_MALFORMED,
                       "op %u (%s): %s subgraph %u's %s %u differs from the op's in type or shape", c->index,
                       ta__op_ctx_name(c), role, s, what, k);
}

static ta_status prep_if(ta__op_ctx *c) {
    ta_cf_params *p = c->params;
    const ta_op *op = c->op;
    if (op->n_inputs < 1) return ta__op_fail(c, TA_E_MALFORMED, "expects a condition input");
    ta_status st = take_bytes(c, p);
    if (st) return st;
    const ta_tensor *cond = ta__op_in(c, 0);
    if (cond->dtype != TA_DTYPE_BOOL) return ta__op_fail_type(c, "condition", cond->dtype);
    if (ta__op_elems(cond) != 1) return ta__op_fail(c, TA_E_MALFORMED, "the condition is not one element");
    const int32_t idx[2] = {op->opt.subgraph_a, op->opt.subgraph_b};
    const char *role[2] = {"then", "else"};
    for (int b = 0; b < 2; b++) {
        uint32_t s;
        if ((st = take_sub(c, idx[b], role[b], b ? &p->sub_b : &p->sub_a, &s))) return st;
        const ta_subgraph *sg = &c->g->subgraphs[s];
        if (sg->n_inputs != op->n_inputs - 1 || sg->n_outputs != op->n_outputs)
            return ta_diag_set(c->diag, TA_E_MALFORMED,
                               "op %u (IF): %s subgraph %u has %u inputs and %u outputs, the op %u and %u", c->index,
                               role[b], s, sg->n_inputs, sg->n_outputs, op->n_inputs - 1, op->n_outputs);
        for (uint32_t k = 0; k < sg->n_inputs; k++)
            if (!same(sub_tensor(c, s, false, k), ta__op_in(c, k + 1))) return mismatch(c, role[b], s, "input", k);
        for (uint32_t k = 0; k < sg->n_outputs; k++)
            if (!same(sub_tensor(c, s, true, k), ta__op_out(c, k))) return mismatch(c, role[b], s, "output", k);
    }
    return TA_OK;
}

static ta_status prep_while(ta__op_ctx *c) {
    ta_cf_params *p = c->params;
    const ta_op *op = c->op;
    ta_status st = take_bytes(c, p);
    if (st) return st;
    if (op->n_inputs != op->n_outputs) return ta__op_fail(c, TA_E_MALFORMED, "inputs and outputs differ in number");
    for (uint32_t k = 0; k < op->n_inputs; k++)
        if (!same(ta__op_in(c, k), ta__op_out(c, k)))
            return ta__op_fail(c, TA_E_MALFORMED, "an input and its output differ in type or shape");
    uint32_t cs, bs;
    if ((st = take_sub(c, op->opt.subgraph_a, "cond", &p->sub_a, &cs))) return st;
    if ((st = take_sub(c, op->opt.subgraph_b, "body", &p->sub_b, &bs))) return st;
    const ta_subgraph *cg = &c->g->subgraphs[cs], *bg = &c->g->subgraphs[bs];
    if (cg->n_inputs != op->n_inputs || bg->n_inputs != op->n_inputs || bg->n_outputs != op->n_inputs ||
        cg->n_outputs < 1)
        return ta_diag_set(
            c->diag, TA_E_MALFORMED,
            "op %u (WHILE): cond subgraph %u (%u inputs, %u outputs) and body subgraph %u (%u, %u) do not "
            "match the op's %u loop tensors",
            c->index, cs, cg->n_inputs, cg->n_outputs, bs, bg->n_inputs, bg->n_outputs, op->n_inputs);
    const ta_tensor *cv = sub_tensor(c, cs, true, 0);
    if (!cv || cv->dtype != TA_DTYPE_BOOL || ta__op_elems(cv) != 1)
        return ta__op_fail(c, TA_E_MALFORMED, "the cond subgraph's first output is not one bool");
    for (uint32_t k = 0; k < op->n_inputs; k++) {
        if (!same(sub_tensor(c, cs, false, k), ta__op_in(c, k))) return mismatch(c, "cond", cs, "input", k);
        if (!same(sub_tensor(c, bs, false, k), ta__op_in(c, k))) return mismatch(c, "body", bs, "input", k);
        if (!same(sub_tensor(c, bs, true, k), ta__op_in(c, k))) return mismatch(c, "body", bs, "output", k);
    }
    return TA_OK;
}

static ta_status prep_call_once(ta__op_ctx *c) {
    ta_cf_params *p = c->params;
    if (c->op->n_inputs || c->op->n_outputs) return ta__op_fail(c, TA_E_MALFORMED, "expects no input and no output");
    ta_status st = take_bytes(c, p);
    uint32_t s;
    if (!st) st = take_sub(c, c->op->opt.subgraph_a, "init", &p->sub_a, &s);
    if (st) return st;
    /* TFLM invokes it as it is: nothing feeds its inputs (they would be read
     * unwritten, refused); its outputs go nowhere */
    if (c->g->subgraphs[s].n_inputs)
        return ta__op_fail(c, TA_E_MALFORMED, "its init subgraph has inputs (nothing feeds them)");
    c->state = 4; /* the has-run flag */
    return TA_OK;
}

/* ---- invoke ---------------------------------------------------------------- */

static uint8_t *sub_ptr(const ta__op_run *r, const uint32_t *d, bool out, uint32_t k) {
    const uint32_t local = d[D_IO + (out ? d[D_N_IN] : 0) + k];
    return (uint8_t *)r->host->ptrs[d[D_TBASE] + local];
}

/* n bytes from src to dst (prepare proved both hold n), then the poison
 * checksum of dst's buffer. */
static ta_status copy(const ta__op_run *r, void *dst, const void *src, uint32_t n) {
    if (!n) return TA_OK;
    if (!dst || !src)
        return ta_diag_set(r->diag, TA_E_STATE, "%s: a tensor it copies has no bytes",
                           ta_op_kind_str((ta_op_kind)r->kind));
    if (dst != src) memmove(dst, src, n);
    if (r->host->wrote) r->host->wrote(r->host->ctx, dst);
    return TA_OK;
}

static ta_status run_sub(const ta__op_run *r, const uint32_t *d) {
    return r->host->run(r->host->ctx, d[D_OP_BASE], d[D_N_OPS], d[D_TBASE], r->diag);
}

/* The op's outputs are live while its subgraphs run: poison mode takes
 * their checksums before (they hold what the op wrote last, or canaries). */
static void outputs_live(const ta__op_run *r) {
    const ta_cf_params *p = r->params;
    for (uint32_t k = 0; r->host->wrote && k < r->n_out; k++)
        if (p->bytes[r->n_in + k] && ta__op_out_ptr(r, k)) r->host->wrote(r->host->ctx, ta__op_out_ptr(r, k));
}

static ta_status run_if(const ta__op_run *r) {
    const ta_cf_params *p = r->params;
    const uint8_t *cond = ta__op_in_ptr(r, 0);
    if (!cond) return ta_diag_set(r->diag, TA_E_STATE, "IF: the condition has no bytes");
    const uint32_t *d = cond[0] ? p->sub_a : p->sub_b; /* TFLM reads the bool's byte */
    ta_status st = TA_OK;
    outputs_live(r);
    for (uint32_t k = 0; !st && k < d[D_N_IN]; k++)
        st = copy(r, sub_ptr(r, d, false, k), ta__op_in_ptr(r, k + 1), p->bytes[k + 1]);
    if (!st) st = run_sub(r, d);
    for (uint32_t k = 0; !st && k < d[D_N_OUT]; k++)
        st = copy(r, ta__op_out_ptr(r, k), sub_ptr(r, d, true, k), p->bytes[r->n_in + k]);
    return st;
}

/* The op's outputs into subgraph d's inputs. */
static ta_status outs_to(const ta__op_run *r, const uint32_t *d) {
    ta_status st = TA_OK;
    for (uint32_t k = 0; !st && k < r->n_out; k++)
        st = copy(r, sub_ptr(r, d, false, k), ta__op_out_ptr(r, k),
                  ((const ta_cf_params *)r->params)->bytes[r->n_in + k]);
    return st;
}

static ta_status run_while(const ta__op_run *r) {
    const ta_cf_params *p = r->params;
    const uint32_t *cd = p->sub_a, *bd = p->sub_b;
    ta_status st = TA_OK;
    outputs_live(r);
    for (uint32_t k = 0; !st && k < r->n_in; k++)
        st = copy(r, sub_ptr(r, cd, false, k), ta__op_in_ptr(r, k), p->bytes[k]);
    for (uint32_t k = 0; !st && k < r->n_in; k++) st = copy(r, ta__op_out_ptr(r, k), ta__op_in_ptr(r, k), p->bytes[k]);
    if (!st) st = run_sub(r, cd);
    while (!st) {
        const uint8_t *cv = sub_ptr(r, cd, true, 0);
        if (!cv) return ta_diag_set(r->diag, TA_E_STATE, "WHILE: the condition has no bytes");
        if (!cv[0]) break;
        if ((*r->host->spent)++ >= r->host->max_iterations)
            return ta_diag_set(r->diag, TA_E_TIMEOUT,
                               "WHILE: still running after %u iterations in this invoke (the cap: max_iterations, "
                               "--max-iterations N)",
                               r->host->max_iterations);
        st = outs_to(r, bd);
        if (!st) st = run_sub(r, bd);
        for (uint32_t k = 0; !st && k < r->n_out; k++)
            st = copy(r, ta__op_out_ptr(r, k), sub_ptr(r, bd, true, k), p->bytes[r->n_in + k]);
        if (!st) st = outs_to(r, cd);
        if (!st) st = run_sub(r, cd);
    }
    return st;
}

static ta_status run_call_once(const ta__op_run *r) {
    const ta_cf_params *p = r->params;
    uint32_t *done = r->state;
    if (!done) return ta_diag_set(r->diag, TA_E_STATE, "CALL_ONCE: no state");
    if (*done) return TA_OK;
    const ta_status st = run_sub(r, p->sub_a);
    if (!st) *done = 1; /* as TFLM: only once it has run through */
    return st;
}

static uint32_t call_once_state(const void *params) {
    (void)params;
    return 4;
}

TA__OP_DEF_HOSTED(ta_op_IF, TA_OP_IF, "IF", ta_cf_params, k_fields_cf, TA__CLEAR_PADDING(clear_cf), prep_if, run_if,
                  TA__OP_HOST, NULL);
TA__OP_DEF_HOSTED(ta_op_WHILE, TA_OP_WHILE, "WHILE", ta_cf_params, k_fields_cf, TA__CLEAR_PADDING(clear_cf), prep_while,
                  run_while, TA__OP_HOST, NULL);
TA__OP_DEF_HOSTED(ta_op_CALL_ONCE, TA_OP_CALL_ONCE, "CALL_ONCE", ta_cf_params, k_fields_cf, TA__CLEAR_PADDING(clear_cf),
                  prep_call_once, run_call_once, TA__OP_HOST | TA__OP_STATE, call_once_state);
