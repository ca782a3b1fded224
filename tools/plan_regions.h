/* `tinyarena plan --region NAME:BYTES[:COST]`: planning across memory
 * regions (regions.h), for buffer lists and models. */
#ifndef TA_PLAN_REGIONS_H
#define TA_PLAN_REGIONS_H

#include <stdbool.h>

#include "buffers_csv.h"
#include "model_load.h"
#include "model_plan.h"
#include "tinyarena/regions.h"

typedef struct {
    const char *spec[TA_MAX_REGIONS]; /* --region NAME:BYTES[:COST], fastest first */
    size_t n;
    const char *persistent;           /* --persistent-region NAME (default: the last) */
    const char *svg_out, *header_out, *offsets_out;
    bool json, verbose;
} cli_regions;

/* Consumes --region / --persistent-region at argv[*i]: 1 consumed, 0 not
 * ours, -1 a bad value (printed; exit CLI_USAGE). */
int cli_regions_arg(int argc, char **argv, int *i, cli_regions *r);

/* Plans the list bl (its `region` column pins) with strategy s. */
int plan_regions_buffers(const cli_regions *r, const char *path, const buffer_list *bl, const ta_strategy *s,
                         const ta_plan_options *opt);

/* Plans a model's requests mp (overlap relations in opt) with strategy s:
 * weights from the graph's reads and writes, the persistent part in its
 * region; table, --json, --svg (one map per region), --header. */
int plan_regions_model(const cli_regions *r, const char *model_name, const loaded_model *lm, const model_plan *mp,
                       const ta_graph *g, const ta_strategy *s, const ta_plan_options *opt, bool runnable,
                       uint32_t applied, ta_align_rule rule);
#endif
