/* greedy: TensorFlow Lite Micro's GreedyMemoryPlanner, offset for offset.
 *
 * TFLM's rule: fixed (offline) buffers first, in input order, at their
 * offsets; the rest by size, largest first, stably sorted over the list in
 * reverse input order (so among equal sizes the later-added buffer goes
 * first); each takes the first gap, in offset order, among the placed
 * buffers that overlap it in time, or goes on top of them.
 *
 * TFLM walks all placed buffers for each new one (quadratic in n).  We get
 * the same offsets from the placer's interval tree, which only visits
 * buffers that can overlap in time; see core/placer.c.
 *
 * Alignment: TFLM's sizes are already multiples of 16, so its offsets are
 * too.  For mixed alignments a candidate offset is rounded up to the
 * buffer's alignment before the gap test, which is the identity in TFLM's
 * setting.
 *
 * Overlap relations (not a TFLM notion): the same order, and a buffer named
 * by a relation sees each related placed partner only as the bytes the
 * relation still forbids (placer.c).  With no relation nothing changes. */
#include "core/core.h"

static void carve(ta__bump *b, size_t n, size_t nr, ta__placer *p, ta__rel *rel, uint32_t **order) {
    ta__placer_carve(p, b, n);
    ta__rel_carve(rel, b, n, nr);
    *order = ta__bump_take(b, n, sizeof(uint32_t));
}

static ta_status greedy_scratch(const ta_request *reqs, size_t n, const ta_plan_options *opt, size_t *bytes) {
    ta__bump b;
    ta__placer p;
    ta__rel rel;
    uint32_t *order;
    ta__bump_init(&b, NULL, 0);
    carve(&b, n, ta__n_rel(opt), &p, &rel, &order);
    *bytes = ta__bump_need(&b);
    return TA_OK;
}

static ta_status greedy_plan(const ta_request *reqs, size_t n, const ta_plan_options *opt, void *scratch,
                             size_t scratch_bytes, size_t *offsets, ta_plan_result *res, ta_diag *d) {
    ta__bump b;
    ta__placer p;
    ta__rel rel;
    uint32_t *order;
    size_t nr = ta__n_rel(opt);
    ta__bump_init_aligned(&b, scratch, scratch_bytes);
    carve(&b, n, nr, &p, &rel, &order);
    if (b.fail) return TA_E_NO_MEMORY;
    ta__placer_init(&p, reqs, n, offsets);
    if (nr) { /* relations: a buffer they name may take bytes of its partner */
        ta__rel_build(&rel, opt->overlaps, nr, n);
        p.rel = &rel;
    }
    ta__order_tflm(reqs, p.pad, n, order, p.tmp);
    ta__placer_run(&p, order, n, TA_FIT_FIRST);
    res->work = p.work;
    return TA_OK;
}

const ta_strategy ta__strategy_greedy = {"greedy", "TFLM GreedyMemoryPlanner: largest first, first gap (bit-exact offsets)",
                                        greedy_scratch, greedy_plan};
