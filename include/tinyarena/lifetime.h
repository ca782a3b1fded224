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
} ta_scratch_request;

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
    size_t align; /* sizes are rounded up to this and every buffer gets it as
                     its alignment; 0 means 16 (TFLM's rule) */
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
    /* With buffer_of: a member's byte offset inside its group's buffer (the
     * CONCAT rewrite puts a producer's output at its slice of a
     * CONCATENATION's output), one entry per global tensor, 0 for a group's
     * own tensor r.  A group's size is then the largest offset + member
     * bytes.  NULL: every member at offset 0. */
    const size_t *buffer_at;
} ta_lifetime_options;

/*
 * Writes the planner's requests: planned tensors in global tensor order, then
 * scratch requests in order.  With reqs == NULL only counts (*n gets the
 * count).  origin (optional) receives where each request comes from.  With
 * buffer groups (opt->buffer_of) only each group's own tensor r is listed,
 * covering its members (origin names r).
 * Returns TA_OK; TA_E_NO_MEMORY when cap is below the count;
 * TA_E_MALFORMED when n_offline or n_buffer_of does not match the tensor
 * count, or a group is not flat or has an unplanned member;
 * TA_E_BAD_REQUEST when a grouped tensor has an offline offset.
 */
ta_status ta_lifetime_requests(const ta_graph *g, const ta_lifetimes *lt, const ta_lifetime_options *opt,
                               ta_request *reqs, ta_buffer_origin *origin, size_t cap, size_t *n,
                               ta_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
