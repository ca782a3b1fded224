/* pingpong: slot reuse, the design notes' double buffer generalised to DAGs.
 * Each buffer (in order of first step) moves into the first slot whose
 * tenant is dead, or opens a new slot.  A slot is as large as its largest
 * tenant; slots are laid end to end.  On a pure chain this gives two slots.
 *
 * Overlap relations: a buffer may also move into a slot whose tenant is
 * still live when a relation on the pair permits both at the same offset
 * (in place: the tenant is the op's input, the buffer its output), and every
 * earlier tenant is dead.  A chain of in-place ops then needs one slot. */
#include "core/core.h"

typedef struct {
    uint32_t *order, *tmp, *slot_of;
    int32_t *slot_last;  /* last step of the slot's current tenant */
    size_t *slot_size, *slot_align, *slot_off;
    uint32_t *slot_order;
    uint32_t *slot_tenant;   /* the slot's latest tenant */
    int32_t *slot_prev_last; /* last step of every earlier tenant */
    ta__rel rel;
} pp_mem;

static void carve(ta__bump *b, size_t n, size_t nr, pp_mem *m) {
    m->order = ta__bump_take(b, n, sizeof(uint32_t));
    m->tmp = ta__bump_take(b, n, sizeof(uint32_t));
    m->slot_of = ta__bump_take(b, n, sizeof(uint32_t));
    m->slot_last = ta__bump_take(b, n, sizeof(int32_t));
    m->slot_size = ta__bump_take(b, n, sizeof(size_t));
    m->slot_align = ta__bump_take(b, n, sizeof(size_t));
    m->slot_off = ta__bump_take(b, n, sizeof(size_t));
    m->slot_order = ta__bump_take(b, n, sizeof(uint32_t));
    m->slot_tenant = ta__bump_take(b, n, sizeof(uint32_t));
    m->slot_prev_last = ta__bump_take(b, n, sizeof(int32_t));
    ta__rel_carve(&m->rel, b, n, nr);
}

static ta_status pp_scratch(const ta_request *reqs, size_t n, const ta_plan_options *opt, size_t *bytes) {
    ta__bump b;
    pp_mem m;
    ta__bump_init(&b, NULL, 0);
    carve(&b, n, ta__n_rel(opt), &m);
    *bytes = ta__bump_need(&b);
    return TA_OK;
}

static int cmp_align_desc(uint32_t a, uint32_t b, const void *ctx) {
    const size_t *al = ctx;
    return (al[a] < al[b]) - (al[a] > al[b]);
}

static ta_status pp_plan(const ta_request *reqs, size_t n, const ta_plan_options *opt, void *scratch,
                         size_t scratch_bytes, size_t *offsets, ta_plan_result *res, ta_diag *d) {
    ta__bump b;
    pp_mem m;
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    carve(&b, n, ta__n_rel(opt), &m);
    if (b.fail) return TA_E_NO_MEMORY;
    if (ta__n_rel(opt)) ta__rel_build(&m.rel, opt->overlaps, ta__n_rel(opt), n);
    const bool related = m.rel.nr > 0;
    /* Steps: 1. fixed buffers keep their offsets; the slots start above them.
     * 2. visit free buffers by first step (ties: input order); take the
     *    lowest-numbered slot whose tenant's last step is before our first.
     * 3. size each slot by its largest tenant, lay slots out by decreasing
     *    alignment so no padding appears between them. */
    size_t top = 0, nfree = 0;
    for (size_t i = 0; i < n; i++) {
        if (ta__is_fixed(&reqs[i])) {
            offsets[i] = reqs[i].fixed;
            size_t e = reqs[i].fixed + ta_request_padded(&reqs[i]);
            if (e > top) top = e;
        } else {
            m.order[nfree++] = (uint32_t)i;
        }
    }
    ta__sort_by_step(m.order, nfree, reqs, false, m.tmp);
    size_t nslots = 0;
    uint64_t work = 0;
    for (size_t k = 0; k < nfree; k++) {
        uint32_t i = m.order[k];
        size_t s = 0;
        /* first dead slot; O(slots) per buffer, slots stay few in practice */
        bool in_place = false;
        for (; s < nslots; s++) {
            if (m.slot_last[s] < reqs[i].first) break;
            /* the only live tenant is related and shares its offset with us */
            if (related && m.slot_prev_last[s] < reqs[i].first &&
                ta__rel_pair_permits(&m.rel, reqs, i, 0, m.slot_tenant[s], 0)) {
                in_place = true;
                break;
            }
        }
        work += s + 1;
        if (s == nslots) {
            nslots++;
            m.slot_size[s] = 0;
            m.slot_align[s] = 1;
            m.slot_last[s] = INT32_MIN;
        }
        m.slot_prev_last[s] = m.slot_last[s];
        m.slot_tenant[s] = i;
        if (!in_place || reqs[i].last > m.slot_last[s]) m.slot_last[s] = reqs[i].last;
        size_t p = ta_request_padded(&reqs[i]);
        if (p > m.slot_size[s]) m.slot_size[s] = p;
        if (ta__align_of(&reqs[i]) > m.slot_align[s]) m.slot_align[s] = ta__align_of(&reqs[i]);
        m.slot_of[i] = (uint32_t)s;
    }
    for (size_t s = 0; s < nslots; s++) {
        m.slot_order[s] = (uint32_t)s;
        /* a slot's size must keep the next slot aligned: round to its own alignment */
        m.slot_size[s] = ta__align_up(m.slot_size[s], m.slot_align[s]);
    }
    ta__sort_ids(m.slot_order, nslots, cmp_align_desc, m.slot_align, m.tmp);
    size_t at = top;
    for (size_t k = 0; k < nslots; k++) {
        uint32_t s = m.slot_order[k];
        at = ta__align_up(at, m.slot_align[s]);
        m.slot_off[s] = at;
        at = ta__add_sat(at, m.slot_size[s]);
    }
    for (size_t k = 0; k < nfree; k++) offsets[m.order[k]] = m.slot_off[m.slot_of[m.order[k]]];
    res->work = work;
    return TA_OK;
}

const ta_strategy ta__strategy_pingpong = {"pingpong", "slot reuse: first slot whose tenant is dead (double buffering on chains)",
                                          pp_scratch, pp_plan};
