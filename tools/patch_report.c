/* The patch stages' report (patch.h) for `plan` and `run`: one text line,
 * or the JSON member "patch". */
#include "cli.h"
#include "tinyarena/patch.h"

static double percent(const ta_patch_plan *p) {
    return p->macs ? 100.0 * (double)p->extra_macs / (double)p->macs : 0.0;
}

void cli_patch_text(FILE *f, const ta_patch_plan *p) {
    if (!p || !p->n_stages) return;
    fprintf(f, "patch: %u stage%s band by band:", p->n_stages, p->n_stages == 1 ? "" : "s");
    for (uint32_t i = 0; i < p->n_stages; i++)
        fprintf(f, "%s ops %d..%d grid %dx1", i ? "," : "", p->stages[i].first_op, p->stages[i].last_op,
                p->stages[i].bands);
    fprintf(f, "; planned %zu -> %zu B; extra MACs %llu of %llu (%.2f%%)\n", p->bytes_before, p->bytes_after,
            (unsigned long long)p->extra_macs, (unsigned long long)p->macs, percent(p));
}

void cli_patch_json(FILE *f, const ta_patch_plan *p) {
    if (!p || !p->n_stages) {
        fprintf(f, " \"patch\": null");
        return;
    }
    /* the first stage in op order names the member's first_op, last_op and
     * grid; extra_macs counts every stage; "stages" lists them all */
    const ta_patch_stage *s = &p->stages[0];
    fprintf(f,
            " \"patch\": {\"first_op\": %d, \"last_op\": %d, \"grid\": \"%dx1\", \"extra_macs\": %llu, "
            "\"extra_macs_percent\": %.3f, \"macs\": %llu, \"planned_bytes_before\": %zu, \"planned_bytes_after\": %zu, "
            "\"stages\": [",
            s->first_op, s->last_op, s->bands, (unsigned long long)p->extra_macs, percent(p),
            (unsigned long long)p->macs, p->bytes_before, p->bytes_after);
    for (uint32_t i = 0; i < p->n_stages; i++)
        fprintf(f, "%s{\"first_op\": %d, \"last_op\": %d, \"grid\": \"%dx1\", \"extra_macs\": %llu}", i ? ", " : "",
                p->stages[i].first_op, p->stages[i].last_op, p->stages[i].bands,
                (unsigned long long)p->stages[i].extra_macs);
    fprintf(f, "]}");
}
