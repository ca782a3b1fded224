/*
 * tinyarena/runtime.h -- run a model read in place, from one caller arena.
 *
 * The arena is one caller buffer.  Its head holds the planned part: every
 * activation tensor and (in `planned` scratch mode) every kernel scratch
 * buffer, at the offsets a plan gave them.  Its tail holds the persistent
 * part, growing down from the far end as in TFLM: the tensor pointer table,
 * the kernel scratch pointers, the input/output descriptions, the op
 * constants, the variable tensors and op state (LSTM/SVDF state, spectral subtraction's
 * noise estimates; see ta_runtime_reset)
 * and, in `shared` scratch mode, the one scratch region every op shares.  Weights and other constants are never copied: they are read from
 * the model bytes.
 *
 * The op constants are everything prepare derives once and invoke only
 * reads: one record per op (kernel params, tensor indices) and its tables
 * (per-channel requantisation multipliers and shifts, ...).  They form one
 * position-independent, ABI-independent image (no pointers, 32-bit words).
 * By default init builds it in the tail.  ta_runtime_export_consts() copies
 * it out; a later runtime given that blob (ta_runtime_use_consts, or the
 * `consts` of a budget header) reads the constants from it -- in flash, on
 * firmware -- and the tail shrinks to the tables that hold addresses.  The
 * blob is checked before use: format version, size, the model's hash, and
 * every op record byte for byte against what prepare derives.
 *
 * Init needs a transient work block (the imported graph, lifetimes, buffer
 * requests, planner scratch); it is only used during ta_runtime_query() and
 * ta_runtime_init() and may be freed afterwards.  With an init table and a
 * const blob (a budget header carries both) it needs none: query and init
 * read the two blobs and the model bytes, check them (model hash, blob and
 * table headers and checksums, every op record's checksum, every offset
 * within its region) and write only the persistent tail, so the arena is
 * planned + persistent + alignment, nothing more.  After init the runtime
 * never allocates: invoke touches only the arena and the model.
 *
 *     ta_runtime rt;
 *     ta_runtime_options opt = ta_runtime_options_default();   // planner: "greedy"
 *     ta_runtime_open(&rt, model, model_len, &opt, &diag);
 *     size_t work = ta_runtime_work_bytes(&rt);                // grows: see below
 *     ta_arena_breakdown b;
 *     while (ta_runtime_query(&rt, work_mem, work, &b, &diag) == TA_E_NO_MEMORY)
 *         work = b.work_bytes, work_mem = realloc(work_mem, work);
 *     ... arena of b.total bytes (any alignment) ...
 *     ta_runtime_init(&rt, work_mem, work, arena, b.total, &diag);
 *     free(work_mem);
 *     memcpy(ta_runtime_input(&rt, 0)->data, pixels, ...);
 *     ta_runtime_invoke(&rt, &diag);
 *     ... ta_runtime_output(&rt, 0)->data ...
 *
 * Errors carry one-line diagnostics: an arena that is too small gives
 * TA_E_NO_MEMORY with "arena needs X bytes, has Y" (nothing is written);
 * an op without a kernel gives TA_E_UNSUPPORTED naming the op, its index
 * and the type ("op 3 (CONV_2D): input type int16 is not supported").
 */
#ifndef TINYARENA_RUNTIME_H
#define TINYARENA_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinyarena/patch.h"
#include "tinyarena/budget.h"
#include "tinyarena/graph.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/ops.h"
#include "tinyarena/plan.h"
#include "tinyarena/status.h"
#include "tinyarena/tflite.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where kernel scratch buffers live. */
typedef enum ta_scratch_mode {
    TA_SCRATCH_PLANNED = 0, /* each op's scratch is an [op, op] buffer in the plan */
    TA_SCRATCH_SHARED = 1   /* one tail region, sized to the largest request, for all ops */
} ta_scratch_mode;

/*
 * The plan source: a function that assigns an offset to each request.  The
 * runtime calls it once during query/init with the planner's requests
 * (planned tensors in tensor order, then scratch buffers).  It writes
 * offsets[0..n) and *arena_bytes (the planned part's size).  `work` is
 * scratch memory of `work_bytes` (as it asked for through *work_need when
 * called with work == NULL first).  ctx is ta_runtime_options.planner_ctx.
 * ta_runtime_use_strategy() installs a planner strategy; a generated budget
 * table installs ta_runtime_use_table() and needs no planner code.
 */
typedef ta_status (*ta_plan_fn)(void *ctx, const ta_request *reqs, size_t n, void *work,
                                 size_t work_bytes, size_t *work_need, size_t *offsets,
                                 size_t *arena_bytes, ta_diag *diag);

/* The same plan source given overlap relations (plan.h ta_overlap, request
 * indices): the OVERLAP rewrite's (rewrite.h), which the plan may use or
 * ignore.  ta_runtime_use_strategy installs one; without one the runtime
 * plans with `planner` and no relation (disjoint buffers: always safe). */
typedef ta_status (*ta_plan_overlap_fn)(void *ctx, const ta_request *reqs, size_t n, const ta_overlap *overlaps,
                                        size_t n_overlaps, void *work, size_t work_bytes, size_t *work_need,
                                        size_t *offsets, size_t *arena_bytes, ta_diag *diag);

/* A precomputed plan (the budget table a generated header carries). */
typedef struct ta_plan_table {
    const uint32_t *offsets; /* one per request, in request order */
    size_t n;
    size_t planned_bytes;    /* the planned part's size */
} ta_plan_table;

typedef struct ta_runtime_options {
    ta_plan_fn planner;        /* required; see ta_runtime_use_strategy/_table */
    void *planner_ctx;
    ta_scratch_mode scratch;   /* default PLANNED */
    bool poison;               /* canaries and checksums around every op (see below) */
    uint32_t subgraph;         /* only 0 is supported */
    uint64_t model_hash;       /* nonzero: ta_runtime_open refuses other model bytes
                                  (ta_budget_hash); set by ta_runtime_use_budget */
    const void *consts;        /* op constants blob (ta_runtime_export_consts), 8-byte
                                  aligned, or NULL: built in the arena tail */
    size_t consts_bytes;
    uint32_t rewrites;         /* TA_REWRITE_* (rewrite.h): run the rewritten graph --
                                  shared buffers, in-place ops, PADs folded into
                                  convs.  0 (default): TFLM's graph and rules.  Op
                                  indices in messages are the rewritten graph's.
                                  Set by ta_runtime_use_budget from the table. */
    const void *init;          /* init table (ta_runtime_export_init), 4-byte aligned,
                                  or NULL.  With `consts` (and no poison), query and
                                  init take everything from the two blobs and the
                                  model bytes: no import, no prepare, no lifetimes,
                                  no planner, no work block.  Set by
                                  ta_runtime_use_budget from the table. */
    size_t init_bytes;
    const ta_op_list *ops;     /* the op definitions the runtime may run (ops.h); a
                                  model op without one fails at query/init naming
                                  the op.  Must outlive the runtime; NULL: open
                                  refuses. */
    const struct ta__work_path *work_path;
                               /* internal: the work-block path (import, prepare,
                                  lifetimes, rewrites, plan).  Set by
                                  ta_runtime_options_default/_for_ops; NULL from
                                  ta_runtime_options_for_budget: query and init
                                  then run only from an init table and a const
                                  blob (TA_E_UNSUPPORTED otherwise), and the
                                  firmware links none of that path. */
    ta_align_rule align_rule;  /* the alignment rule the plan is made under
                                  (lifetime.h): every planned buffer at a
                                  multiple of its alignment, the tail's
                                  blocks at their records' natural alignment
                                  (8; TFLM's rule: 16 for everything).
                                  Default TA_ALIGN_RULE_DEFAULT (arch, 4);
                                  set by ta_runtime_use_budget from the table,
                                  and query/init refuse a budget or init
                                  table planned under another rule. */
    ta_plan_overlap_fn planner_overlaps;
                               /* optional, with rewrites & TA_REWRITE_OVERLAP:
                                  plans with the relations the rewrite derives
                                  (same planner_ctx).  Set by
                                  ta_runtime_use_strategy; cleared by
                                  use_table and use_budget (their offsets
                                  already carry whatever overlap they planned). */
    const struct ta_region_layout *regions;
                               /* optional: the plan spans several memory
                                  regions (ta_runtime_use_regions); then
                                  ta_runtime_init_regions, not ta_runtime_init */
    uint32_t max_iterations;   /* WHILE: body runs per invoke (every WHILE op and
                                  nesting level together) before the invoke fails
                                  with TA_E_TIMEOUT ("WHILE: still running after N
                                  iterations in this invoke"); 0:
                                  TA_RUNTIME_MAX_ITERATIONS */
    uint32_t patch_overhead;   /* patch-based execution (patch.h): the most extra
                                  MACs (percent of the graph's) a patch stage may
                                  cost; the work-block path then plans and runs
                                  the stage that gives the smallest planned arena,
                                  if one beats layer by layer.  0 (default): none.
                                  An init table carries the stages of its plan
                                  (format version 2): with one (or a budget's),
                                  the table's stages run, whatever this says. */
} ta_runtime_options;
#define TA_RUNTIME_MAX_ITERATIONS 1000000u

/* Defaults: scratch PLANNED, no poison, no rewrites, alignment rule `arch`
 * with a 4-byte word, planner NULL (pick one below), every op (ops =
 * &ta_op_list_all: links every kernel). */
ta_runtime_options ta_runtime_options_default(void);

/* The same defaults with the op list `ops` (a budget header's <P>_OPS):
 * firmware that calls only this links only the kernels the list names. */
ta_runtime_options ta_runtime_options_for_ops(const ta_op_list *ops);

/* Firmware options: the op list `ops` (a header's <P>_OPS) and the budget
 * (ta_runtime_use_budget), and no work-block path.  Query and init then
 * run only from the budget's init table and const blob (model hash, table
 * checksum, record checksums and every region still checked); a budget
 * without them, or poison mode, fails at query/init with TA_E_UNSUPPORTED
 * and one line (use ta_runtime_options_for_ops).  The firmware links
 * neither the TFLite importer, the rewrites, lifetimes nor any op's
 * prepare: only the init-table path and the ops' invoke (ta_runtime_work_bytes
 * is 0; ta_runtime_export_init needs a plan source: not with these options).
 * With a NULL budget open refuses (no model hash). */
ta_runtime_options ta_runtime_options_for_budget(const ta_budget *budget, const ta_op_list *ops);

/* Plans with the named strategy of plan.h ("greedy", "best", ...).
 * TA_E_UNKNOWN_STRATEGY for an unknown name.  (src/runtime/plan_strategy.c:
 * links the planner.) */
ta_status ta_runtime_use_strategy(ta_runtime_options *opt, const char *name);

/* Uses a precomputed table (no planner code).  The runtime checks that the
 * table has one offset per request, that every buffer fits in
 * planned_bytes and is aligned. */
void ta_runtime_use_table(ta_runtime_options *opt, const ta_plan_table *table);

/* Uses a budget table emitted by `tinyarena plan --header` (budget.h): its
 * entries must be the runtime's requests in order (same lifetimes, sizes
 * within the entry), and the model bytes must hash to model_hash.  A table
 * made without kernel scratch entries matches SHARED scratch mode (or a
 * model with no scratch).  The table's rewrites become opt->rewrites; query
 * refuses a table whose rewrites differ from opt->rewrites.  No planner
 * code is linked. */
void ta_runtime_use_budget(ta_runtime_options *opt, const ta_budget *budget);

/* Reads the op constants from a blob that ta_runtime_export_consts() made
 * for the same model bytes (a budget header carries one; use_budget sets
 * it), instead of building them in the arena: the persistent part shrinks
 * by ta_arena_breakdown.const_bytes.  The blob must stay valid and
 * unchanged while the runtime lives; it must be 8-byte aligned.  query and
 * init refuse a blob that does not match, with a one-line diag:
 * TA_E_MALFORMED (not a blob, other byte order), TA_E_BAD_REQUEST (other
 * format version, other model bytes, other size, an op record that differs
 * from what this runtime derives), TA_E_MISALIGNED.  NULL: no blob. */
void ta_runtime_use_consts(ta_runtime_options *opt, const void *consts, size_t bytes);

/* Uses an init table made by ta_runtime_export_init() for the same model
 * bytes, plan, rewrites and scratch mode (a budget header carries one;
 * use_budget sets it).  Together with a const blob, init then needs no work
 * block at all (see ta_runtime_init).  NULL: none. */
void ta_runtime_use_init(ta_runtime_options *opt, const void *init, size_t bytes);

/* The kernel scratch requests of every op of g (subgraph by subgraph, as
 * the runtime prepares them) -- what each op's prepare
 * asks for -- so that a planner outside the runtime (plan --header) can
 * plan them as [op, op] buffers exactly as the runtime will (with
 * rewrites, pass the rewritten graph: ta_rewrite_graph).  Validates
 * every op like prepare (TA_E_UNSUPPORTED names an op without a kernel).
 * Writes up to cap requests; *n gets the count.  Each request's align is
 * what its op module declares for its kernel's scratch. */
ta_status ta_runtime_scratch_requests(const ta_graph *g, ta_scratch_request *out, size_t cap, size_t *n,
                                      ta_diag *diag);

/* What the op modules (every op, ta_op_list_all) declare of the alignment
 * of g's tensors: out[i] (n == g->n_tensors) is the most any op reading or
 * writing global tensor i needs, in bytes (0: its element size), for
 * ta_lifetime_options.tensor_align, so that a planner outside the runtime
 * aligns buffers exactly as the runtime will.  TA_E_INVALID_ARG for a NULL
 * argument or n != g->n_tensors. */
ta_status ta_runtime_operand_align(const ta_graph *g, uint32_t *out, size_t n, ta_diag *diag);

/* The arena breakdown, all in bytes.  total = planned + persistent +
 * alignment; scratch is the part of planned (PLANNED mode) or of persistent
 * (SHARED mode) that holds kernel scratch. */
typedef struct ta_arena_breakdown {
    size_t planned;    /* head: the plan's arena (activations + planned scratch) */
    size_t scratch;    /* scratch bytes: sum of requests (PLANNED) or the shared region (SHARED) */
    size_t persistent; /* tail: tables and op records (and the shared scratch region) */
    size_t alignment;  /* bytes lost aligning the head start and the tail (worst case for any base) */
    size_t total;      /* what ta_runtime_init needs, for any arena address */
    size_t work_bytes; /* transient work block needed by query/init (0 from
                              an init table and a const blob: none) */
    size_t total_in_place; /* arena for ta_runtime_init(work = NULL): the
                              work block then lives in the head, which is
                              free until the first invoke; so this is
                              max(planned, work) + persistent + alignment
                              (= total from an init table and a const blob) */
    size_t n_buffers;  /* planned buffers (tensors + planned scratch) */
    size_t lower_bound;/* most planned bytes live at once (no plan can be smaller);
                          from an init table, query computes it and init keeps
                          query's (0 when init runs without a query) */
    /* The persistent part by category (each with its alignment padding; the
     * six below and `variables` sum to persistent). */
    size_t tensor_table;   /* one data pointer per tensor of the subgraph */
    size_t op_records;     /* the kernel scratch pointers; without a const blob
                              also the image's header and one record per op
                              (kernel params, tensor indices) */
    size_t op_tables;      /* per-op constant tables: per-channel multipliers
                              and shifts, concatenation sizes */
    size_t io_table;       /* input/output descriptions (ta_io) */
    size_t shared_scratch; /* SHARED scratch mode's region */
    size_t poison_table;   /* poison mode's per-buffer records */
    size_t const_bytes;    /* the op constants image (ta_runtime_export_consts):
                              in op_records + op_tables, or outside the arena
                              (op_tables 0) when a const blob supplies it */
    size_t variables;      /* variable tensors (LSTM/SVDF state): their data and
                              reset records, and the state ops keep internally
                              (spectral subtraction's noise estimates); part of
                              persistent, like the six categories above */
    /* What the persistent part is laid out from, so that it can be sized for
     * another ABI (ta_runtime_persistent_bytes_abi): tensors, ops with kernel
     * scratch, inputs + outputs, variable tensors and their data (each at its
     * alignment), ops with state and that state (tail_align each). */
    size_t n_tensors, n_scratch_ops, n_io, n_vars, var_data_bytes, n_state_ops, state_data_bytes;
    size_t image_tail_bytes; /* the op constants image in the tail, tail_align-aligned (0 with a blob) */
    /* The alignment rule's part (appended): */
    uint32_t align_rule;   /* ta_align_rule_code of the rule planned under */
    size_t tail_align;     /* every block of the persistent part starts at a
                              multiple of it: 16 under TFLM's rule, else 8
                              (more for a variable or shared scratch that asks) */
    size_t head_align;     /* the planned part's start (alignment = head_align - 1) */
    /* Control flow and resource variables (appended): the flow block (part
     * of `variables`; 0 without several subgraphs or a VAR_HANDLE) and what
     * it is laid out from -- every op of every subgraph, the resource
     * variables and their data (tail_align each). */
    size_t flow_bytes, n_flow_ops, n_flow_vars, flow_var_bytes;
} ta_arena_breakdown;

/* The persistent part b describes, laid out by a runtime built for another
 * ABI: pointers of ptr_bytes, sizeof(ta_io) == io_bytes, sizeof(ta_var_rec)
 * == var_rec_bytes (a 32-bit MCU: 4, 60, 16).  With this host's sizes it is
 * b->persistent.  SIZE_MAX in poison mode (its tables are not counted). */
size_t ta_runtime_persistent_bytes_abi(const ta_arena_breakdown *b, size_t ptr_bytes, size_t io_bytes,
                                       size_t var_rec_bytes);

/* A model input or output. */
typedef struct ta_io {
    void *data;        /* in the arena (valid after init) */
    size_t bytes;
    ta_dtype dtype;
    int32_t rank;
    int32_t shape[TA_MAX_RANK];
    float scale;       /* 0 when not quantised */
    int32_t zero_point;
    int32_t tensor;    /* tensor index in the subgraph */
} ta_io;

/* Poison mode: before each op, every byte of the planned part that holds no
 * live data is filled with a canary; after each op, every live tensor's
 * checksum (taken when it was written -- with rewrites, again whenever an op
 * writes into its shared buffer) is checked.  The first tensor found
 * changed is reported with the op that ran just before the check.  An op
 * whose output the plan overlaps with its dying input (the OVERLAP
 * rewrite) checks each band of output rows against its walk before writing
 * it and fails with TA_E_OVERLAP when a row would land on input bytes still
 * to be read; that input alone is then exempt from the checksum. */
typedef struct ta_poison_report {
    bool clobbered;
    int32_t tensor;    /* the first live tensor found changed; -1 when an op's
                          own walk check failed (ta__op_invoke_checked: its
                          output would land on input bytes still to be read) */
    int32_t op;        /* the op that clobbered it */
} ta_poison_report;

/* Poison mode's view of one planned buffer. */
typedef struct ta_poison_buf {
    uint8_t *data;
    size_t bytes;
    int32_t first, last; /* live steps; op k runs at step k + 1 */
    int32_t tensor;      /* tensor index, or -1 - op for an op's scratch */
    uint32_t sum;        /* checksum taken when it was written */
    uint32_t taken;      /* sum taken in this invoke: a buffer live but never
                            written (its creating call skipped: an IF's other
                            branch that another call keeps live) has its
                            sum taken where it is first found live */
} ta_poison_buf;

/* A variable tensor's place in the tail and its reset byte. */
typedef struct ta_var_rec {
    void *data;
    uint32_t bytes;
    uint32_t tensor; /* tensor index in the subgraph */
    uint8_t fill;    /* int8: the zero point; other types 0 */
} ta_var_rec;

/* Caller-owned runtime state.  Treat fields as private. */
typedef struct ta_runtime {
    ta_tflite_model model;
    ta_runtime_options opt;
    int state; /* 0 closed, 1 open, 2 queried, 3 ready */
    ta_arena_breakdown b;
    /* after init: */
    uint8_t *head;        /* planned part */
    uint8_t *tail;        /* persistent part start */
    void **ptrs;          /* per tensor of the subgraph */
    const uint8_t *consts;/* the op constants image (tail or caller's blob) */
    void **scratch_ptrs;  /* per op that needs scratch, in op order */
    uint32_t n_scratch_ops;
    uint32_t n_ops, n_tensors;
    ta_io *inputs, *outputs;
    uint32_t n_inputs, n_outputs;
    /* poison mode: one record per planned buffer, and their order by address */
    struct ta_poison_buf *pbuf;
    uint32_t *porder;
    size_t n_pbuf;
    int32_t *pgroup;      /* with rewrites: per tensor, the poison record of its buffer (-1: none) */
    ta_poison_report poison;
    /* variable tensors (persistent state of LSTM/SVDF ops) */
    ta_var_rec *vars;
    uint32_t n_vars;
    /* state ops keep internally (spectral subtraction's noise estimates):
     * one pointer per such op, in op order */
    void **state_ptrs;
    uint32_t n_state_ops;
    /* several memory regions (ta_runtime_init_regions; n 0: one arena):
     * where each region's part of the plan lives, and whether a buffer was
     * found crossing its region's end */
    struct {
        uint32_t n, fault;
        uint8_t *base[8];
    } rg;
    /* control flow and resource variables (several subgraphs, VAR_HANDLE):
     * per op and per variable, in the tail; NULL otherwise */
    struct ta__rt_flow *flow;
    /* the patch stages query/init chose (patch.h; n_stages 0: none) */
    ta_patch_plan patch;
} ta_runtime;

/* The patch stages the runtime runs band by band (n_stages 0: none), after
 * query; bytes_before/after are the planned arenas (head) layer by layer
 * and with the stages. */
const ta_patch_plan *ta_runtime_patch(const ta_runtime *rt);

/* Verifies the model (ta_tflite_open) and keeps the options.  No memory.
 * With firmware options (ta_runtime_options_for_budget) the model is not
 * parsed: its bytes must hash to the budget's model_hash (the host verified
 * those bytes) and be 8-byte aligned. */
ta_status ta_runtime_open(ta_runtime *rt, const void *model, size_t len,
                          const ta_runtime_options *opt, ta_diag *diag);

/* A first guess at the work block (graph + lifetimes + requests); query
 * corrects it upward if the planner needs more.  0 with an init table and a
 * const blob (nothing is built). */
size_t ta_runtime_work_bytes(const ta_runtime *rt);

/* Imports, prepares every op (each validates its op and states its scratch
 * need), analyses lifetimes and plans, then fills *b.  Writes only into
 * work.  TA_E_NO_MEMORY with b->work_bytes set when work is too small.
 * TA_E_UNSUPPORTED naming the op for ops/types without a kernel. */
ta_status ta_runtime_query(ta_runtime *rt, void *work, size_t work_bytes, ta_arena_breakdown *b,
                           ta_diag *diag);

/* Does the query's work again (work must be as large as the query said;
 * work == NULL builds in the arena's own head, needing b.total_in_place;
 * from an init table and a const blob there is nothing to build and work
 * is ignored: the arena needs b.total, nothing else is touched),
 * then lays out the arena: op records and tables in the tail, tensors at
 * their planned offsets in the head.  TA_E_NO_MEMORY ("arena needs X bytes,
 * has Y") when arena_bytes < b.total; nothing is written outside
 * [arena, arena + arena_bytes). */
ta_status ta_runtime_init(ta_runtime *rt, void *work, size_t work_bytes, void *arena,
                          size_t arena_bytes, ta_diag *diag);

/* Runs every op once.  TA_E_STATE before init.  In poison mode, stops at
 * the first clobbered tensor with TA_E_OVERLAP and a diag naming the
 * tensor and the op (also in ta_runtime_poison_report). */
ta_status ta_runtime_invoke(ta_runtime *rt, ta_diag *diag);

/* Sets every variable tensor (the persistent state of LSTM and SVDF ops,
 * kept in the tail) back to its initial value, as TFLM's
 * MicroInterpreter::Reset: int8 state to its zero point, other types to
 * zero; and the state ops keep internally (spectral subtraction's noise
 * estimates, also in the tail) to zero, as TFLM's Reset of those ops.  Init
 * does this once; state otherwise carries from one invoke to the next.
 * TA_E_STATE before init. */
ta_status ta_runtime_reset(ta_runtime *rt, ta_diag *diag);

/* Inputs/outputs after init (NULL when k is out of range). */
const ta_io *ta_runtime_input(const ta_runtime *rt, uint32_t k);
const ta_io *ta_runtime_output(const ta_runtime *rt, uint32_t k);
uint32_t ta_runtime_input_count(const ta_runtime *rt);
uint32_t ta_runtime_output_count(const ta_runtime *rt);

/* Copies the op constants image out, for ta_runtime_use_consts (or a
 * header: `tinyarena plan --header` emits it).  Two-phase: *bytes gets the
 * size (ta_arena_breakdown.const_bytes); out == NULL only asks; otherwise
 * out needs cap >= *bytes (TA_E_NO_MEMORY) -- an 8-byte aligned block if
 * it is to be used in place.  After init only (TA_E_STATE). */
ta_status ta_runtime_export_consts(const ta_runtime *rt, void *out, size_t cap, size_t *bytes, ta_diag *diag);

/* Copies the init table out, for ta_runtime_use_init (or a header: `tinyarena
 * plan --header` emits it as <P>_init).  It is the plan and every decision
 * init takes from the model, precomputed: per tensor its place (an offset in
 * the planned head -- a rewrite's shared buffer gives its members the same
 * offset --, an offset into the model bytes for a constant, or a variable
 * in the tail; a tensor a rewrite elided has none), per op (in the order the
 * runtime runs them) the FNV-1a checksum of its const blob record and its
 * scratch offset, and the inputs and outputs; 32-bit words in the host's
 * byte order, position- and ABI-independent, with the model hash, the
 * rewrites, the scratch mode and a checksum of the whole table; a plan
 * with patch stages (patch.h) adds them after the inputs and outputs
 * (format version 2: first op, last op and bands per stage; a stage
 * intermediate's place is one band's bytes), which init from the table
 * runs and proves in bounds before any kernel runs.  Two-phase
 * as export_consts: *bytes gets the size, out == NULL only asks (no work
 * needed); filling it imports the model again in `work` (at least
 * ta_arena_breakdown.work_bytes of a query without an init table;
 * TA_E_NO_MEMORY otherwise).  After init only (TA_E_STATE); not in poison
 * mode (TA_E_UNSUPPORTED). */
ta_status ta_runtime_export_init(ta_runtime *rt, void *work, size_t work_bytes, void *out, size_t cap, size_t *bytes,
                                 ta_diag *diag);

/* Copies the plan out as budget table entries (budget.h), one per planned
 * buffer in the runtime's request order -- what ta_runtime_use_budget
 * checks a table against: kind, subgraph, index, offset, bytes (rounded up
 * to the alignment), first and last step.  With patch stages (patch.h) the
 * requests are the stages' (a stage intermediate holds its largest band),
 * which only the runtime's build makes: `tinyarena plan --header` writes
 * such a plan's table from here.  *n gets the count; out == NULL only asks,
 * otherwise out needs cap >= *n entries (TA_E_NO_MEMORY).  The model is
 * built again in `work`, as ta_runtime_export_init.  After init only
 * (TA_E_STATE); not across regions, with control flow or without the
 * work-block path (TA_E_UNSUPPORTED). */
ta_status ta_runtime_export_plan(ta_runtime *rt, void *work, size_t work_bytes, ta_budget_entry *out, size_t cap,
                                 size_t *n, ta_diag *diag);

/*
 * Several memory regions (issue #16; regions.h plans them).  A plan across
 * regions reaches the runtime as one plan whose offsets are virtual: region
 * k's buffers at start[k] + their offset inside the region, every start a
 * multiple of TA_REGION_START_ALIGN, so any plan source (a strategy wrapper,
 * ta_runtime_use_table, a budget header) carries it unchanged.  The layout
 * tells init where each region's part begins and how long it is; init then
 * points every buffer into its own region's memory.  The persistent part
 * (tables, op records, variables) goes to the region `persistent`, after
 * its planned part, as in one arena.  Nothing else changes: the kernels see
 * pointers, so outputs are the same bytes whatever the assignment.
 */
#define TA_RT_MAX_REGIONS 8u
#define TA_REGION_START_ALIGN 4096u /* the most any alignment rule asks (TA_ALIGN_RULE_MAX) */
typedef struct ta_region_layout {
    uint32_t n;                          /* regions, 1..TA_RT_MAX_REGIONS */
    uint32_t persistent;                 /* the region that also holds the persistent part */
    size_t start[TA_RT_MAX_REGIONS];     /* its part's first virtual offset (multiple of TA_REGION_START_ALIGN) */
    size_t bytes[TA_RT_MAX_REGIONS];     /* its part's bytes (the region's plan) */
    const char *name[TA_RT_MAX_REGIONS]; /* for messages; NULL: "region K" */
} ta_region_layout;

/* One region's memory: any alignment (init aligns inside it). */
typedef struct ta_arena_region {
    void *base;
    size_t bytes;
} ta_arena_region;

/* Lays out n regions of used[k] planned bytes each (starts packed in
 * order, each at a multiple of TA_REGION_START_ALIGN) and turns each
 * buffer's (region_of[i], offsets[i]) into its virtual offset virt[i]
 * (m buffers; virt may be offsets).  TA_E_INVALID_ARG for a bad count or a
 * region index out of range; TA_E_OVERFLOW when a virtual offset would not
 * fit in 32 bits (what a plan table holds). */
ta_status ta_region_layout_make(ta_region_layout *layout, uint32_t n, uint32_t persistent, const size_t *used,
                                const char *const *names, const uint32_t *region_of, const size_t *offsets, size_t m,
                                size_t *virt, ta_diag *diag);

/* Plans across the layout's regions: opt's plan source gives virtual
 * offsets (above); the layout must outlive the runtime.  NULL: one arena. */
void ta_runtime_use_regions(ta_runtime_options *opt, const ta_region_layout *layout);

/* What region k needs, after query: its planned part plus alignment, and
 * for the persistent region the persistent part too.  TA_E_STATE before
 * query, TA_E_INVALID_ARG without a layout or for k out of range. */
ta_status ta_runtime_region_bytes(const ta_runtime *rt, uint32_t k, size_t *bytes);

/*
 * ta_runtime_init across regions: arenas[k] (n == layout->n) is region k's
 * memory.  Needs a query first (the sizes) and a work block (as the query
 * said; none with an init table and a const blob); poison mode is refused
 * (TA_E_UNSUPPORTED: its canaries sweep one head).  A region that is too
 * small fails before anything is written: TA_E_NO_MEMORY with "region FAST
 * needs X bytes, has Y".  A buffer of the plan that crosses its region's
 * end fails with TA_E_BAD_REQUEST and the runtime stays uninitialised.
 * Afterwards invoke, reset and the inputs/outputs work as with one arena;
 * ta_runtime_export_init is refused (export from a one-arena runtime of
 * the same plan: the table holds virtual offsets).  To initialise again,
 * call this again (or ta_runtime_open first for one arena).
 */
ta_status ta_runtime_init_regions(ta_runtime *rt, void *work, size_t work_bytes, const ta_arena_region *arenas,
                                  size_t n, ta_diag *diag);

/* The breakdown (valid after query or init). */
const ta_arena_breakdown *ta_runtime_breakdown(const ta_runtime *rt);

/* Poison mode's last finding. */
const ta_poison_report *ta_runtime_poison_report(const ta_runtime *rt);

#ifdef __cplusplus
}
#endif
#endif
