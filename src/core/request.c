/* Buffer-request helpers.  Kept apart from plan.c so that code which only
 * builds requests (lifetime analysis, a runtime using a budget table) does
 * not pull the strategy registry, and with it every planner, into a
 * firmware link. */
#include "core/core.h"

ta_request ta_request_make(size_t size, int32_t first, int32_t last) {
    ta_request r = {size, 1, first, last, TA_NO_OFFSET};
    return r;
}

size_t ta_request_padded(const ta_request *r) {
    size_t p = ta__align_up(r->size, ta__align_of(r));
    return p;
}

bool ta_request_overlap_time(const ta_request *a, const ta_request *b) { return ta__time_overlap(a, b); }
