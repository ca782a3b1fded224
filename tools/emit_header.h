#ifndef TA_EMIT_HEADER_H
#define TA_EMIT_HEADER_H
#include <stdint.h>
#include <stdio.h>

#include "firmware.h"
#include "model_plan.h"
#include "tinyarena/runtime.h"

/* Writes the budget-table header for a planned model.  The macro/variable
 * prefix is derived from the header's file name (model_arena.h ->
 * MODEL_ARENA_BYTES, model_arena_entries, model_arena).  fw (may be NULL:
 * the model is not runnable by tinyarena's runtime) is what firmware gets
 * (firmware.h): the op constants blob (<p>_consts), the init table
 * (<p>_init) and the arena figures -- <P>_ARENA_BYTES from both blobs (init
 * needs no work block), <P>_ARENA_BYTES_CONSTS_IN_ARENA without them.
 * `rewrites` (TA_REWRITE_*, rewrite.h) is what mp was planned with: the
 * header records it (<P>_REWRITES, ta_budget.rewrites) so that the runtime
 * rewrites the model the same way.  `rule` is the alignment rule mp was
 * planned under (<P>_ALIGN_RULE, ta_budget.align_rule).  pe (may be NULL)
 * is a plan that runs patch stages (fw_make_patched): then the table is its
 * entries, fw its blobs (the init table carries the stages), and the header
 * defines <P>_PATCH_STAGES.
 * Returns CLI_OK or prints an error. */
int emit_header(const char *path, const model_plan *mp, const plan_outcome *o, const char *model_name,
                uint64_t model_hash, uint64_t model_bytes, const fw_budget *fw, const fw_patch *pe, uint32_t rewrites,
                ta_align_rule rule);

/* The header's op list (emit_ops.c): <P>_OPS_COUNT, <p>_op_defs and <P>_OPS,
 * a ta_op_list of the definitions subgraph 0 of g needs (nothing when the
 * runtime cannot run g). */
void emit_ops(FILE *f, const ta_graph *g, const char *lo, const char *up);
/* The header's 1x1 weight packs (emit_pw_pack.c, tinyarena/pw_pack.h):
 * for every int8 1x1 CONV_2D of subgraph 0 of g (one group, depth a
 * multiple of 4 up to 256) whose filter lies in model[0 .. len), the
 * pre-unpacked words and weight sums and <P>_PW_PACKS(model), inside
 * `#if defined(__ARM_FEATURE_DSP) && !defined(<P>_NO_PW_PACKS)`; nothing
 * when there is none.  Returns false when out of memory. */
bool emit_pw_packs(FILE *f, const ta_graph *g, const unsigned char *model, size_t len, const char *lo, const char *up);
/* The header's kernel variants (emit_ops.c): <P>_KERNELS, the mask for
 * TA_KERNELS_LINK (tinyarena/kernel_link.h). */
void emit_kernels(FILE *f, uint32_t mask, const char *up);
#endif
