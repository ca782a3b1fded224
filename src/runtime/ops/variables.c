/*
 * VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE: TFLM's resource variables.
 *
 * TFLM resolves every handle at prepare (var_handle.cc: the resource id is
 * the handle's, micro_resource_variable.cc: ids in creation order) and
 * keeps each variable's bytes in its persistent part.  Here the same
 * resolution runs over the graph (ta__var_scan, one pass), so that every
 * record carries its variable's id and size: the handle tensor itself
 * holds no bytes (RESOURCE has no element size), and a kernel never reads
 * an id from the arena.  The runtime keeps one block per variable in the
 * persistent part (runtime_subgraph.c), reached through the host.
 *
 * TFLM checks the sizes of READ_VARIABLE and ASSIGN_VARIABLE in debug
 * builds only (TFLITE_DCHECK); prepare checks them here, and that a
 * variable read is assigned somewhere (TFLM would read a NULL buffer).
 * A handle must come from a VAR_HANDLE of the op's own subgraph: TF's
 * converter emits one per function, and a handle passed through IF/WHILE
 * would need the id in the arena.
 */
#include "runtime/ops/op.h"

static bool is_var_op(ta_op_kind k) {
    return k == TA_OP_VAR_HANDLE || k == TA_OP_READ_VARIABLE || k == TA_OP_ASSIGN_VARIABLE;
}

/* TFLM's FindId: a handle without a container matches any variable of its
 * shared name (a NULL stored container compares as ""). */
static int32_t find_var(const ta__var_table *t, const char *ct, const char *sn) {
    for (uint32_t i = 0; i < t->n; i++)
        if ((!ct || strcmp(ct, t->v[i].container ? t->v[i].container : "") == 0) &&
            strcmp(sn, t->v[i].shared_name) == 0)
            return (int32_t)i;
    return -1;
}

/* "op 2 (READ_VARIABLE): what", naming the subgraph when not 0 */
static ta_status var_fail(ta_diag *diag, ta_status st, const ta_op *op, const char *what) {
    if (op->subgraph)
        return ta_diag_set(diag, st, "op %d (%s) of subgraph %u: %s", op->index, ta_op_kind_str(op->kind), op->subgraph,
                           what);
    return ta_diag_set(diag, st, "op %d (%s): %s", op->index, ta_op_kind_str(op->kind), what);
}

ta_status ta__var_scan(const ta_graph *g, int64_t want_op, ta__var_table *t, uint32_t *id, ta_diag *diag) {
    /* the handles seen so far: (subgraph, tensor) -> variable */
    struct {
        uint32_t sg, var;
        int32_t tensor;
    } h[TA__MAX_VAR_OPS];
    uint32_t nh = 0, nres = 0;
    memset(t, 0, sizeof *t);
    for (uint32_t o = 0; o < g->n_ops; o++) {
        const ta_op *op = &g->ops[o];
        if (!is_var_op(op->kind)) continue;
        if (++nres > TA__MAX_VAR_OPS)
            return ta_diag_set(diag, TA_E_UNSUPPORTED, "more than %u resource-variable ops", TA__MAX_VAR_OPS);
        uint32_t var;
        if (op->kind == TA_OP_VAR_HANDLE) {
            if (op->n_inputs || op->n_outputs != 1 || op->outputs[0] < 0)
                return var_fail(diag, TA_E_MALFORMED, op, "expects no input and one output");
            const char *sn = op->opt.shared_name;
            if (!sn) return var_fail(diag, TA_E_MALFORMED, op, "no shared_name (VarHandleOptions)");
            int32_t f = find_var(t, op->opt.container, sn);
            if (f < 0) {
                if (t->n >= TA__MAX_VARS)
                    return ta_diag_set(diag, TA_E_UNSUPPORTED, "more than %u resource variables", TA__MAX_VARS);
                f = (int32_t)t->n++;
                t->v[f].container = op->opt.container;
                t->v[f].shared_name = sn;
            }
            var = (uint32_t)f;
            h[nh].sg = op->subgraph;
            h[nh].tensor = op->outputs[0];
            h[nh++].var = var;
        } else {
            const int32_t ht = op->n_inputs ? op->inputs[0] : -1;
            uint32_t k = nh;
            while (k > 0 && !(h[k - 1].sg == op->subgraph && h[k - 1].tensor == ht)) k--;
            if (ht < 0 || k == 0)
                return var_fail(diag, TA_E_MALFORMED, op, "its handle is not written by a VAR_HANDLE of its subgraph");
            var = h[k - 1].var;
            const ta_tensor *val =
                op->n_inputs == 2 && op->inputs[1] >= 0 ? ta_graph_tensor(g, op->subgraph, op->inputs[1]) : NULL;
            if (op->kind == TA_OP_ASSIGN_VARIABLE && !t->v[var].assigned) {
                if (!val || op->n_outputs)
                    return var_fail(diag, TA_E_MALFORMED, op, "expects a handle and a value, no output");
                if (val->bytes > UINT32_MAX) return var_fail(diag, TA_E_UNSUPPORTED, op, "variable above 4 GiB");
                /* TFLM's MicroResourceVariables::Allocate: the first assign
                 * sizes it; every byte starts as the low byte of the first
                 * zero point (0 unquantised) */
                t->v[var].assigned = 1;
                t->v[var].bytes = (uint32_t)val->bytes;
                t->v[var].dtype = val->dtype;
                t->v[var].fill =
                    val->quant.count && val->quant.zero_point ? (uint8_t)(int8_t)val->quant.zero_point[0] : 0;
            }
        }
        if ((int64_t)o == want_op && id) *id = var;
    }
    return TA_OK;
}

typedef struct ta_var_params {
    int32_t id;    /* the variable (ta__var_scan's index, TFLM's resource id) */
    int32_t bytes; /* its bytes: what READ copies out, ASSIGN in */
} ta_var_params;

/* clang-format off */
#define TA__PARAMS_T ta_var_params
static const ta__field k_fields_var[] = {F(id, TA__F_I32), F(bytes, TA__F_I32)};
#undef TA__PARAMS_T
/* clang-format on */
TA__CLEAR_PADDING_FN(clear_var, ta_var_params)

/* The op's variable, from the one pass over the graph. */
static ta_status resolve(ta__op_ctx *c, ta_var_params *p, const ta_tensor *data) {
    ta__var_table t;
    uint32_t id = 0;
    const ta_status st = ta__var_scan(c->g, c->g->subgraphs[c->sg].op_base + c->index, &t, &id, c->diag);
    if (st) return st;
    p->id = (int32_t)id;
    if (!data) return TA_OK; /* VAR_HANDLE */
    if (!t.v[id].assigned)
        return ta__op_fail(c, TA_E_MALFORMED, "its variable is never assigned (no ASSIGN_VARIABLE sizes it)");
    if (data->dtype != t.v[id].dtype) return ta__op_fail_type(c, "variable", data->dtype);
    if (data->bytes != t.v[id].bytes)
        return ta__op_fail(c, TA_E_MALFORMED,
                           "tensor and variable differ in size (the first ASSIGN_VARIABLE sizes it)");
    p->bytes = (int32_t)t.v[id].bytes;
    return TA_OK;
}

static ta_status prep_handle(ta__op_ctx *c) {
    const ta_status st = ta__op_need_io(c, 0, 0, 1);
    if (st) return st;
    return resolve(c, (ta_var_params *)c->params, NULL);
}

static ta_status prep_read(ta__op_ctx *c) {
    const ta_status st = ta__op_need_io(c, 1, 1, 1);
    if (st) return st;
    return resolve(c, (ta_var_params *)c->params, ta__op_out(c, 0));
}

static ta_status prep_assign(ta__op_ctx *c) {
    if (c->op->n_inputs != 2 || c->op->n_outputs || !ta__op_in(c, 0) || !ta__op_in(c, 1))
        return ta__op_fail(c, TA_E_MALFORMED, "expects a handle and a value, no output");
    return resolve(c, (ta_var_params *)c->params, ta__op_in(c, 1));
}

/* The handle holds no bytes: the id is in every record that uses it. */
static ta_status run_handle(const ta__op_run *r) {
    (void)r;
    return TA_OK;
}

static uint8_t *var_of(const ta__op_run *r, const char *name) {
    const ta_var_params *p = r->params;
    uint32_t bytes = 0;
    uint8_t *v = r->host->var(r->host->ctx, (uint32_t)p->id, &bytes);
    if (!v || bytes != (uint32_t)p->bytes) {
        ta_diag_set(r->diag, TA_E_STATE, "%s: variable %d is not the runtime's (corrupted record)", name, p->id);
        return NULL;
    }
    return v;
}

static ta_status run_read(const ta__op_run *r) {
    const ta_var_params *p = r->params;
    if (!p->bytes) return TA_OK;
    uint8_t *v = var_of(r, "READ_VARIABLE"), *out = ta__op_out_ptr(r, 0);
    if (!v) return TA_E_STATE;
    if (!out) return ta_diag_set(r->diag, TA_E_STATE, "READ_VARIABLE: output has no bytes");
    memcpy(out, v, (size_t)p->bytes);
    return TA_OK;
}

static ta_status run_assign(const ta__op_run *r) {
    const ta_var_params *p = r->params;
    if (!p->bytes) return TA_OK;
    uint8_t *v = var_of(r, "ASSIGN_VARIABLE");
    const void *in = ta__op_in_ptr(r, 1);
    if (!v) return TA_E_STATE;
    if (!in) return ta_diag_set(r->diag, TA_E_STATE, "ASSIGN_VARIABLE: value has no bytes");
    memcpy(v, in, (size_t)p->bytes);
    return TA_OK;
}

TA__OP_DEF_HOSTED(ta_op_VAR_HANDLE, TA_OP_VAR_HANDLE, "VAR_HANDLE", ta_var_params, k_fields_var, TA__CLEAR_PADDING(clear_var), prep_handle,
                  run_handle, TA__OP_HOST, NULL);
TA__OP_DEF_HOSTED(ta_op_READ_VARIABLE, TA_OP_READ_VARIABLE, "READ_VARIABLE", ta_var_params, k_fields_var, TA__CLEAR_PADDING(clear_var), prep_read,
                  run_read, TA__OP_HOST, NULL);
TA__OP_DEF_HOSTED(ta_op_ASSIGN_VARIABLE, TA_OP_ASSIGN_VARIABLE, "ASSIGN_VARIABLE", ta_var_params, k_fields_var, TA__CLEAR_PADDING(clear_var), prep_assign,
                  run_assign, TA__OP_HOST, NULL);
