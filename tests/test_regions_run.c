/* The runtime across memory regions (runtime.h ta_runtime_init_regions):
 * person_detect from a 32 KB fast region plus a slow one, MobileNetV2 from
 * 256 KB plus a slow one, and both under seeded random assignments (every
 * buffer pinned to a random region), each output byte-identical to TFLM's;
 * a region too small and a plan crossing its region's end refused with one
 * line. */
#include <stdlib.h>
#include <string.h>

#include "runtime_harness.h"
#include "testutil.h"
#include "tinyarena/regions.h"

static const char *g_data;

/* A plan source that keeps a copy of the requests and plans them greedily
 * (the first query, to learn the runtime's requests). */
typedef struct {
    ta_request *reqs;
    size_t n;
} capture;

static ta_status capture_plan(void *ctx, const ta_request *reqs, size_t n, void *work, size_t work_bytes,
                              size_t *work_need, size_t *offsets, size_t *arena_bytes, ta_diag *diag) {
    (void)work;
    (void)work_bytes;
    if (work_need) *work_need = 0;
    if (!offsets) return TA_OK;
    capture *c = ctx;
    free(c->reqs);
    c->reqs = malloc((n ? n : 1) * sizeof *reqs);
    memcpy(c->reqs, reqs, n * sizeof *reqs);
    c->n = n;
    const ta_strategy *s = ta_strategy_find("greedy");
    size_t need;
    ta_plan_scratch_bytes(s, reqs, n, NULL, &need);
    void *scr = malloc(need);
    ta_plan_result res;
    ta_status st = ta_plan_run(s, reqs, n, NULL, scr, need, offsets, &res, diag);
    free(scr);
    *arena_bytes = res.arena_bytes;
    return st;
}

static uint64_t rng = 0x1234567ull;
static uint32_t rnd(uint32_t m) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33) % m;
}

/* Runs `model` with regions caps[0..R) (the last holds the persistent
 * part) on case `cs`; pins: NULL or per request.  Returns 1 when the
 * outputs match TFLM's; *fast_share gets region 0's share of the weights. */
static int run_regions(const unsigned char *bytes, size_t len, uint32_t rewrites, const size_t *caps, size_t R,
                       bool random_pins, const char *dir, double *fast_share) {
    ta_runtime rt;
    ta_diag d;
    ta_arena_breakdown b;
    void *work;
    size_t wb;
    capture cap = {NULL, 0};
    ta_runtime_options opt = ta_runtime_options_default();
    opt.rewrites = rewrites;
    opt.planner = capture_plan;
    opt.planner_ctx = &cap;
    CHECK(ta_test_open_query(&rt, bytes, len, &opt, &b, &work, &wb, &d) == TA_OK);
    free(work);
    const size_t A = b.head_align, n = cap.n;
    /* the planner's capacities: what each region's memory holds after aligning its start */
    ta_region regs[4];
    static const char *names[4] = {"FAST", "MID", "SLOW", "EXT"};
    for (size_t k = 0; k < R; k++) regs[k] = (ta_region){names[k == R - 1 ? 2 : k], caps[k] - (A - 1), (uint32_t)k};
    uint64_t *w = malloc(n * sizeof *w);
    uint32_t *pin = malloc(n * sizeof *pin), *reg = malloc(n * sizeof *reg);
    size_t *off = malloc(n * sizeof *off);
    for (size_t i = 0; i < n; i++) {
        w[i] = ta_request_padded(&cap.reqs[i]) * (1 + rnd(4));
        pin[i] = random_pins ? rnd((uint32_t)R) : TA_REGION_ANY;
    }
    ta_region_problem p = {regs, R, pin, w};
    const ta_strategy *s = ta_strategy_find("best");
    size_t need;
    CHECK(ta_regions_scratch_bytes(s, cap.reqs, n, &p, NULL, &need) == TA_OK);
    void *scr = malloc(need);
    ta_region_result res;
    ta_status st = ta_regions_plan(s, cap.reqs, n, &p, NULL, scr, need, reg, off, &res, &d);
    free(scr);
    if (st) fprintf(stderr, "regions plan: %s\n", d.msg);
    CHECK(st == TA_OK);
    int ok = 0;
    if (!st) {
        uint64_t tot = 0;
        for (size_t k = 0; k < R; k++) tot += res.accessed_bytes[k];
        *fast_share = tot ? (double)res.accessed_bytes[0] / (double)tot : 0;
        ta_region_layout L;
        size_t *virt = malloc(n * sizeof *virt);
        CHECK(ta_region_layout_make(&L, (uint32_t)R, (uint32_t)(R - 1), res.used_bytes, names, reg, off, n, virt, &d) == TA_OK);
        uint32_t *toff = malloc(n * sizeof *toff);
        for (size_t i = 0; i < n; i++) toff[i] = (uint32_t)virt[i];
        ta_plan_table table = {toff, n, L.start[R - 1] + L.bytes[R - 1]};
        ta_runtime_options o2 = ta_runtime_options_default();
        o2.rewrites = rewrites;
        ta_runtime_use_table(&o2, &table);
        ta_runtime_use_regions(&o2, &L);
        ta_runtime rt2;
        CHECK(ta_test_open_query(&rt2, bytes, len, &o2, &b, &work, &wb, &d) == TA_OK);
        ta_arena_region ar[4];
        void *mem[4];
        for (uint32_t k = 0; k < R; k++) {
            size_t rb = 0;
            CHECK(ta_runtime_region_bytes(&rt2, k, &rb) == TA_OK);
            if (k + 1 < R) CHECK(rb <= caps[k]); /* the plan fits the memory given */
            mem[k] = malloc(rb ? rb : 1);
            ar[k] = (ta_arena_region){mem[k], rb};
        }
        /* one byte short: the one line, nothing written */
        ar[0].bytes--;
        st = ta_runtime_init_regions(&rt2, work, wb, ar, R, &d);
        CHECK_EQ_U(st, TA_E_NO_MEMORY);
        CHECK(strstr(d.msg, "region FAST needs ") == d.msg && strstr(d.msg, " bytes, has ") != NULL);
        ar[0].bytes++;
        st = ta_runtime_init_regions(&rt2, work, wb, ar, R, &d);
        if (st) fprintf(stderr, "init regions: %s\n", d.msg);
        CHECK(st == TA_OK);
        if (!st) {
            char path[2048];
            snprintf(path, sizeof path, "%s/input0.raw", dir);
            size_t il;
            unsigned char *in = ta_test_read_file(path, &il);
            const ta_io *x = ta_runtime_input(&rt2, 0);
            CHECK(in && x && il == x->bytes);
            /* the input lives in the region its buffer was given */
            int in_region = 0;
            for (uint32_t k = 0; x && k < R; k++)
                if ((uint8_t *)x->data >= (uint8_t *)mem[k] && (uint8_t *)x->data + x->bytes <= (uint8_t *)mem[k] + ar[k].bytes)
                    in_region++;
            CHECK_EQ_U(in_region, 1);
            if (in && x && il == x->bytes) {
                memcpy(x->data, in, il);
                CHECK(ta_runtime_invoke(&rt2, &d) == TA_OK);
                ok = ta_test_outputs_match(&rt2, dir, "regions");
                CHECK(ok);
            }
            free(in);
            size_t eb;
            CHECK_EQ_U(ta_runtime_export_init(&rt2, NULL, 0, NULL, 0, &eb, &d), TA_E_UNSUPPORTED);
        }
        free(work);
        /* a layout whose region is shorter than its plan: a buffer crosses its end */
        if (L.bytes[0] >= 64) {
            L.bytes[0] -= 32;
            CHECK(ta_test_open_query(&rt2, bytes, len, &o2, &b, &work, &wb, &d) == TA_OK);
            st = ta_runtime_init_regions(&rt2, work, wb, ar, R, &d);
            CHECK_EQ_U(st, TA_E_BAD_REQUEST);
            CHECK(strstr(d.msg, "crosses its region's end") != NULL);
            CHECK(ta_runtime_invoke(&rt2, &d) == TA_E_STATE);
            free(work);
        }
        for (uint32_t k = 0; k < R; k++) free(mem[k]);
        free(toff);
        free(virt);
    }
    free(w);
    free(pin);
    free(reg);
    free(off);
    free(cap.reqs);
    return ok;
}

static void model(const char *file, const char *flat, const char *cs, size_t fast_kb, int random_runs) {
    char path[1024], dir[2048];
    snprintf(path, sizeof path, "%s/models/tflm/%s.tflite", g_data, file);
    snprintf(dir, sizeof dir, "%s/models/reference/cases/%s/%s", g_data, flat, cs);
    size_t len;
    unsigned char *bytes = ta_test_map_readonly(path, &len);
    CHECK(bytes != NULL);
    if (!bytes) return;
    double share = 0;
    const size_t two[2] = {fast_kb * 1024, 64u << 20};
    CHECK(run_regions(bytes, len, 0, two, 2, false, dir, &share));
    printf("%s: %zu KB fast + slow, bit-exact; fast region share of accessed bytes %.1f%%\n", file, fast_kb, 100 * share);
    CHECK(share > 0);
    CHECK(run_regions(bytes, len, TA_REWRITE_ALL & ~TA_REWRITE_OVERLAP, two, 2, false, dir, &share));
    printf("%s: with rewrites, bit-exact; fast share %.1f%%\n", file, 100 * share);
    for (int r = 0; r < random_runs; r++) {
        size_t R = 2 + (size_t)rnd(3), caps[4];
        for (size_t k = 0; k < R; k++) caps[k] = 64u << 20;
        CHECK(run_regions(bytes, len, r % 2 ? TA_REWRITE_ALL & ~TA_REWRITE_OVERLAP : 0, caps, R, true, dir, &share));
    }
    printf("%s: %d random assignments over 2-4 regions, bit-exact\n", file, random_runs);
    munmap(bytes, len);
}

int main(void) {
    g_data = ta_test_data_dir("regions runtime (shared models)");
    if (!g_data) return ta_test_finish("regions_run");
    model("person_detect", "tflm__person_detect", "person", 32, 6);
    model("xtensa_mobilenet_v2_quantized_1x3x224x224", "tflm__xtensa_mobilenet_v2_quantized_1x3x224x224", "dog", 256, 2);
    return ta_test_finish("regions_run");
}
