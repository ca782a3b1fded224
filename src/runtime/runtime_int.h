/*
 * What runtime.c (open, the init-table path, invoke) and runtime_build.c
 * (the work-block path: import, prepare, lifetimes, rewrites, plan) share.
 *
 * The two halves meet only through ta__work_path, a table of functions that
 * ta_runtime_options_default() / _for_ops() put into the options and
 * ta_runtime_options_for_budget() does not: runtime.c never names a function
 * of runtime_build.c, so a firmware that initialises from a budget header's
 * init table and const blob links neither the importer, nor the rewrites,
 * nor lifetimes, nor any op's prepare (--gc-sections drops them).
 */
#ifndef TA_RUNTIME_INT_H
#define TA_RUNTIME_INT_H

#include <string.h>

#include "common/util.h"
#include "runtime/ops.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/runtime.h"

#define ALIGN 16u /* TFLM's rule: the arena, every block of the tail, every variable */
#define TAIL_ALIGN 8u /* other rules: the tail's blocks at their records' natural
                         alignment (64-bit pointers and size_t, int64 tables) */
#define REC_ALIGN 8u /* op records: int64 tables at most */

/* ta_runtime.state.  The public field stays an int (an enum's size is the
 * ABI's: arm-none-eabi makes it a byte), these name its values. */
typedef enum {
    TA__RT_CLOSED = 0,
    TA__RT_OPEN = 1,
    TA__RT_QUERIED = 2, /* b.lower_bound holds the queried bound */
    TA__RT_READY = 3,
} ta__rt_state;

/* The const image (runtime.c's header comment describes it). */
#define CONSTS_MAGIC 0x31434154u /* "TAC1" read as a little-endian word */
#define CONSTS_MAGIC_SWAPPED 0x54414331u
#define CONSTS_VERSION 1u
#define CONSTS_HDR 32u /* 8 words */

/* The init table (runtime.c describes its layout). */
#define INIT_MAGIC 0x31494154u /* "TAI1" read as a little-endian word */
#define INIT_MAGIC_SWAPPED 0x54414931u
#define INIT_VERSION 1u
#define INIT_VERSION_FLOW 2u /* a table with a flow section (runtime_flow_table.c) */
#define INIT_VERSION_PATCH 3u /* with patch stages (runtime_init_stages.c) */
#define INIT_STAGE_HDR 8u
#define INIT_STAGE 20u
#define INIT_HDR 64u
#define INIT_TENSOR 12u
#define INIT_OP 8u
#define INIT_IO 56u
#define INIT_SUM_AT 48u
#define NO_SCRATCH 0xFFFFFFFFu
enum { AT_NONE = 0, AT_HEAD = 1, AT_MODEL = 2, AT_VAR = 3 };

/* 32-bit FNV-1a, continuing from h (FNV32_START to start). */
#define FNV32_START 2166136261u
static inline uint32_t ta__rt_fnv32(uint32_t h, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Offset of the first record: header and op offset table, 8-aligned. */
static inline size_t ta__rt_records_at(size_t n_ops) { return ta__align_up(CONSTS_HDR + 4 * n_ops, REC_ALIGN); }

/* Op `op`'s record in the runtime's const image. */
static inline const uint8_t *ta__rt_op_record(const ta_runtime *rt, uint32_t op) {
    return rt->consts + ta__rd32(rt->consts + CONSTS_HDR + 4 * (size_t)op);
}

static inline uint64_t ta__rt_model_hash(const ta_runtime *rt) {
    return rt->opt.model_hash ? rt->opt.model_hash : ta_budget_hash(rt->model.bytes, rt->model.len);
}

/* Everything query/init decide before laying out the arena: the work-block
 * path fills all of it (in the work block), the init-table path only the
 * counts and sizes. */
typedef struct ta__built {
    ta_graph g;
    ta__op_info *info;        /* per op */
    ta_scratch_request *sreq; /* n_sreq */
    size_t n_sreq;
    int32_t *sreq_of_op;      /* per op: index into sreq or -1 */
    ta_lifetimes lt;
    ta_request *reqs;
    ta_buffer_origin *origin;
    size_t *offsets;
    size_t n_req;
    int32_t *buffer_of;       /* with ALIAS/INPLACE: per global tensor, its group's tensor */
    size_t *buffer_at;        /* with them: per global tensor, its byte offset in the group (CONCAT) */
    size_t planned, lower_bound, max_scratch, sum_scratch, records, tables;
    size_t n_sops;            /* ops that need scratch (either mode) */
    size_t image;             /* const image bytes */
    size_t n_vars, var_bytes; /* variable tensors (LSTM/SVDF state) and their data, each at its alignment */
    size_t n_state_ops, state_bytes; /* ops that keep state, and that state, tail_align each */
    size_t n_tensors, n_io;   /* tensors (of every subgraph), inputs + outputs of subgraph 0 */
    /* control flow and resource variables (runtime_subgraph.c): with several
     * subgraphs or a VAR_HANDLE, the flow block in the tail */
    bool flow;
    size_t flow_bytes;
    /* from an init table: its flow section (len bytes) and the op
     * definitions' host for it (NULL: none) */
    const uint8_t *fsec;
    size_t fsec_len;
    const struct ta__flow_table *ftab;
    size_t n_flow_ops;     /* with flow: every op (of every subgraph) */
    uint32_t n_rvars;      /* resource variables, and their bytes (tail_align each) */
    size_t rvar_bytes;
    /* the alignment rule (lifetime.h): */
    uint32_t *talign;         /* per global tensor: what op modules declare (work-block path) */
    size_t tail_align;        /* every tail block and the tail's start: ALIGN under
                                 TFLM's rule, else TAIL_ALIGN or more (variables,
                                 shared scratch) */
    size_t arena_align;       /* the head's start: tail_align or the plan's largest */
} ta__built;

/* Persistent layout, in carve order from the tail start (offsets). */
typedef struct ta__tail {
    size_t ptrs, sptrs, io, image, shared, poison, vars, state, flow;
    size_t total;
} ta__tail;

/* The work-block path (runtime_build.c). */
struct ta__work_path {
    /* verifies the model's structure at open (ta_tflite_open) */
    ta_status (*open)(ta_tflite_model *m, const void *bytes, size_t len, ta_diag *diag);
    /* first guess at the work block (ta_runtime_work_bytes) */
    size_t (*work_guess)(const ta_runtime *rt);
    /* steps 1-5 of runtime.c's comment into *w, in the work block */
    ta_status (*build)(ta_runtime *rt, void *work, size_t work_bytes, ta__built *w, ta_diag *diag);
    /* points the runtime into the arena from *w (head and tail placed,
     * t laid out), writes the const image unless a blob supplies it */
    ta_status (*init)(ta_runtime *rt, const ta__built *w, const ta__tail *t, uint8_t *head, uint8_t *tp,
                      ta_diag *diag);
    /* the budget table's planner (ta_runtime_use_budget) and the rewrite
     * flags' names, for the init-table path's messages and checks */
    ta_plan_fn budget_plan;
    const char *(*rewrite_names)(uint32_t flags, char *buf, size_t len);
    /* poison mode (only the work-block path sets it up): before the first
     * op, before the op at step s, after it */
    void (*poison_start)(ta_runtime *rt);
    void (*poison_fill)(ta_runtime *rt, int32_t s);
    ta_status (*poison_check)(ta_runtime *rt, int32_t s, uint32_t op, ta_diag *diag);
};
extern const struct ta__work_path ta__work_path_full;

/* The init table's words for the alignment rule (ta_runtime_export_init):
 * its code, the head's and the tail's alignment (0, 0, 0 in tables made
 * before the rules: TFLM's, 16, 16).  A HEAD or VAR tensor entry carries
 * log2 of its alignment in bits 16-23 of its first word. */
#define INIT_RULE_AT 52u
#define INIT_HEAD_ALIGN_AT 56u
#define INIT_TAIL_ALIGN_AT 60u

static inline uint32_t ta__rt_log2(size_t a) {
    uint32_t l = 0;
    while (((size_t)1 << l) < a && l < 31) l++;
    return l;
}

/* The flow block (runtime_subgraph.c): what running subgraphs and
 * variables needs, per global op and per variable, in the tail. */
typedef struct ta__rt_fop {
    void *scratch, *state;
    int32_t step;       /* its lifetime step (poison mode) */
    uint32_t tbase, sg; /* its subgraph's first tensor, its subgraph */
    /* a control-flow op (poison mode): its first subgraph, and per called
     * subgraph (first, second) how far that call's steps lie from the
     * subgraph's own (its ops' `step`, from its last call in the
     * lifetimes): a subgraph run from two ops runs each call at its own */
    uint32_t sub_a;
    int32_t dsub[2];
} ta__rt_fop;
typedef struct ta__rt_rvar {
    uint8_t *data;
    uint32_t bytes;
    uint8_t fill;
} ta__rt_rvar;
struct ta__rt_flow {
    ta__op_host host;
    uint32_t n_main, n_ops, n_vars, n_sg;
    uint32_t spent; /* WHILE body runs in this invoke (host.spent) */
    uint32_t cur;   /* the op running (UINT32_MAX: none yet), and the */
    int32_t delta;  /* offset of the running call's steps (poison mode) */
    ta__rt_fop *ops;   /* per global op */
    ta__rt_rvar *vars; /* per resource variable */
};
/* The flow block's bytes (w->g set); TA_E_* when a variable op is refused.
 * Both this and the init-table path's check put the block's figures in
 * rt->b (flow_bytes...: ta_runtime_persistent_bytes_abi). */
ta_status ta__rt_flow_bytes(ta_runtime *rt, ta__built *w, ta_diag *diag);
void ta__rt_flow_figures(ta_runtime *rt, const ta__built *w);
void ta__rt_flow_init(ta_runtime *rt, const ta__built *w, uint8_t *block);
/* Both paths: the block's bytes for n_ops ops and n_vars variables holding
 * var_bytes (tail_align each), with pointers of ptr_bytes (the host's, or
 * another ABI's: ta_runtime_persistent_bytes_abi); the block laid out at
 * `block` (header, host, op and variable tables; the variables' data
 * follows the variable table). */
size_t ta__rt_flow_block_bytes(size_t n_ops, size_t n_vars, size_t var_bytes, size_t tail_align, size_t ptr_bytes);
struct ta__rt_flow *ta__rt_flow_layout(uint8_t *block, uint32_t n_main, uint32_t n_ops, uint32_t n_vars,
                                       size_t tail_align, uint8_t **var_data);

/* The init table's flow section (runtime_flow_table.c), after the io
 * records of a table of format INIT_VERSION_FLOW, 32-bit words:
 *   subgraphs S, resource variables V, 0, 0;
 *   per subgraph (4 words): op_base, n_ops, tensor_base, n_tensors;
 *   per resource variable (2 words): bytes, reset byte.
 * The init-table path reaches it only through the control-flow and
 * variable op definitions (ops/op.h: ta_op_def.flow_table), so a firmware
 * whose op list has none of them links none of it. */
#define FLOW_HDR 16u
#define FLOW_SG 16u
#define FLOW_VAR 8u
struct ta__flow_table {
    /* checks w->fsec against the table's n_ops ops and n_t tensors; sets
     * w->flow, w->flow_bytes, w->n_rvars, w->rvar_bytes */
    ta_status (*check)(ta_runtime *rt, ta__built *w, uint32_t n_ops, uint32_t n_t, ta_diag *diag);
    /* lays out the flow block at `block` (fast_init, after the scratch and
     * state pointers) */
    void (*init)(ta_runtime *rt, const ta__built *w, uint8_t *block);
};
/* The section's bytes for the runtime (rt->flow set) and w's graph, and
 * the section itself (export init: the work-block path). */
size_t ta__rt_flow_section_bytes(const ta_runtime *rt, const ta__built *w);
void ta__rt_flow_section_write(const ta_runtime *rt, const ta__built *w, uint8_t *out);
void ta__rt_flow_reset(ta_runtime *rt);
/* Before an invoke: the host (NULL without flow), subgraph 0's op count. */
const ta__op_host *ta__rt_flow_host(ta_runtime *rt);
static inline uint32_t ta__rt_main_ops(const ta_runtime *rt) { return rt->flow ? rt->flow->n_main : rt->n_ops; }
/* Op o's step (subgraph 0's ops: invoke's loop); with flow it also
 * becomes the op running, which a control-flow op's call starts from. */
static inline int32_t ta__rt_op_step(const ta_runtime *rt, uint32_t o) {
    return rt->flow ? (rt->flow->cur = o, rt->flow->ops[o].step) : (int32_t)o + 1;
}
static inline uint32_t ta__rt_op_tbase(const ta_runtime *rt, uint32_t o) { return rt->flow ? rt->flow->ops[o].tbase : 0; }

/* runtime.c, for both paths: */
ta_status ta__rt_blob_header(const ta_runtime *rt, uint32_t n_ops, uint32_t n_tensors, size_t want, ta_diag *diag);
ta_status ta__rt_budget_plan(void *ctx, const ta_request *reqs, size_t n, void *work, size_t work_bytes,
                             size_t *work_need, size_t *offsets, size_t *arena_bytes, ta_diag *diag);
void ta__rt_reset_vars(ta_runtime *rt);
uint32_t ta__rt_init_sum(const uint8_t *t, size_t n);
uint64_t ta__rt_init_table_bytes(uint64_t n_t, uint64_t n_ops, uint64_t n_io);

/* Where the buffer at plan offset off (bytes long) lives: head + off in one
 * arena; across regions (runtime_regions.c) its region's memory, and a
 * buffer crossing its region's end sets rt->rg.fault (init then fails). */
uint8_t *ta__rt_region_at(ta_runtime *rt, size_t off, size_t bytes);
static inline uint8_t *ta__rt_at(ta_runtime *rt, size_t off, size_t bytes) {
    return rt->rg.n ? ta__rt_region_at(rt, off, bytes) : rt->head + off;
}
/* Across regions: the persistent region's planned bytes (the head init lays
 * out there); with one arena rt->b.planned. */
size_t ta__rt_head_planned(const ta_runtime *rt);
/* What one build does about patch stages (patch.h): clear, whose
 * DWINPLACE marks are cleared (0: none, 1: every op a stage could take, 2:
 * the ops of `plan`'s stages); choose: pick the stages on this build's
 * requests, else apply `plan`.  The build reports whether the graph has a
 * chain a stage could take (chains) and leaves what it applied in `plan`. */
typedef struct ta__patch_ctl {
    int clear;
    bool choose;
    ta_patch_plan plan;
    bool chains;
} ta__patch_ctl;

/* runtime_build.c: steps 1-5 of runtime.c's comment once, with patch
 * stages as *pc asks (NULL: none considered). */
ta_status ta__rt_build_once(ta_runtime *rt, void *work, size_t work_bytes, ta__built *w, ta__patch_ctl *pc,
                            ta_diag *diag);
/* runtime_patch_build.c: the work path's build -- ta__rt_build_once with patch
 * stages considered when the options ask (the driver), and the marks a
 * patch build clears. */
ta_status ta__rt_patch_build(ta_runtime *rt, void *work, size_t work_bytes, ta__built *w, ta_diag *diag);
void ta__rt_patch_marks(ta_graph *g, ta__patch_ctl *pc);

/* Whether this build runs patch stages: a firmware built without prepares
 * (ops/op.h: TA_OPS_NO_PREPARE) links no band loop unless its budget header
 * has stages and it is built with TA_OPS_PATCHES (examples/cortex_m/build.sh
 * does when the header defines <P>_PATCH_STAGES); the constant drops the
 * calls, and init from a table with stages is refused in one line. */
#if defined(TA_OPS_NO_PREPARE) && !defined(TA_OPS_PATCHES)
#define TA__RT_PATCHES 0
#else
#define TA__RT_PATCHES 1
#endif

/* runtime_patch.c: one stage op as the band loop runs it. */
typedef struct {
    size_t in_row[2], out_row; /* bytes of one row of each row input, of the output */
    const uint8_t *rec;
    void *scratch;
    int32_t in[2], out; /* tensor indices */
    bool elem, whole;   /* elementwise; its record gave the whole tensors' bytes (unary) */
} ta__stage_op;
/* runtime_patch.c: stage s's ops from their records (so[], dag[]: at least
 * TA_PATCH_MAX_OPS each): kinds, tensors, row geometry, which op feeds
 * which; TA_E_BAD_REQUEST / TA_E_UNSUPPORTED when s is not a stage these
 * records can run.  slot (or NULL): the scratch slots taken in op order. */
ta_status ta__rt_patch_setup(const ta_runtime *rt, const ta_patch_stage *s, ta__stage_op *so, ta_patch_dag_op *dag,
                             uint32_t *slot, ta_diag *diag);
/* runtime_patch.c: runs patch stage s (of rt->patch) band by band; *slot
 * is the scratch slot of its first op, advanced past the stage.  poison:
 * the work path when poison mode is on, else NULL. */
ta_status ta__rt_patch_invoke(ta_runtime *rt, const ta_patch_stage *s, const struct ta__work_path *poison,
                              uint32_t *slot, ta_diag *diag);

/* runtime_init_stages.c: patch stages in the init table (format version 3).
 * The bytes a section of n stages takes (0 without); the bytes a table's
 * header (and stage count) say it has (UINT64_MAX: a count out of range);
 * the stages of table t (whose frame ta__rt_init_frame checked: magic,
 * version, size, checksum); the table the work-block path takes a budget's stages
 * from (NULL: none, the options decide); a stage intermediate's entry bytes
 * in an exported table; the section written at `at`; and init's proof that
 * every band of rt->patch fits the bytes table t plans for its tensors. */
uint64_t ta__rt_init_stage_bytes(uint32_t n_stages);
uint64_t ta__rt_init_expected(const uint8_t *t, size_t tn);
ta_status ta__rt_init_stages(const uint8_t *t, ta_patch_plan *out, ta_diag *diag);
const uint8_t *ta__rt_stage_table(const ta_runtime *rt, size_t *bytes);
/* runtime.c: the frame of init table t (tn bytes), nothing of its contents:
 * alignment, magic, format version, the size its header, records and stage
 * section say (a flow section runs to the end: its reader checks it), the
 * checksum.  *base: where the sections after the io records start.
 * TA_E_MISALIGNED, TA_E_MALFORMED, TA_E_UNSUPPORTED (stages in a runtime
 * built without them), TA_E_BAD_REQUEST (a version or size that is not
 * this runtime's, a corrupted table). */
ta_status ta__rt_init_frame(const uint8_t *t, size_t tn, uint64_t *base, ta_diag *diag);
uint32_t ta__rt_stage_tensor_bytes(const ta_runtime *rt, const ta__built *w, uint32_t k, size_t whole);
void ta__rt_init_write_stages(uint8_t *at, const ta_patch_plan *p);
ta_status ta__rt_patch_bounds(const ta_runtime *rt, const uint8_t *t, ta_diag *diag);

#endif
