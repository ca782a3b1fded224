/* Internal to the rewrite passes (src/graph/rewrite*.c), not installed:
 * the helpers and work records the passes share.  rewrite.c holds the flag
 * names, the shared candidates and pass 1 (FUSEPAD, the new graph);
 * rewrite_order.c ORDER's search; rewrite_dw.c DWINPLACE's marks;
 * rewrite_buffers.c pass 2 (ALIAS, INPLACE, CONCAT, SLICE);
 * rewrite_overlap.c pass 3 (OVERLAP). */
#ifndef TA_REWRITE_INTERNAL_H
#define TA_REWRITE_INTERNAL_H

#include <string.h>

#include "common/util.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/walk.h"

static inline const ta_tensor *tensor0(const ta_graph *g, int32_t local) {
    return local >= 0 ? ta_graph_tensor(g, 0, local) : NULL;
}

static inline int32_t zp_of(const ta_tensor *t) {
    return t->quant.count && t->quant.zero_point ? (int32_t)t->quant.zero_point[0] : 0;
}

static inline bool control_flow(const ta_op *op) {
    return op->kind == TA_OP_IF || op->kind == TA_OP_WHILE || op->kind == TA_OP_CALL_ONCE ||
           op->kind == TA_OP_CALL || op->kind == TA_OP_VAR_HANDLE || op->kind == TA_OP_READ_VARIABLE ||
           op->kind == TA_OP_ASSIGN_VARIABLE;
}

static inline bool same_shape(const ta_tensor *a, const ta_tensor *b) {
    if (a->rank != b->rank) return false;
    for (int32_t i = 0; i < a->rank; i++)
        if (a->shape[i] != b->shape[i]) return false;
    return true;
}

/* Uses (as an op input) and producers of each tensor of subgraph 0; `last_user`
 * is the last op reading it (meaningful when uses == 1).  Counts saturate. */
typedef struct {
    uint16_t *uses, *producers;
    uint32_t *last_user;
} tensor_usage;

/* A constant's bytes, when it has at least `n` of them. */
static inline const void *const_data(const ta_tensor *t, size_t n) {
    return t && (t->flags & TA_TENSOR_CONST) && t->data && t->data_bytes >= n ? t->data : NULL;
}

static inline bool same_quant(const ta_tensor *a, const ta_tensor *b) {
    if (a->quant.count != 1 || b->quant.count != 1 || !a->quant.scale || !b->quant.scale) return false;
    return memcmp(a->quant.scale, b->quant.scale, sizeof(float)) == 0 && zp_of(a) == zp_of(b);
}
/* The search keeps this many states per step; the model's own order wins
 * unless a strictly lower peak is found.  Subgraphs with more ops keep it.
 * A trail entry packs a state's parent (6 bits) and op position (10 bits),
 * so that the search's memory stays small next to the graph's. */
#define ORDER_BEAM 64u
#define ORDER_MAX_OPS 1024u
_Static_assert(ORDER_BEAM <= 64u && ORDER_MAX_OPS <= 1024u, "a trail entry holds 6 + 10 bits");

/* Buffers are tensors of subgraph 0 (with ALIAS, a RESHAPE's output is its
 * input's buffer); positions are the kept ops in the model's order. */
typedef struct order_s {
    uint32_t n, w;              /* positions, 64-bit words per op set */
    uint32_t *op;               /* position -> op index */
    int32_t *buf, *prod;        /* per tensor: its buffer (-1: no bytes), producing position (-1: none) */
    size_t *size;               /* per buffer: padded bytes (largest member) */
    uint8_t *out;               /* per buffer: holds a graph output (needed to the end) */
    uint32_t *cs, *cons;        /* per buffer: reading positions, CSR (cs has n_t + 1) */
    uint32_t *is, *ins;         /* per position: distinct buffers read */
    uint32_t *os, *outs;        /* per position: buffers it creates */
    uint32_t *ps, *pins;        /* per position: buffers it may write in place over */
    size_t *credit;             /* per position: bytes such a write saves */
    uint64_t *preds, *zob;      /* per position: predecessor set; hash key */
    uint64_t *set[2], *hash[2]; /* beam levels: op sets and their hashes */
    size_t *peak[2], *live[2];  /* per state: peak so far, bytes resident */
    uint16_t *trail;            /* per step and state: parent << 10 | op position */
} order_search;

typedef struct {
    ta_graph_limits lim;    /* of the new graph: what g uses */
    uint8_t *fused;         /* per op of subgraph 0: a PAD folded into its conv, a LOGISTIC into its SILU */
    int32_t *silu;          /* per op: a SILU's x and sigmoid tensor (2 each), or -1, -1 */
    int32_t *conv_src;      /* per op: the tensor a fused conv reads, or -1 */
    int32_t *conv_pad;      /* per op: top, bottom, left, right of a fused conv */
    uint32_t *order;        /* execution order: op indices of subgraph 0 */
    int32_t *cat;           /* per op: a CONCATENATION's inputs first .. first + count - 1, slices SLICE
                               rejoins, read as tensor src instead (3 each: first, count, src; count 0: none) */
    uint8_t *dwip;          /* per op: a depthwise conv DWINPLACE marks in place */
    int32_t *dw_first, *dw_last, *dw_root, *dw_until; /* DWINPLACE's profile: per tensor (carved with the flag) */
    size_t *dw_size, *dw_live, *dw_scr;               /* per tensor: padded bytes; per step: live deltas, scratch */
    uint8_t *dw_on;                                   /* per position: a mark kept while choosing */
    int64_t *dw_d;    /* per op: OVERLAP's walk d (tensor bytes) when its walk tolerates overlap, else -1 */
    size_t *dw_ovl;   /* per step: bytes the overlap relations save */
    size_t *dw_at;    /* per tensor: its byte offset in its group (pass 2's buffer_at) */
    tensor_usage u;
    void *graph_mem;
    size_t graph_bytes;
    order_search o;              /* ORDER's search (carved with TA_REWRITE_ORDER only) */
    const ta_op_kind_set *inplace; /* kinds that may run in place (INPLACE in ORDER's costs) */
} pass1_work;

/* Op k's input i as it runs (a fused conv reads the PAD's input, a SILU
 * reads x where its MUL read the sigmoid, a CONCATENATION the source of
 * slices it rejoins). */
static inline int32_t eff_input(const ta_graph *g, const pass1_work *p, uint32_t k, uint32_t i) {
    const int32_t t = g->ops[g->subgraphs[0].op_base + k].inputs[i];
    if (i == 0 && p->conv_src[k] >= 0) return p->conv_src[k];
    if (p->cat[3 * k + 1] && (int32_t)i >= p->cat[3 * k] && (int32_t)i < p->cat[3 * k] + p->cat[3 * k + 1])
        return p->cat[3 * k + 2];
    return p->silu[2 * k] >= 0 && t == p->silu[2 * k + 1] ? p->silu[2 * k] : t;
}

void ta__rw_count_usage(const ta_graph *g, tensor_usage *u);
bool ta__rw_inplace_candidate(const ta_graph *g, const ta_op_kind_set *inplace, const ta_op *op, uint32_t i);
bool ta__rw_alias_candidate(const ta_graph *g, const ta_op *op);
/* A STRIDED_SLICE with constant begin, end and strides, every stride 1, no
 * ellipsis, new-axis or shrink mask, output of its input's rank and dtype:
 * st[a] .. sp[a] per axis as its kernel resolves them (rewrite_overlap.c). */
bool ta__rw_slice_box(const ta_graph *g, const ta_op *op, int64_t *st, int64_t *sp);
/* The walk geometry of a CONV_2D or pool op (rewrite_overlap.c). */
bool ta__rw_walk_geometry(const ta_graph *g, const ta_op *op, ta_conv_geometry *cg);
/* ORDER (rewrite_order.c): carves the search; returns how many ops moved. */
void ta__rw_carve_order(ta__bump *b, const ta_graph *g, order_search *o);
uint32_t ta__rw_order_ops(const ta_graph *g, uint32_t flags, pass1_work *p, uint32_t n);
/* DWINPLACE (rewrite_dw.c): the graph-level candidates, then the marks kept. */
bool ta__rw_dw_candidate(const ta_graph *g, uint32_t flags, const tensor_usage *u, uint32_t k, int32_t xi);
void ta__rw_dw_select(const ta_graph *g, uint32_t flags, pass1_work *p, uint32_t n);

#endif
