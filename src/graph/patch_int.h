/*
 * Between patch.c and patch_dag.c (patch.h): the stage checks the search
 * caches.
 */
#ifndef TA_GRAPH_PATCH_INT_H
#define TA_GRAPH_PATCH_INT_H

#include "tinyarena/patch.h"

/* Bit i set: ops first .. first + i form a stage (ta_patch_stage_ends). */
uint64_t ta__patch_stage_mask(const ta_graph *g, const int32_t *buffer_of, int32_t first, int ignore_marks);
/* dag[0 .. last - first] for ops first .. last, a stage already checked. */
bool ta__patch_dag_fill(const ta_graph *g, int32_t first, int32_t last, ta_patch_dag_op *dag);

#endif
