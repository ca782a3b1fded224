/* The runtime across several memory regions (runtime.h, issue #16): one
 * plan with virtual offsets, each region's part pointed into its own
 * memory.  The single-arena path is untouched: with no layout every
 * pointer is head + offset, as before. */
#include <string.h>

#include "runtime/runtime_int.h"

static const char *region_name(const ta_region_layout *L, uint32_t k, char *buf, size_t cap) {
    if (L->name[k] && L->name[k][0]) return L->name[k];
    ta_diag tmp;
    ta_diag_set(&tmp, TA_OK, "region %u", k);
    size_t m = strlen(tmp.msg);
    if (m >= cap) m = cap - 1;
    memcpy(buf, tmp.msg, m);
    buf[m] = 0;
    return buf;
}

ta_status ta_region_layout_make(ta_region_layout *L, uint32_t n, uint32_t persistent, const size_t *used,
                                const char *const *names, const uint32_t *region_of, const size_t *offsets, size_t m,
                                size_t *virt, ta_diag *diag) {
    if (!L || !used || n == 0 || n > TA_RT_MAX_REGIONS || persistent >= n || (m && (!region_of || !offsets || !virt)))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "region layout: %u regions (1 to %u), persistent region %u", n,
                           TA_RT_MAX_REGIONS, persistent);
    memset(L, 0, sizeof *L);
    L->n = n;
    L->persistent = persistent;
    size_t at = 0;
    for (uint32_t k = 0; k < n; k++) {
        L->start[k] = at;
        L->bytes[k] = used[k];
        L->name[k] = names ? names[k] : NULL;
        at = ta__align_up(ta__add_sat(at, used[k]), TA_REGION_START_ALIGN);
        if (at > UINT32_MAX) return ta_diag_set(diag, TA_E_OVERFLOW, "region layout: %zu virtual bytes, above 4 GiB", at);
    }
    for (size_t i = 0; i < m; i++) {
        if (region_of[i] >= n) return ta_diag_set(diag, TA_E_INVALID_ARG, "buffer %zu: region %u of %u", i, region_of[i], n);
        virt[i] = L->start[region_of[i]] + offsets[i];
    }
    return TA_OK;
}

void ta_runtime_use_regions(ta_runtime_options *opt, const ta_region_layout *layout) {
    if (opt) opt->regions = layout;
}

static bool layout_ok(const ta_region_layout *L) {
    if (!L || L->n == 0 || L->n > TA_RT_MAX_REGIONS || L->persistent >= L->n) return false;
    for (uint32_t k = 0; k < L->n; k++)
        if (L->start[k] % TA_REGION_START_ALIGN || L->bytes[k] > SIZE_MAX - L->start[k] ||
            (k && L->start[k] < L->start[k - 1] + L->bytes[k - 1]))
            return false;
    return true;
}

size_t ta__rt_head_planned(const ta_runtime *rt) {
    if (!rt->rg.n) return rt->b.planned;
    const ta_region_layout *L = rt->opt.regions;
    return ta__align_up(L->bytes[L->persistent], rt->b.head_align ? rt->b.head_align : 1);
}

/* Region k's part holds [start, start + bytes); a buffer must lie in one
 * part entirely -- a plan source that spans two would have the kernel walk
 * off its region's memory, so that is the one thing checked per buffer. */
uint8_t *ta__rt_region_at(ta_runtime *rt, size_t off, size_t bytes) {
    const ta_region_layout *L = rt->opt.regions;
    for (uint32_t k = L->n; k-- > 0;) {
        if (off < L->start[k]) continue;
        const size_t in = off - L->start[k];
        if (in > L->bytes[k] || bytes > L->bytes[k] - in) break;
        uint8_t *base = k == L->persistent ? rt->head : rt->rg.base[k];
        return base + in;
    }
    rt->rg.fault = 1;
    return rt->head; /* never used: init fails on the fault */
}

ta_status ta_runtime_region_bytes(const ta_runtime *rt, uint32_t k, size_t *bytes) {
    if (!rt || !bytes) return TA_E_INVALID_ARG;
    if (rt->state < TA__RT_QUERIED) return TA_E_STATE;
    const ta_region_layout *L = rt->opt.regions;
    if (!layout_ok(L) || k >= L->n) return TA_E_INVALID_ARG;
    const size_t A = rt->b.head_align ? rt->b.head_align : 1;
    /* any base address: A - 1 bytes to align the start; the persistent
     * region is laid out as one arena of its own planned part */
    size_t need = ta__add_sat(ta__align_up(L->bytes[k], A), A - 1);
    if (k == L->persistent) need = ta__add_sat(need, rt->b.persistent);
    *bytes = need;
    return TA_OK;
}

ta_status ta_runtime_init_regions(ta_runtime *rt, void *work, size_t work_bytes, const ta_arena_region *arenas,
                                  size_t n, ta_diag *diag) {
    if (!rt || rt->state == TA__RT_CLOSED) return ta_diag_set(diag, TA_E_STATE, "runtime init before open");
    const ta_region_layout *L = rt->opt.regions;
    if (!layout_ok(L))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "init across regions: no valid region layout (ta_runtime_use_regions)");
    if (!arenas || n != L->n)
        return ta_diag_set(diag, TA_E_INVALID_ARG, "init across regions: %zu arenas for %u regions", arenas ? n : 0, L->n);
    if (rt->opt.poison)
        return ta_diag_set(diag, TA_E_UNSUPPORTED, "poison mode runs in one arena (its canaries sweep one head)");
    if (rt->state < TA__RT_QUERIED)
        return ta_diag_set(diag, TA_E_STATE, "init across regions needs a query first (the regions' sizes)");
    if (!work && rt->b.work_bytes)
        return ta_diag_set(diag, TA_E_INVALID_ARG, "init across regions needs a work block of %zu bytes", rt->b.work_bytes);
    for (uint32_t k = 0; k < L->n; k++) {
        size_t need = SIZE_MAX;
        char nb[24];
        ta_runtime_region_bytes(rt, k, &need);
        if (!arenas[k].base) return ta_diag_set(diag, TA_E_INVALID_ARG, "region %s: NULL memory", region_name(L, k, nb, sizeof nb));
        if (arenas[k].bytes < need)
            return ta_diag_set(diag, TA_E_NO_MEMORY, "region %s needs %zu bytes, has %zu", region_name(L, k, nb, sizeof nb),
                               need, arenas[k].bytes);
    }
    const size_t A = rt->b.head_align ? rt->b.head_align : 1;
    memset(&rt->rg, 0, sizeof rt->rg);
    for (uint32_t k = 0; k < L->n; k++) {
        uintptr_t b = ((uintptr_t)arenas[k].base + (A - 1)) & ~(uintptr_t)(A - 1);
        rt->rg.base[k] = (uint8_t *)b;
    }
    rt->rg.n = L->n;
    /* the persistent region is initialised as one arena whose planned part
     * is its own (ta__rt_head_planned); every other buffer is pointed into
     * its region by ta__rt_region_at */
    const uint32_t p = L->persistent;
    ta_status st = ta_runtime_init(rt, work, work_bytes, arenas[p].base, arenas[p].bytes, diag);
    if (!st && rt->rg.fault) {
        rt->state = TA__RT_QUERIED;
        st = ta_diag_set(diag, TA_E_BAD_REQUEST, "init across regions: a buffer of the plan crosses its region's end");
    }
    if (st) memset(&rt->rg, 0, sizeof rt->rg);
    return st;
}
