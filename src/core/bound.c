/* Lower bound: the most padded bytes live at any one step. */
#include "core/core.h"

size_t ta_plan_bound_scratch_bytes(size_t n) {
    ta__bump b;
    ta__bump_init(&b, NULL, 0);
    ta__bump_take(&b, n, sizeof(uint32_t));
    ta__bump_take(&b, n, sizeof(uint32_t));
    ta__bump_take(&b, n, sizeof(uint32_t));
    return ta__bump_need(&b);
}

ta_status ta_plan_bound(const ta_request *reqs, size_t n, void *scratch, size_t scratch_bytes,
                        size_t *bytes, int32_t *peak_step) {
    if (!bytes || (n && !reqs)) return TA_E_INVALID_ARG;
    if (n > TA_PLAN_MAX_BUFFERS) return TA_E_OVERFLOW;
    if (scratch_bytes < ta_plan_bound_scratch_bytes(n)) return TA_E_NO_MEMORY;
    ta__bump b;
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    uint32_t *by_first = ta__bump_take(&b, n, sizeof(uint32_t));
    uint32_t *by_last = ta__bump_take(&b, n, sizeof(uint32_t));
    uint32_t *tmp = ta__bump_take(&b, n, sizeof(uint32_t));
    if (b.fail) return TA_E_NO_MEMORY;
    /* Steps: 1. sort ids by first and by last; 2. sweep the start steps in
     * order; before counting the starts at step t, retire every buffer whose
     * last step is before t; 3. the live sum after all starts at t is the load
     * at t, and the maximum load over start steps is the maximum over all
     * steps (load only rises at a start).  For interval graphs this is the
     * maximum-weight clique. */
    ta__iota(by_first, n);
    ta__iota(by_last, n);
    ta__sort_by_step(by_first, n, reqs, false, tmp);
    ta__sort_by_step(by_last, n, reqs, true, tmp);
    size_t live = 0, best = 0, j = 0;
    int32_t peak = n ? reqs[by_first[0]].first : 0;
    for (size_t i = 0; i < n;) {
        int32_t t = reqs[by_first[i]].first;
        while (j < n && reqs[by_last[j]].last < t) live -= ta_request_padded(&reqs[by_last[j++]]);
        while (i < n && reqs[by_first[i]].first == t) live = ta__add_sat(live, ta_request_padded(&reqs[by_first[i++]]));
        if (live > best) {
            best = live;
            peak = t;
        }
    }
    *bytes = best;
    if (peak_step) *peak_step = peak;
    return TA_OK;
}
