/* Planning a graph (a model or a built-in network): lifetimes, requests,
 * and the reports the CLI prints about them. */
#ifndef TA_MODEL_PLAN_H
#define TA_MODEL_PLAN_H

#include <stdio.h>

#include "plan_report.h"
#include "tinyarena/graph.h"
#include "tinyarena/lifetime.h"

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
} model_plan;

/* Builds lifetimes and requests.  Returns CLI_OK or prints an error. */
int model_plan_build(model_plan *mp, const ta_graph *g, const ta_lifetime_options *opt,
                     const ta_scratch_request *scratch, size_t n_scratch, const char *what);
void model_plan_free(model_plan *mp);

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
