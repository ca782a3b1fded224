/*
 * tinyarena/lifetime.h -- from a graph to buffer requests.
 *
 * Lifetime analysis walks a ta_graph in execution order and records, for
 * every tensor (and every kernel scratch request), the first and last step at
 * which its bytes must be kept.  ta_lifetime_requests then turns that into
 * the planner's ta_request list.
 *
 * The default rules reproduce TensorFlow Lite Micro's allocator exactly, so
 * `greedy` on the result gives TFLM's arena byte for byte:
 *   - one global step counter ("scope") starts at 0 for subgraph 0;
 *   - a subgraph's inputs and outputs are created at the step it is entered;
 *   - each op advances the counter by one; its outputs are created at that
 *     step; a control-flow op (IF, WHILE, CALL_ONCE) then enters each of its
 *     subgraphs in turn, each entry advancing the counter, and nested ops
 *     advance it further;
 *   - after that, the op's inputs and outputs are last used at the current
 *     step (so a control-flow op's operands live across its subgraphs);
 *   - a subgraph's outputs live to the end of the subgraph;
 *   - an op's scratch buffers live from the op's own step to the step after
 *     its subgraphs (just the op's step for ordinary ops);
 *   - constant tensors (data in the model), variable tensors and zero-byte
 *     tensors are not planned; sizes are rounded up to 16 bytes;
 *   - buffers are listed in tensor order, subgraph by subgraph, then scratch
 *     buffers in request order.
 * For subgraph 0 without control flow this is simply: inputs at step 0, op i
 * at step i + 1.
 *
 *     size_t need = ta_lifetime_bytes(g, n_scratch);
 *     ta_lifetimes lt;
 *     ta_lifetime_analyze(g, scratch, n_scratch, mem, need, &lt, &diag);
 *     size_t n;
 *     ta_lifetime_requests(g, &lt, NULL, NULL, NULL, 0, &n, &diag);   // count
 *     ta_lifetime_requests(g, &lt, NULL, reqs, origin, n, &n, &diag); // fill
 */
#ifndef TINYARENA_LIFETIME_H
#define TINYARENA_LIFETIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinyarena/graph.h"
#include "tinyarena/plan.h"
#include "tinyarena/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A kernel's request for scratch bytes while one op runs. */
typedef struct ta_scratch_request {
    uint32_t subgraph; /* subgraph of the op */
    uint32_t op;       /* op index inside that subgraph */
    size_t bytes;
    size_t align;      /* bytes the kernel needs its scratch aligned to (a power
                          of two; 0: 16, the most any kernel here asks) -- the
                          op module's declaration (ta_runtime_scratch_requests) */
} ta_scratch_request;

/*
 * Alignment rules (the design notes' rules; issue 17).  A rule gives every
 * planned buffer the alignment its offset must be a multiple of; padding
 * counts in the arena (the planner pads a buffer's size up to its
 * alignment), not in the tensor:
 *   TFLM   TFLM's rule exactly: every size rounded up to 16 and every offset
 *          a multiple of 16 (kept for comparison, for TFLM's graph and rules
 *          and for TFLM offline plans);
 *   DTYPE  the element size (float32 4, int16 2, int8 1); sizes not rounded;
 *   ARCH   the element size, but at least the target's word: `bytes`
 *          (0 means 4; 8 where FPU/DSP code loads double words);
 *   FIXED  `bytes` (a power of two) for every buffer, never below its
 *          element size.
 * On top of any rule: what the op modules declare for an operand or a kernel
 * scratch buffer (the most any kernel reading or writing it needs; an
 * operand no declaration names needs its element size), and
 * ta_lifetime_options.align.  The planner takes the largest.
 * The zero value is TFLM's rule (so zeroed options plan as before).
 */
typedef enum ta_align_kind {
    TA_ALIGN_TFLM = 0,
    TA_ALIGN_DTYPE = 1,
    TA_ALIGN_ARCH = 2,
    TA_ALIGN_FIXED = 3
} ta_align_kind;

typedef struct ta_align_rule {
    ta_align_kind kind;
    uint32_t bytes; /* ARCH: the word (0: 4); FIXED: N; else 0 */
} ta_align_rule;

/* The default of the CLI and of ta_runtime_options_default(): ARCH, 4. */
#define TA_ALIGN_RULE_DEFAULT ((ta_align_rule){TA_ALIGN_ARCH, 4u})
/* Most bytes an ARCH word or a FIXED rule may ask (2^12). */
#define TA_ALIGN_RULE_MAX 4096u

/* The rule as one word (what a budget header and an init table record):
 * kind | bytes << 8, with ARCH's 0 made 4; 0 is TFLM's rule. */
uint32_t ta_align_rule_code(ta_align_rule r);
/* The rule a code names; false when the code names none (unknown kind,
 * bytes not a power of two up to TA_ALIGN_RULE_MAX). */
bool ta_align_rule_decode(uint32_t code, ta_align_rule *r);
/* "tflm", "dtype", "arch" (word arch_bytes, 0: 4) or a power of two N (1 to
 * TA_ALIGN_RULE_MAX): TA_E_INVALID_ARG with a one-line diag otherwise. */
ta_status ta_align_rule_parse(const char *s, uint32_t arch_bytes, ta_align_rule *r, ta_diag *diag);
/* "tflm", "dtype", "arch 4", "fixed 8": for messages and reports. */
const char *ta_align_rule_str(ta_align_rule r, char *buf, size_t len);
/* The alignment (bytes) of a buffer of elements of elem_bytes under rule r,
 * with `declared` (0: none) what its kernels declare and min_align (0:
 * none) the caller's minimum. */
size_t ta_align_rule_buffer(ta_align_rule r, size_t elem_bytes, size_t declared, size_t min_align);

/* Result of the analysis.  Arrays live in the caller's block.  A value of
 * -1 means "never set" (e.g. a tensor no op touches; TFLM keeps -1 too). */
typedef struct ta_lifetimes {
    int32_t *first, *last;                 /* per global tensor (g->tensors order) */
    int32_t *scratch_first, *scratch_last; /* per scratch request */
    int32_t *op_step;                      /* per global op: step at which it runs (-1: never) */
    const ta_scratch_request *scratch;     /* the caller's requests (kept, not copied) */
    uint32_t n_tensors, n_scratch, n_ops;
    int32_t n_steps;                       /* steps used: 0 .. n_steps-1 */
} ta_lifetimes;

/* Deepest control-flow nesting accepted (deeper: TA_E_UNSUPPORTED). */
#define TA_LIFETIME_MAX_DEPTH 64
/* Most steps one analysis may produce (control flow can repeat subgraphs;
 * a hostile model could make that exponential). */
#define TA_LIFETIME_MAX_STEPS (1 << 24)

/* Bytes of the block ta_lifetime_analyze needs for this graph. */
size_t ta_lifetime_bytes(const ta_graph *g, size_t n_scratch);

/*
 * Runs the analysis (TFLM's rules above) into lt, using mem.
 * Returns TA_OK; TA_E_INVALID_ARG; TA_E_NO_MEMORY (mem too small);
 * TA_E_MALFORMED (bad indices, a scratch request naming a missing op, a
 * control-flow cycle); TA_E_UNSUPPORTED (nesting deeper than
 * TA_LIFETIME_MAX_DEPTH or more than TA_LIFETIME_MAX_STEPS steps).
 */
ta_status ta_lifetime_analyze(const ta_graph *g, const ta_scratch_request *scratch, size_t n_scratch,
                              void *mem, size_t bytes, ta_lifetimes *lt, ta_diag *diag);

/* True when tensor t (global index) gets arena bytes: not constant, not
 * variable, not elided by a rewrite, not zero bytes. */
int ta_lifetime_is_planned(const ta_tensor *t);

/* Where a planned buffer comes from. */
typedef enum ta_buffer_kind { TA_BUFFER_TENSOR = 0, TA_BUFFER_SCRATCH = 1 } ta_buffer_kind;
typedef struct ta_buffer_origin {
    ta_buffer_kind kind;
    uint32_t index; /* global tensor index, or scratch request index */
} ta_buffer_origin;

typedef struct ta_lifetime_options {
    size_t align; /* a minimum alignment for every buffer (a power of two; 0:
                     none); under TFLM's rule sizes are also rounded up to it,
                     and it is at least 16 there */
    /* Offline offsets (TFLM's "OfflineMemoryAllocation" metadata): one per
     * global tensor, -1 for "plan online".  NULL: none. */
    const int32_t *offline_offsets;
    size_t n_offline;
    /* Buffer sharing (rewrite.h, ta_rewrite_buffers): one entry per global
     * tensor, n_buffer_of == g->n_tensors.  buffer_of[t] == t: t has its own
     * buffer (or is not planned); buffer_of[t] == r != t: t lives in r's
     * buffer.  Groups are flat (buffer_of[r] == r) and every member is a
     * planned tensor.  A group is one request in r's place: its lifetime is
     * the union of its members', its size the largest member's.  NULL: every
     * planned tensor its own buffer (TFLM's rule). */
    const int32_t *buffer_of;
    size_t n_buffer_of;
    /* The alignment rule (above); zero: TFLM's. */
    ta_align_rule rule;
    /* What kernels declare, per global tensor (n_tensor_align ==
     * g->n_tensors): the least alignment in bytes any op reading or writing
     * it needs (ta_runtime_operand_align), 0 for none.  NULL: element sizes
     * only.  A buffer group takes its members' largest. */
    const uint32_t *tensor_align;
    size_t n_tensor_align;
    /* With buffer_of: a member's byte offset inside its group's buffer (the
     * CONCAT rewrite puts a producer's output at its slice of a
     * CONCATENATION's output), one entry per global tensor, 0 for a group's
     * own tensor r.  A group's size is then the largest offset + member
     * bytes.  NULL: every member at offset 0. */
    const size_t *buffer_at;
} ta_lifetime_options;

/*
 * Writes the planner's requests: planned tensors in global tensor order, then
 * scratch requests in order, each with its alignment under opt->rule (see
 * above; TFLM's sizes rounded to it, the others' sizes the tensor's bytes).  With reqs == NULL only counts (*n gets the
 * count).  origin (optional) receives where each request comes from.  With
 * buffer groups (opt->buffer_of) only each group's own tensor r is listed,
 * covering its members (origin names r).
 * Returns TA_OK; TA_E_NO_MEMORY when cap is below the count;
 * TA_E_INVALID_ARG for a rule, align or declared alignment that is not a
 * power of two (or above TA_ALIGN_RULE_MAX);
 * TA_E_MALFORMED when n_offline, n_buffer_of or n_tensor_align does not
 * match the tensor count, or a group is not flat or has an unplanned member;
 * TA_E_BAD_REQUEST when a grouped tensor has an offline offset.
 */
ta_status ta_lifetime_requests(const ta_graph *g, const ta_lifetimes *lt, const ta_lifetime_options *opt,
                               ta_request *reqs, ta_buffer_origin *origin, size_t cap, size_t *n,
                               ta_diag *diag);

/*
 * The bytes each request's ops read and write, as a weight for planning
 * across memory regions (regions.h): for a tensor buffer, the sum over its
 * tensors (a rewrite's shared buffer: every member, buffer_of as in
 * ta_lifetime_options, or NULL) of bytes x (ops reading it + ops writing
 * it); for a kernel scratch buffer, twice its size (its op writes it and
 * reads it back).  origin/reqs/weight: n entries (ta_lifetime_requests's);
 * tensor_work: g->n_tensors entries of the caller's, overwritten (each
 * tensor's own count).  TA_E_INVALID_ARG for NULLs or an origin out of range.
 */
ta_status ta_lifetime_access_bytes(const ta_graph *g, const ta_buffer_origin *origin, const ta_request *reqs, size_t n,
                                   const int32_t *buffer_of, size_t n_buffer_of, uint64_t *tensor_work,
                                   uint64_t *weight, ta_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
