/* What the pictures of a plan share (the SVG map, the HTML report, the
 * terminal timeline): which plans to draw, buffer kinds, the time axis with
 * its ops and live bytes, and XML escaping. */
#ifndef TA_VIZ_H
#define TA_VIZ_H

#include <stdbool.h>
#include <stdio.h>

#include "model_plan.h"
#include "plan_report.h"

struct viz_patch;

/* One buffer list and the plans the strategies made for it. */
typedef struct viz_plan {
    const char *name;       /* model file name or buffer-list path (titles) */
    const char *about;      /* model description, "" when none */
    const model_plan *mp;   /* NULL for buffer lists: no ops, shapes or kinds */
    const ta_request *reqs;
    size_t n;
    const char *const *ids; /* per buffer; NULL: the index */
    const plan_outcome *o;  /* count outcomes, as the strategy table lists them */
    size_t count, chosen;   /* o[chosen] is the plan --svg and --timeline draw */
    /* A model whose firmware plan runs patch stages (viz_patch.h): on the
     * strategies' plans, `firmware` is that plan, which --svg draws and the
     * HTML report shows first; on that plan, `patch` its stages. */
    const struct viz_plan *firmware;
    const struct viz_patch *patch;
} viz_plan;

viz_plan viz_plan_of_model(const model_plan *mp, const plan_outcome *o, size_t count, size_t chosen,
                           const char *name, const char *about);
viz_plan viz_plan_of_buffers(const ta_request *reqs, size_t n, const char *const *ids, const plan_outcome *o,
                             size_t count, size_t chosen, const char *name);

/* Index of the outcome of strategy `name` (0 when absent). */
size_t viz_find(const plan_outcome *o, size_t count, const char *name);
/* False (after printing why) when the plan to draw failed. */
bool viz_drawable(const viz_plan *vp, size_t k, const char *what);

typedef enum { VIZ_ACTIVATION, VIZ_SCRATCH, VIZ_INPUT, VIZ_OUTPUT, VIZ_KIND_COUNT } viz_kind;
viz_kind viz_buffer_kind(const viz_plan *vp, size_t i);
const char *viz_kind_name(viz_kind k); /* "activation", "scratch", "graph input", "graph output" */
const char *viz_kind_class(viz_kind k); /* "activation", "scratch", "input", "output" (CSS, data-kind) */

/* The time axis: steps lo..hi, the op at each step and the bytes live. */
typedef struct {
    int32_t lo, hi;
    int32_t *op;     /* per step: global op index running at it, -1 for none */
    size_t *live;    /* per step: padded bytes of the buffers live at it */
    size_t *nlive;   /* per step: how many buffers are live */
    size_t max_live; /* = the lower bound (more only with conflicting fixed offsets) */
} viz_time;
void viz_time_build(const viz_plan *vp, viz_time *vt);
void viz_time_free(viz_time *vt);
static inline size_t viz_steps(const viz_time *vt) { return (size_t)(vt->hi - vt->lo + 1); }

/* Op type at a step: "CONV_2D", a custom op's name, "inputs" for the inputs'
 * step, "-" for a step without an op (a subgraph entry, or a buffer list). */
const char *viz_step_type(const viz_plan *vp, const viz_time *vt, int32_t step);
/* "op 3 CONV_2D" / "subgraph 1 op 0 ADD" / "the inputs" / "step 7". */
void viz_step_label(const viz_plan *vp, const viz_time *vt, int32_t step, char *buf, size_t len);

/* Buffer i's id ("" when unnamed), and for models "1x48x48x16 int8". */
const char *viz_id(const viz_plan *vp, size_t i, char *buf, size_t len);
void viz_buffer_shape(const viz_plan *vp, size_t i, char *buf, size_t len);

/* Writes s escaped for XML text and attribute values alike. Invalid UTF-8
 * and control characters become '?' (XML 1.0 cannot carry them); with
 * max_chars > 0 at most that many characters are written, the last one "…"
 * when cut. */
void viz_xml(FILE *f, const char *s, size_t max_chars);
/* Characters (UTF-8 code points) in s. */
size_t viz_chars(const char *s);
#endif
