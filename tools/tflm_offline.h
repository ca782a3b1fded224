/* `plan --tflm-offline`: a copy of the model carrying an OfflineMemoryAllocation
 * plan that TFLM's allocator follows, and the head TFLM will then get. */
#ifndef TA_TFLM_OFFLINE_H
#define TA_TFLM_OFFLINE_H

#include <stddef.h>
#include <stdint.h>

#include "model_load.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/plan.h"

typedef struct {
    int32_t *offsets;      /* per global tensor (malloc'ed): arena offset, or -1 (TFLM plans it) */
    size_t n;              /* = g.n_tensors */
    size_t tensors_fixed;  /* entries >= 0 */
    size_t predicted_head; /* TFLM's head with these offsets: its greedy with the fixed
                              tensors placed first, scratch and the rest online */
    size_t tflm_head;      /* TFLM's head without them (greedy, everything online) */
    size_t old_head;       /* with the model's existing offline plan, or SIZE_MAX */
    size_t n_scratch;      /* kernel scratch requests simulated (ours; see the README) */
    uint32_t reshape_aliases; /* RESHAPE outputs placed on their input's bytes */
    const char *source;    /* the candidate plan chosen ("optimal, tensors and scratch", ...) */
} tflm_offline;

/* Plans under TFLM's rules (no rewrites) and simulates TFLM's online step
 * for each candidate; keeps the one with the smallest predicted head, or
 * no fixed offsets at all when none beats TFLM's own greedy.  Single-subgraph
 * models only (TFLM reads every subgraph's offsets from the start of the
 * list).  Prints one line and returns CLI_FAIL on error. */
int tflm_offline_make(const loaded_model *lm, const ta_plan_options *popt, tflm_offline *out);

/* The same with TFLM's kernel scratch requests given instead of ours
 * (scratch == NULL: ours, from the runtime's kernels).  A TFLM build whose
 * kernels ask other scratch (CMSIS-NN, custom ops) gets its exact head this
 * way: the requests are in TFLM's request order, each [op, op]. */
int tflm_offline_make_with(const loaded_model *lm, const ta_plan_options *popt, const ta_scratch_request *scratch,
                           size_t n_scratch, tflm_offline *out);

/* The planning itself, on a graph: old_plan (per global tensor, or NULL) is
 * an offline plan being replaced, simulated for out->old_head.  given ==
 * NULL: the runtime's kernels' scratch requests. */
int tflm_offline_plan_graph(const ta_graph *g, const int32_t *old_plan, const ta_plan_options *popt,
                            const ta_scratch_request *given, size_t n_given, tflm_offline *out);

/* Parses --tflm-scratch: "none", or "OP:BYTES[,OP:BYTES...]" (ops of
 * subgraph 0; an op may appear more than once).  *out is malloc'ed.  Prints
 * one line and returns CLI_USAGE on a bad spec. */
int tflm_offline_parse_scratch(const char *spec, const ta_graph *g, ta_scratch_request **out, size_t *n);

/* Writes the model with the plan to `path`, re-reads it with our reader and
 * checks it has the same tensors, ops and buffers and reads back the same
 * offsets.  A replaced offline plan is reported on stderr. */
int tflm_offline_write(const loaded_model *lm, const tflm_offline *t, const char *path);

void tflm_offline_free(tflm_offline *t);
#endif
