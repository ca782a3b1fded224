/* Planning a graph (a model or a built-in network): lifetimes, requests,
 * and the reports the CLI prints about them. */
#ifndef TA_MODEL_PLAN_H
#define TA_MODEL_PLAN_H

#include <stdio.h>

#include "plan_report.h"
#include "tinyarena/graph.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/rewrite.h"

typedef struct {
    const ta_graph *g;
    ta_lifetimes lt;
    void *lt_mem;
    ta_request *reqs;
    ta_buffer_origin *origin;
    const char **ids; /* tensor names (or "scratch:<op>") */
    char (*scratch_names)[48];
    size_t n;
    size_t const_bytes, variable_bytes;
    size_t n_const, n_variable;
    int32_t *buffer_of; /* with ALIAS/INPLACE rewrites: per tensor, its group's tensor */
    uint32_t *talign;   /* per tensor: what the op modules declare (ta_runtime_operand_align) */
    size_t unpadded;    /* sum of the requests' bytes before padding (padding reports) */
    ta_overlap *overlaps; /* with the OVERLAP rewrite: its relations (request indices) */
    size_t n_overlaps;
    size_t *buffer_at;  /* with them: per tensor, its byte offset in the group's buffer (CONCAT) */
} model_plan;

/* Builds lifetimes and requests.  Returns CLI_OK or prints an error. */
int model_plan_build(model_plan *mp, const ta_graph *g, const ta_lifetime_options *opt,
                     const ta_scratch_request *scratch, size_t n_scratch, const char *what);
/* The same with the buffer rewrites (ALIAS, INPLACE of `rewrites`) applied to
 * g and, with OVERLAP, the relations of the runtime's walks (mp->overlaps,
 * for ta_plan_options.overlaps) --
 * g, which is already the rewritten graph (model_rewrite_graph); their
 * counts are added to *stats (optional). */
int model_plan_build_rewritten(model_plan *mp, const ta_graph *g, const ta_lifetime_options *opt,
                               const ta_scratch_request *scratch, size_t n_scratch, const char *what,
                               uint32_t rewrites, ta_rewrite_stats *stats);
void model_plan_free(model_plan *mp);

/* The graph after the structural rewrites (FUSEPAD, ORDER of `rewrites`),
 * or g itself when there are none.  *graph points at the one to plan;
 * *mem (free it) holds a rewritten one. */
int model_rewrite_graph(const ta_graph *g, uint32_t rewrites, const ta_graph **graph, ta_graph *storage, void **mem,
                        ta_rewrite_stats *stats, const char *what);

/* "31 ops, 89 tensors: 32 planned, 57 constant (300,568 B), 0 variable" */
void model_plan_summary(FILE *f, const model_plan *mp);
/* The op running at `step` ("op 3 CONV_2D" / "subgraph 0 inputs"). */
void model_plan_step_label(const model_plan *mp, int32_t step, char *buf, size_t len);
/* Largest live set: at which step/op, and which buffers (largest first). */
void model_plan_peak(FILE *f, const model_plan *mp, const ta_plan_result *res);
/* Per-tensor table: name, shape, dtype, bytes, first, last, offset. */
void model_plan_verbose(FILE *f, const model_plan *mp, const size_t *offsets);
/* "1x96x96x1" */
void model_plan_shape(const ta_tensor *t, char *buf, size_t len);
#endif
