/* The firmware's plan as a picture when it runs patch stages (patch.h,
 * issue 13): the plan `plan --header` gives firmware is then the runtime's
 * own (fw_make_patched: its entries, an intermediate of a stage sized to
 * its largest band), not the layer-by-layer plan of the strategy table.
 * viz_patch makes it a viz_plan the SVG and HTML maps draw, with, per
 * buffer, its role in a stage and, for a stage's band buffers, the bytes
 * each band holds in it. */
#ifndef TA_VIZ_PATCH_H
#define TA_VIZ_PATCH_H

#include <stdbool.h>
#include <stdio.h>

#include "model_load.h"
#include "tinyarena/patch.h"
#include "viz.h"

typedef enum {
    VIZ_STAGE_NONE = 0, /* not a stage's buffer */
    VIZ_STAGE_INPUT,    /* read by a stage from outside it: held whole over the stage */
    VIZ_STAGE_OUTPUT,   /* the stage's last op's output: held whole, written band by band */
    VIZ_STAGE_BAND,     /* an intermediate: one band at a time (band_bytes) */
} viz_stage_role;

typedef struct viz_patch {
    viz_plan vp;              /* the firmware plan: one outcome, the runtime's entries as requests */
    model_plan mp;            /* the model's plan with the entries' requests, origins and ids */
    plan_outcome o;           /* its outcome (the strategy, the runtime's planned bytes and bound) */
    ta_patch_plan patch;      /* the stages (bytes_before/after: the planned arenas) */
    size_t firmware_arena;    /* <P>_ARENA_BYTES: planned + persistent + alignment (const blob in flash) */
    uint8_t *role;            /* per buffer: viz_stage_role */
    int32_t *stage;           /* per buffer: its stage (-1: none) */
    size_t *band_at;          /* per buffer: its bands' first index in band_bytes (band buffers) */
    size_t *band_bytes;       /* per band buffer, stages[stage].bands entries: bytes of each band */
    size_t n_band_bytes;
    size_t bands_drawn;       /* band buffers whose bands fit their entry (all of them, normally) */
} viz_patch;

/* When the runtime plans the loaded model with patch stages (strategy s,
 * the rewrites that applied, rule, pct percent extra MACs at most) as
 * `plan --header` does: *z gets the firmware plan to draw and true.  False
 * (nothing to free) when it chooses no stage or cannot run the model.
 * mp: the model's plan (its graph is the rewritten one the runtime runs). */
bool viz_patch_make(viz_patch *z, const loaded_model *lm, const model_plan *mp, const ta_strategy *s, uint32_t applied,
                    ta_align_rule rule, uint32_t pct, const char *name, const char *about);
void viz_patch_free(viz_patch *z);

/* `plan MODEL --svg F --html F` (either may be NULL): the maps of vp, the
 * strategies' plans of a model, with vp->firmware set for them while the
 * runtime plans it with stages under pct (0: none; viz_patch_make).
 * CLI_OK, or the first failure (printed). */
int viz_patch_emit(viz_plan *vp, const char *svg, const char *html, const loaded_model *lm, const ta_strategy *s,
                   uint32_t applied, ta_align_rule rule, uint32_t pct);

/* "ops 0..3 (CONV_2D .. DEPTHWISE_CONV_2D), grid 12x1" for stage k. */
void viz_patch_stage_text(const viz_patch *z, uint32_t k, char *buf, size_t len);
#endif
