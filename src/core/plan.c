/* The planning entry points: request validation, strategy registry, and
 * ta_plan_run, which wraps every strategy with the bound and the validator. */
#include <string.h>

#include "core/core.h"

const char *ta_proof_str(ta_proof p) {
    switch (p) {
    case TA_PROOF_OPTIMAL: return "proven optimal";
    case TA_PROOF_GAP: return "best found with gap";
    case TA_PROOF_TIMEOUT: return "timed out";
    default: return "heuristic";
    }
}

static const ta_strategy *const k_strategies[] = {
    &ta__strategy_naive, &ta__strategy_pingpong, &ta__strategy_linear, &ta__strategy_greedy,
    &ta__strategy_best, &ta__strategy_optimal,
};

const ta_strategy *const *ta_strategy_list(size_t *count) {
    if (count) *count = sizeof k_strategies / sizeof k_strategies[0];
    return k_strategies;
}

const ta_strategy *ta_strategy_find(const char *name) {
    if (!name) return NULL;
    for (size_t i = 0; i < sizeof k_strategies / sizeof k_strategies[0]; i++)
        if (strcmp(k_strategies[i]->name, name) == 0) return k_strategies[i];
    return NULL;
}

/* A byte count above TA_PLAN_MAX_ARENA (never, where size_t has 32 bits:
 * the test goes through a uint64_t parameter so that is no warning). */
static bool above_cap(uint64_t bytes) { return bytes > TA_PLAN_MAX_ARENA; }

/* ta_plan_requests_check, with optional relations (fixed buffers a relation
 * lets share bytes do not collide). */
static ta_status requests_check(const ta_request *reqs, size_t n, uint32_t flags, const ta__rel *rel, void *scratch,
                                size_t scratch_bytes, size_t *fixed_conflicts, ta_diag *d) {
    if (n && !reqs) return TA_E_INVALID_ARG;
    if (n > TA_PLAN_MAX_BUFFERS)
        return ta_diag_set(d, TA_E_OVERFLOW, "%zu buffers: more than %u (2^24), the cap", n, TA_PLAN_MAX_BUFFERS);
    if (fixed_conflicts) *fixed_conflicts = 0;
    size_t n_fixed = 0;
    for (size_t i = 0; i < n; i++) {
        const ta_request *r = &reqs[i];
        size_t a = ta__align_of(r);
        if (!ta__is_pow2(a))
            return ta_diag_set(d, TA_E_BAD_REQUEST, "buffer %zu: alignment %zu is not a power of two", i, a);
        if (r->first > r->last)
            return ta_diag_set(d, TA_E_BAD_REQUEST, "buffer %zu: first step %d is after last step %d",
                               i, r->first, r->last);
        size_t pad = ta_request_padded(r);
        if (pad == SIZE_MAX && r->size != SIZE_MAX)
            return ta_diag_set(d, TA_E_OVERFLOW, "buffer %zu: size %zu overflows when aligned to %zu", i,
                               r->size, a);
        if (above_cap(pad))
            return ta_diag_set(d, TA_E_OVERFLOW, "buffer %zu: %zu bytes (aligned to %zu) is above the 2^40-byte cap", i,
                               pad, a);
        if (ta__is_fixed(r) && (uint64_t)r->fixed > TA_PLAN_MAX_ARENA - pad)
            return ta_diag_set(d, TA_E_OVERFLOW, "buffer %zu: fixed offset %zu + %zu bytes is above the 2^40-byte cap", i,
                               r->fixed, pad);
        if (ta__is_fixed(r)) {
            n_fixed++;
            if (r->fixed % a)
                return ta_diag_set(d, TA_E_BAD_REQUEST,
                                   "buffer %zu: fixed offset %zu is not a multiple of its alignment %zu",
                                   i, r->fixed, a);
            if (pad > SIZE_MAX / 2 || r->fixed > SIZE_MAX / 2)
                return ta_diag_set(d, TA_E_OVERFLOW, "buffer %zu: fixed offset %zu + size %zu overflows",
                                   i, r->fixed, pad);
        } else if (pad > SIZE_MAX / 4) {
            return ta_diag_set(d, TA_E_OVERFLOW, "buffer %zu: size %zu is too large to plan", i, pad);
        }
    }
    if (!n_fixed) return TA_OK;
    if (!(flags & TA_PLAN_ALLOW_FIXED_CONFLICT)) {
        ta_status st = ta__sweep_overlap(reqs, n, NULL, TA__SWEEP_FIXED, rel, scratch, scratch_bytes, d);
        if (st == TA_E_OVERLAP) {
            char why[TA_DIAG_LEN];
            size_t a = d ? d->item[0] : SIZE_MAX, b = d ? d->item[1] : SIZE_MAX;
            memcpy(why, d ? d->msg : "", d ? sizeof why : 1);
            ta_diag_set(d, TA_E_FIXED_CONFLICT, "fixed offsets collide: %s", why);
            if (d) {
                d->item[0] = a;
                d->item[1] = b;
            }
            return TA_E_FIXED_CONFLICT;
        }
        return st;
    }
    /* Counting mode: how many fixed pairs collide (offline plans carry few). */
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!ta__is_fixed(&reqs[i]) || !ta_request_padded(&reqs[i])) continue;
        for (size_t j = i + 1; j < n; j++) {
            if (!ta__is_fixed(&reqs[j]) || !ta_request_padded(&reqs[j])) continue;
            if (!ta__time_overlap(&reqs[i], &reqs[j])) continue;
            if (reqs[i].fixed < reqs[j].fixed + ta_request_padded(&reqs[j]) &&
                reqs[j].fixed < reqs[i].fixed + ta_request_padded(&reqs[i]) &&
                !ta__rel_pair_permits(rel, reqs, (uint32_t)i, reqs[i].fixed, (uint32_t)j, reqs[j].fixed))
                count++;
        }
    }
    if (fixed_conflicts) *fixed_conflicts = count;
    return TA_OK;
}

ta_status ta_plan_requests_check(const ta_request *reqs, size_t n, uint32_t flags, void *scratch,
                                 size_t scratch_bytes, size_t *fixed_conflicts, ta_diag *d) {
    return requests_check(reqs, n, flags, NULL, scratch, scratch_bytes, fixed_conflicts, d);
}

ta_status ta_plan_scratch_bytes(const ta_strategy *s, const ta_request *reqs, size_t n,
                                const ta_plan_options *opt, size_t *bytes) {
    if (!s || !bytes || (n && !reqs)) return TA_E_INVALID_ARG;
    if (n > TA_PLAN_MAX_BUFFERS) return TA_E_OVERFLOW;
    size_t own = 0;
    ta_status st = s->scratch_bytes(reqs, n, opt, &own);
    if (st) return st;
    size_t need = own;
    size_t nr = ta__n_rel(opt);
    if (ta_plan_bound_overlaps_scratch_bytes(n, nr) > need) need = ta_plan_bound_overlaps_scratch_bytes(n, nr);
    if (ta_plan_check_overlaps_scratch_bytes(n, nr) > need) need = ta_plan_check_overlaps_scratch_bytes(n, nr);
    *bytes = need;
    return TA_OK;
}

ta_status ta_plan_run(const ta_strategy *s, const ta_request *reqs, size_t n,
                      const ta_plan_options *opt, void *scratch, size_t scratch_bytes,
                      size_t *offsets, ta_plan_result *res, ta_diag *d) {
    if (!s || !res || (n && (!reqs || !offsets))) return ta_diag_set(d, TA_E_INVALID_ARG, "NULL argument");
    if (d) {
        d->msg[0] = '\0';
        d->item[0] = d->item[1] = SIZE_MAX;
    }
    size_t need = 0;
    ta_status st = ta_plan_scratch_bytes(s, reqs, n, opt, &need);
    if (st) return ta_diag_set(d, st, "cannot size scratch for %zu buffers", n);
    if (!scratch || scratch_bytes < need)
        return ta_diag_set(d, TA_E_NO_MEMORY, "strategy %s needs %zu scratch bytes, has %zu", s->name,
                           need, scratch ? scratch_bytes : 0);
    uint32_t flags = opt ? opt->flags : 0;
    memset(res, 0, sizeof *res);
    const ta_overlap *ov = opt ? opt->overlaps : NULL;
    size_t nr = ta__n_rel(opt);
    st = ta__rel_validate(reqs, n, ov, nr, d);
    if (st) return st;
    {
        /* the relation index first, the sweep's scratch after it */
        ta__bump b;
        ta__bump_init_aligned(&b, scratch, scratch_bytes);
        ta__rel rel;
        ta__rel_carve(&rel, &b, n, nr);
        size_t used = b.used;
        if (b.fail || used > b.cap) return ta_diag_set(d, TA_E_NO_MEMORY, "scratch too small");
        ta__rel_build(&rel, ov, nr, n);
        st = requests_check(reqs, n, flags, &rel, b.base + used, b.cap - used, &res->fixed_conflicts, d);
        if (st) return st;
    }
    st = ta_plan_bound_overlaps(reqs, n, ov, nr, scratch, scratch_bytes, &res->lower_bound_bytes, &res->peak_step);
    if (st) return ta_diag_set(d, st, "lower bound failed");
    size_t lb = res->lower_bound_bytes;
    int32_t peak = res->peak_step;
    size_t naive = 0;
    for (size_t i = 0; i < n; i++) naive = ta__add_sat(naive, ta_request_padded(&reqs[i]));
    st = s->plan(reqs, n, opt, scratch, scratch_bytes, offsets, res, d);
    if (st) return st;
    res->lower_bound_bytes = lb;
    res->peak_step = peak;
    res->naive_bytes = naive;
    res->arena_bytes = ta_plan_arena_bytes(reqs, n, offsets);
    if (res->arena_bytes == SIZE_MAX)
        return ta_diag_set(d, TA_E_OVERFLOW, "strategy %s: arena overflows size_t", s->name);
    if (above_cap(res->arena_bytes))
        return ta_diag_set(d, TA_E_OVERFLOW, "strategy %s: the arena of %zu bytes is above the 2^40-byte cap", s->name,
                           res->arena_bytes);
    /* (with colliding fixed buffers the bound counts shared bytes twice and
     * proves nothing; the strategy's own claim stands) */
    if (res->proven_bytes < lb && !res->fixed_conflicts) res->proven_bytes = lb;
    if (res->proof == TA_PROOF_NONE && res->arena_bytes == lb) res->proven_bytes = lb;
    /* Every plan is proven valid before it leaves the core. */
    st = ta_plan_check_overlaps(reqs, n, ov, nr, offsets, res->arena_bytes, flags, scratch, scratch_bytes, d);
    if (st) {
        char why[TA_DIAG_LEN];
        memcpy(why, d ? d->msg : "", d ? sizeof why : 1);
        return ta_diag_set(d, st, "strategy %s produced an invalid plan: %s", s->name, why);
    }
    return TA_OK;
}
