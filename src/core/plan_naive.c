/* naive: no reuse.  Every buffer gets its own slot, so the arena is the sum
 * of the padded sizes (plus the fixed region when fixed offsets exist). */
#include "core/core.h"

static ta_status naive_scratch(const ta_request *reqs, size_t n, const ta_plan_options *opt, size_t *bytes) {
    ta__bump b;
    ta__bump_init(&b, NULL, 0);
    ta__bump_take(&b, n, sizeof(uint32_t));
    ta__bump_take(&b, n, sizeof(uint32_t));
    *bytes = ta__bump_need(&b);
    return TA_OK;
}

static int cmp_align_desc(uint32_t a, uint32_t b, const void *ctx) {
    size_t aa = ta__align_of(&((const ta_request *)ctx)[a]), ab = ta__align_of(&((const ta_request *)ctx)[b]);
    return (aa < ab) - (aa > ab);
}

/* Free buffers start above every fixed one.  Slots go in order of
 * decreasing alignment: each padded size is a multiple of its own alignment,
 * so every slot start is already aligned and no padding appears between
 * slots -- the arena is exactly the fixed top plus the sum of padded sizes. */
static ta_status naive_plan(const ta_request *reqs, size_t n, const ta_plan_options *opt, void *scratch,
                            size_t scratch_bytes, size_t *offsets, ta_plan_result *res, ta_diag *d) {
    ta__bump b;
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    uint32_t *order = ta__bump_take(&b, n, sizeof(uint32_t));
    uint32_t *tmp = ta__bump_take(&b, n, sizeof(uint32_t));
    if (b.fail) return TA_E_NO_MEMORY;
    size_t top = 0, maxa = 1;
    for (size_t i = 0; i < n; i++) {
        if (ta__is_fixed(&reqs[i])) {
            offsets[i] = reqs[i].fixed;
            size_t e = reqs[i].fixed + ta_request_padded(&reqs[i]);
            if (e > top) top = e;
        } else if (ta__align_of(&reqs[i]) > maxa) {
            maxa = ta__align_of(&reqs[i]);
        }
    }
    ta__iota(order, n);
    ta__sort_ids(order, n, cmp_align_desc, reqs, tmp);
    size_t at = ta__align_up(top, maxa);
    for (size_t k = 0; k < n; k++) {
        uint32_t i = order[k];
        if (ta__is_fixed(&reqs[i])) continue;
        at = ta__align_up(at, ta__align_of(&reqs[i]));
        offsets[i] = at;
        at = ta__add_sat(at, ta_request_padded(&reqs[i]));
    }
    res->work = n;
    return TA_OK;
}

const ta_strategy ta__strategy_naive = {"naive", "no reuse: every buffer has its own bytes",
                                       naive_scratch, naive_plan};
