/* The firmware arena is the true minimum (issue 10).
 *
 * For every model of the shared manifest that the runtime runs, with TFLM's
 * graph and with every rewrite: the budget `plan --header` makes (its plan,
 * op constants blob and init table, firmware.c -- the header's own code),
 * then the runtime exactly as firmware runs it (ta_runtime_use_budget,
 * in-place init, no work block) in arenas of chosen sizes and addresses,
 * each between canary bytes:
 *  - <P>_ARENA_BYTES = planned + persistent + 15 (the alignment slack): init
 *    needs nothing more, and ta_runtime_query says the same;
 *  - at an address 1 mod 16 (a plain `static uint8_t arena[]`), <P>_ARENA_BYTES
 *    works and one byte less fails: it is the least arena for any address;
 *  - at an address 16 mod 32, a binary search over [0, <P>_ARENA_BYTES] finds
 *    the least working arena, planned + persistent exactly;
 *  - 32 bytes less fails with the one-line "arena needs X bytes, has N";
 *  - nothing is ever written outside the arena, and the outputs of the
 *    model's first reference case are byte-identical to TFLM's;
 *  - the op constants built in the arena instead (<P>_ARENA_BYTES_CONSTS_IN_ARENA)
 *    run in that arena too.
 * It prints <P>_ARENA_BYTES against TFLM's smallest working arena
 * (models/reference/tflm_min_arena.tsv) and checks it is not larger. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/core.h"
#include "firmware.h"
#include "model_load.h"
#include "testutil.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/runtime.h"

#define CANARY 64u
#define CANARY_BYTE 0x5A

static const char *g_data;

/* TFLM's smallest working arena for `file` (manifest name), 0 when unknown. */
static size_t tflm_min(const char *tsv, const char *file) {
    char key[512];
    snprintf(key, sizeof key, "\n%s\t", file);
    const char *line = tsv ? strstr(tsv, key) : NULL;
    if (!line) return 0;
    const char *p = strchr(line + 1, '\t');
    p = p ? strchr(p + 1, '\t') : NULL; /* column 3: min_arena_bytes */
    return p ? (size_t)strtoull(p + 1, NULL, 10) : 0;
}

typedef struct {
    const unsigned char *model;
    size_t len;
    const ta_budget *budget;
    bool consts_in_arena;
} fw_case;

/* One firmware init in an arena of n bytes at an address that is `mis` mod
 * 32, canaries around it; the status, with the runtime ready in *rt on
 * success (its arena in *block, the caller frees it). */
static ta_status try_arena(const fw_case *c, size_t n, unsigned mis, ta_runtime *rt, unsigned char **block, ta_diag *d) {
    /* the firmware's options (no work-block path) unless the consts are built
     * in the arena, which needs it */
    ta_runtime_options opt = ta_runtime_options_for_budget(c->budget, &ta_op_list_all);
    if (c->consts_in_arena) {
        opt = ta_runtime_options_default();
        ta_runtime_use_budget(&opt, c->budget);
        ta_runtime_use_consts(&opt, NULL, 0);
        ta_runtime_use_init(&opt, NULL, 0);
    }
    ta_status st = ta_runtime_open(rt, c->model, c->len, &opt, d);
    CHECK(st == TA_OK);
    if (st) return st;
    *block = malloc(n + 2 * CANARY + 64);
    unsigned char *a = (unsigned char *)((((uintptr_t)*block + CANARY + 31) & ~(uintptr_t)31) + mis);
    memset(*block, CANARY_BYTE, n + 2 * CANARY + 64);
    st = ta_runtime_init(rt, NULL, 0, a, n, d);
    int ok = 1;
    for (size_t i = 0; i < CANARY; i++) ok &= a[-(ptrdiff_t)CANARY + (ptrdiff_t)i] == CANARY_BYTE && a[n + i] == CANARY_BYTE;
    CHECK(ok);
    if (st) {
        /* a refusal writes nothing at all */
        int untouched = 1;
        for (size_t i = 0; i < n; i++) untouched &= a[i] == CANARY_BYTE;
        CHECK(untouched);
    }
    return st;
}

static bool works(const fw_case *c, size_t n, unsigned mis) {
    ta_runtime rt;
    unsigned char *block = NULL;
    ta_diag d;
    ta_status st = try_arena(c, n, mis, &rt, &block, &d);
    free(block);
    if (st && st != TA_E_NO_MEMORY) fprintf(stderr, "  init: %s\n", d.msg);
    return st == TA_OK;
}

/* Runs the first reference case of `flat` on rt; 1 when byte-identical to TFLM, -1 when there is none. */
static int bit_exact(ta_runtime *rt, const char *flat) {
    char dir[1024], path[2048];
    snprintf(dir, sizeof dir, "%s/models/reference/cases/%s", g_data, flat);
    DIR *dd = opendir(dir);
    if (!dd) return -1;
    char kase[256] = "";
    for (struct dirent *e; (e = readdir(dd));)
        if (e->d_name[0] != '.' && (!kase[0] || strcmp(e->d_name, kase) < 0)) snprintf(kase, sizeof kase, "%s", e->d_name);
    closedir(dd);
    if (!kase[0]) return -1;
    for (uint32_t k = 0; k < ta_runtime_input_count(rt); k++) {
        const ta_io *in = ta_runtime_input(rt, k);
        snprintf(path, sizeof path, "%s/%s/input%u.raw", dir, kase, k);
        size_t n = 0;
        unsigned char *raw = ta_test_read_file(path, &n);
        if (!raw || n != in->bytes) {
            free(raw);
            return 0;
        }
        memcpy(in->data, raw, n);
        free(raw);
    }
    ta_diag d;
    if (ta_runtime_invoke(rt, &d)) {
        fprintf(stderr, "  invoke: %s\n", d.msg);
        return 0;
    }
    int same = 1;
    for (uint32_t k = 0; k < ta_runtime_output_count(rt); k++) {
        const ta_io *o = ta_runtime_output(rt, k);
        snprintf(path, sizeof path, "%s/%s/tflm_output%u.bin", dir, kase, k);
        size_t n = 0;
        unsigned char *ref = ta_test_read_file(path, &n);
        same &= ref && n == o->bytes && memcmp(ref, o->data, n) == 0;
        free(ref);
    }
    return same;
}

typedef struct {
    double log_sum;
    int n, above;
} ratio_acc;

/* Returns <P>_ARENA_BYTES (0: not runnable). */
static size_t one(const char *file, const char *tsv, uint32_t rewrites, ta_align_rule rule, bool search, ratio_acc *acc) {
    char path[1024], flat[256];
    snprintf(path, sizeof path, "%s/models/%s", g_data, file);
    size_t j = 0;
    for (const char *p = file; *p && *p != '.' && j + 3 < sizeof flat; p++) {
        if (*p == '/') flat[j++] = '_', flat[j++] = '_';
        else flat[j++] = *p;
    }
    flat[j] = 0;
    loaded_model lm;
    ta_diag d;
    size_t ns = 0;
    if (model_load(path, &lm) || ta_runtime_scratch_requests(&lm.g, NULL, 0, &ns, &d)) {
        printf("  %-52s %-4s not runnable: %s\n", file, rewrites ? "all" : "none", lm.bytes ? d.msg : "cannot load");
        model_unload(&lm);
        return 0; /* not a model the runtime runs */
    }
    fw_plan p;
    fw_budget fw;
    memset(&fw, 0, sizeof fw);
    const ta_strategy *s = ta_strategy_find("optimal");
    if (fw_plan_make(file, &lm, s, rewrites, rule, &p) || !fw_make(lm.bytes, lm.len, &p.table, p.applied, rule, &fw, &d)) {
        /* e.g. several subgraphs: the runtime refuses at query */
        printf("  %-52s %-4s not runnable: %s\n", file, rewrites ? "all" : "none", d.msg);
        fw_free(&fw);
        fw_plan_free(&p);
        model_unload(&lm);
        return 0;
    }
    const ta_budget budget = {file, ta_budget_hash(lm.bytes, lm.len), s->name, (uint32_t)p.res.arena_bytes,
                              (uint32_t)fw.fw.head_align, (uint32_t)p.mp.n, p.entries, fw.consts, (uint32_t)fw.consts_bytes,
                              p.applied, fw.init, (uint32_t)fw.init_bytes, ta_align_rule_code(rule)};
    const size_t A = fw.fw.head_align; /* the head's alignment: 16 under TFLM's rule, 8 under arch */
    const size_t X = fw.fw.total_in_place, P = fw.fw.planned, Q = fw.fw.persistent;
    /* the header's figure: the planned and persistent parts and the slack, no work block */
    CHECK_EQ_U(fw.fw.work_bytes, 0);
    /* the model hash as armv6-m computes it (32-bit halves) is the same */
    CHECK_EQ_U(ta__budget_hash_halves(lm.bytes, lm.len), ta_budget_hash(lm.bytes, lm.len));
    CHECK_EQ_U(X, P + Q + A - 1);
    CHECK(rule.kind == TA_ALIGN_TFLM ? A == 16 : A >= 8);
    CHECK_EQ_U(fw.fw.total, X);
    /* the header's per-ABI figure is this host's layout on this host */
    CHECK_EQ_U(ta_runtime_persistent_bytes_abi(&fw.fw, sizeof(void *), sizeof(ta_io), sizeof(ta_var_rec)), Q);
    if (sizeof(void *) == 8) CHECK_EQ_U(ta_runtime_persistent_bytes_abi(&fw.fw, 8, 72, 24), Q);
    fw_case c = {lm.bytes, lm.len, &budget, false};
    /* query agrees, without a work block */
    {
        ta_runtime rt;
        ta_runtime_options opt = ta_runtime_options_default();
        ta_runtime_use_budget(&opt, &budget);
        ta_arena_breakdown b;
        CHECK(ta_runtime_open(&rt, lm.bytes, lm.len, &opt, &d) == TA_OK);
        CHECK(ta_runtime_query(&rt, NULL, 0, &b, &d) == TA_OK);
        CHECK_EQ_U(b.total_in_place, X);
        CHECK_EQ_U(b.work_bytes, 0);
    }
    /* the firmware's options: the same from the init table; without it
     * (or in poison mode) there is no work-block path to fall back on: one
     * line, nothing written */
    for (int without = 0; without < 3; without++) {
        ta_runtime rt;
        ta_runtime_options opt = ta_runtime_options_for_budget(&budget, &ta_op_list_all);
        CHECK(opt.work_path == NULL);
        if (without == 1) ta_runtime_use_init(&opt, NULL, 0);
        if (without == 2) opt.poison = true;
        ta_arena_breakdown b;
        CHECK(ta_runtime_open(&rt, lm.bytes, lm.len, &opt, &d) == TA_OK);
        CHECK_EQ_U(ta_runtime_work_bytes(&rt), 0);
        ta_status q = ta_runtime_query(&rt, NULL, 0, &b, &d);
        if (!without) {
            CHECK(q == TA_OK);
            CHECK_EQ_U(b.total_in_place, X);
            continue;
        }
        CHECK(q == TA_E_UNSUPPORTED && strstr(d.msg, "ta_runtime_options_for_ops") && !strchr(d.msg, '\n'));
        unsigned char *arena = malloc(X);
        memset(arena, 0x33, X);
        CHECK(ta_runtime_init(&rt, NULL, 0, arena, X, &d) == TA_E_UNSUPPORTED);
        CHECK(strstr(d.msg, without == 1 ? "no init table" : "poison mode") != NULL);
        int untouched = 1;
        for (size_t k = 0; k < X; k++) untouched &= arena[k] == 0x33;
        CHECK(untouched);
        free(arena);
    }
    /* any address: X is the least */
    CHECK(works(&c, X, 1));
    CHECK(!works(&c, X - 1, 1));
    /* A mod 2A (A the header's alignment): planned + persistent exactly */
    size_t least = P + Q;
    if (search) {
        size_t lo = 0, hi = X; /* works(hi), and the answer is in (lo, hi] */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (works(&c, mid, (unsigned)A)) hi = mid;
            else lo = mid;
        }
        least = hi;
        CHECK_EQ_U(least, P + Q);
    } else {
        CHECK(works(&c, P + Q, (unsigned)A));
        CHECK(!works(&c, P + Q - 1, (unsigned)A));
    }
    /* 32 bytes less: the one-line refusal */
    {
        ta_runtime rt;
        unsigned char *block = NULL;
        CHECK(try_arena(&c, X - 32, (unsigned)A, &rt, &block, &d) == TA_E_NO_MEMORY);
        char want[96];
        snprintf(want, sizeof want, "arena needs %zu bytes, has %zu", X, X - 32);
        CHECK(strstr(d.msg, want) == d.msg && strchr(d.msg, '\n') == NULL);
        free(block);
    }
    /* X, bit-exact, nothing written outside */
    int exact = -1;
    {
        ta_runtime rt;
        unsigned char *block = NULL;
        CHECK(try_arena(&c, X, 1, &rt, &block, &d) == TA_OK);
        exact = bit_exact(&rt, flat);
        CHECK(exact != 0);
        unsigned char *a = (unsigned char *)((((uintptr_t)block + CANARY + 31) & ~(uintptr_t)31) + 1);
        int ok = 1;
        for (size_t i = 0; i < CANARY; i++) ok &= a[-(ptrdiff_t)CANARY + (ptrdiff_t)i] == CANARY_BYTE && a[X + i] == CANARY_BYTE;
        CHECK(ok);
        free(block);
    }
    /* the planner on the device (no table): its work block (graph, lifetimes,
     * requests, the strategy's scratch) lives in the head during init, and
     * query says how much the in-place arena needs for it */
    static const char *const k_planners[] = {"greedy", "optimal"};
    for (int k = 0; k < 2; k++) {
        ta_runtime_options opt = ta_runtime_options_default();
        CHECK(ta_runtime_use_strategy(&opt, k_planners[k]) == TA_OK);
        opt.rewrites = p.applied;
        opt.align_rule = rule;
        ta_runtime rt;
        void *work = NULL;
        size_t wb = 0;
        ta_arena_breakdown b;
        CHECK(ta_runtime_open(&rt, lm.bytes, lm.len, &opt, &d) == TA_OK);
        CHECK(cli_runtime_query(&rt, &work, &wb, &b, &d) == TA_OK);
        free(work);
        const size_t head = b.planned > b.work_bytes ? b.planned : ((b.work_bytes + A - 1) & ~(A - 1));
        CHECK(b.work_bytes > 0);
        CHECK_EQ_U(b.total_in_place, head + b.persistent + A - 1);
        unsigned char *block = malloc(b.total_in_place + 64);
        CHECK(ta_runtime_open(&rt, lm.bytes, lm.len, &opt, &d) == TA_OK);
        unsigned char *a = (unsigned char *)((((uintptr_t)block + 31) & ~(uintptr_t)31) + 1);
        ta_status st = ta_runtime_init(&rt, NULL, 0, a, b.total_in_place, &d);
        CHECK(st == TA_OK);
        if (st) fprintf(stderr, "  %s in place: %s\n", k_planners[k], d.msg);
        else CHECK(bit_exact(&rt, flat) != 0);
        free(block);
    }
    /* the op constants in the arena: that figure works too */
    c.consts_in_arena = true;
    CHECK(works(&c, fw.in_arena.total_in_place, 1));
    const size_t tflm = tflm_min(tsv, file);
    printf("  %-52s %-4s planned %9zu + persistent %7zu + %2zu = %9zu B (least at %zu mod %zu: %zu%s)  consts in arena %9zu  TFLM %9zu  ratio %s%.3f%s\n",
           file, rewrites ? "all" : "none", P, Q, A - 1, X, A, 2 * A, least, search ? ", searched" : "", fw.in_arena.total_in_place, tflm,
           "", tflm ? (double)X / (double)tflm : 0.0, exact == 1 ? "  bit-exact" : "  (no case)");
    if (tflm) {
        acc->log_sum += log((double)X / (double)tflm);
        acc->n++;
        if (X > tflm) acc->above++;
        CHECK(X <= tflm);
    }
    fw_free(&fw);
    fw_plan_free(&p);
    model_unload(&lm);
    return X;
}

/* Every single-bit change of hello_world's init table and const blob, at
 * every byte, is refused by query and init (nothing written): the checksums
 * and headers leave no byte unchecked. */
static void every_byte(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/tflm/hello_world_int8.tflite", g_data);
    loaded_model lm;
    fw_plan p;
    fw_budget fw;
    ta_diag d;
    memset(&fw, 0, sizeof fw);
    memset(&p, 0, sizeof p);
    if (model_load(path, &lm) || fw_plan_make("hello_world", &lm, ta_strategy_find("optimal"), 0, TA_ALIGN_RULE_DEFAULT, &p) ||
        !fw_make(lm.bytes, lm.len, &p.table, p.applied, TA_ALIGN_RULE_DEFAULT, &fw, &d)) {
        CHECK(!"hello_world");
    } else {
        const size_t ni = fw.init_bytes, nk = fw.consts_bytes, n = fw.fw.total;
        unsigned char *init = aligned_alloc(16, (ni + 15) & ~(size_t)15), *blob = aligned_alloc(16, (nk + 15) & ~(size_t)15);
        unsigned char *arena = malloc(n);
        size_t refused = 0, tried = 0;
        for (size_t at = 0; at < ni + nk; at++) {
            for (int bit = 0; bit < 8; bit += 3) {
                memcpy(init, fw.init, ni);
                memcpy(blob, fw.consts, nk);
                if (at < ni) init[at] ^= (unsigned char)(1u << bit);
                else blob[at - ni] ^= (unsigned char)(1u << bit);
                ta_runtime_options opt = ta_runtime_options_default();
                ta_runtime_use_table(&opt, &p.table);
                ta_runtime_use_consts(&opt, blob, nk);
                ta_runtime_use_init(&opt, init, ni);
                ta_runtime rt;
                ta_arena_breakdown b;
                CHECK(ta_runtime_open(&rt, lm.bytes, lm.len, &opt, &d) == TA_OK);
                ta_status q = ta_runtime_query(&rt, NULL, 0, &b, &d);
                memset(arena, 0x33, n);
                ta_status st = ta_runtime_init(&rt, NULL, 0, arena, n, &d);
                int untouched = 1;
                for (size_t k = 0; k < n; k++) untouched &= arena[k] == 0x33;
                tried++;
                refused += q != TA_OK && st != TA_OK && untouched && strchr(d.msg, '\n') == NULL;
            }
        }
        printf("  hello_world: %zu of %zu one-bit changes of the init table and the const blob refused, nothing written\n",
               refused, tried);
        CHECK_EQ_U(refused, tried);
        free(arena);
        free(init);
        free(blob);
    }
    fw_free(&fw);
    fw_plan_free(&p);
    model_unload(&lm);
}

/* Init from the tables checks them before it trusts them: each corruption
 * or mismatch is refused with a one-line diag, and nothing is written. */
static void refusals(void) {
    char path[1024];
    snprintf(path, sizeof path, "%s/models/tflm/person_detect.tflite", g_data);
    loaded_model lm, other;
    snprintf(path + 512, 512, "%s/models/mlperf_tiny/vww_96_int8.tflite", g_data);
    if (model_load(path, &lm) || model_load(path + 512, &other)) {
        CHECK(!"models");
        model_unload(&lm);
        model_unload(&other);
        return;
    }
    fw_plan p;
    fw_budget fw;
    ta_diag d;
    memset(&fw, 0, sizeof fw);
    CHECK(fw_plan_make("person_detect", &lm, ta_strategy_find("optimal"), 0, TA_ALIGN_RULE_DEFAULT, &p) == 0);
    CHECK(fw_make(lm.bytes, lm.len, &p.table, p.applied, TA_ALIGN_RULE_DEFAULT, &fw, &d));
    const size_t ni = fw.init_bytes, nk = fw.consts_bytes;
    unsigned char *init = aligned_alloc(16, (ni + 47) & ~(size_t)15), *blob = aligned_alloc(16, (nk + 47) & ~(size_t)15);
    static const struct {
        const char *what;
        int on;       /* 0: the init table, 1: the blob, 2: other options */
        size_t at;    /* byte to flip (SIZE_MAX: none) */
        int shift;    /* placed this many bytes off its alignment */
        long dbytes;  /* size given minus the real size */
        ta_status want;
        const char *msg;
    } k_bad[] = {
        {"init magic", 0, 0, 0, 0, TA_E_MALFORMED, "magic"},
        {"init version", 0, 4, 0, 0, TA_E_BAD_REQUEST, "format version"},
        {"init size", 0, SIZE_MAX, 0, -4, TA_E_BAD_REQUEST, "bytes"},
        {"init short", 0, SIZE_MAX, 0, -(1L << 40), TA_E_MALFORMED, "shorter than its header"},
        {"init misaligned", 0, SIZE_MAX, 2, 0, TA_E_MISALIGNED, "aligned"},
        {"init tensor", 0, 100, 0, 0, TA_E_BAD_REQUEST, "checksum"},
        {"init last byte", 0, SIZE_MAX - 1, 0, 0, TA_E_BAD_REQUEST, "checksum"},
        {"blob record", 1, SIZE_MAX - 2, 0, 0, TA_E_BAD_REQUEST, "record differs"},
        {"blob hash", 1, 21, 0, 0, TA_E_BAD_REQUEST, "other model bytes"},
        {"other model", 2, SIZE_MAX, 0, 0, TA_E_BAD_REQUEST, "init table was made for other model bytes"},
        {"other rewrites", 3, SIZE_MAX, 0, 0, TA_E_BAD_REQUEST, "rewrites"},
        {"other scratch", 4, SIZE_MAX, 0, 0, TA_E_BAD_REQUEST, "scratch"},
        {"other rule", 5, SIZE_MAX, 0, 0, TA_E_BAD_REQUEST, "planned under alignment rule arch 4, the runtime uses tflm"},
        {"rule word", 0, 52, 0, 0, TA_E_BAD_REQUEST, "checksum"},
    };
    for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0]; i++) {
        const int on = k_bad[i].on;
        unsigned char *ti = init + (on == 0 ? k_bad[i].shift : 0);
        memcpy(ti, fw.init, ni);
        memcpy(blob, fw.consts, nk);
        size_t at = k_bad[i].at;
        if (at == SIZE_MAX - 1) at = ni - 1;
        if (at == SIZE_MAX - 2) at = nk / 2;
        if (on == 0 && at < ni) ti[at] ^= 0x01;
        if (on == 1 && at < nk) blob[at] ^= 0x40;
        size_t nb = ni;
        if (on == 0 && k_bad[i].dbytes) nb = k_bad[i].dbytes < -(long)ni ? 16 : (size_t)((long)ni + k_bad[i].dbytes);
        /* the tables with a strategy's options: no hash given, so each table's own is what is checked */
        ta_runtime_options opt = ta_runtime_options_default();
        ta_runtime_use_table(&opt, &p.table);
        ta_runtime_use_consts(&opt, blob, nk);
        ta_runtime_use_init(&opt, ti, nb);
        if (on == 3) opt.rewrites = TA_REWRITE_ALL;
        if (on == 4) opt.scratch = TA_SCRATCH_SHARED;
        if (on == 5) opt.align_rule = (ta_align_rule){TA_ALIGN_TFLM, 0};
        const loaded_model *m = on == 2 ? &other : &lm;
        ta_runtime rt;
        CHECK(ta_runtime_open(&rt, m->bytes, m->len, &opt, &d) == TA_OK);
        ta_arena_breakdown b;
        ta_status st = ta_runtime_query(&rt, NULL, 0, &b, &d);
        printf("  init table, %-16s -> %s: %s\n", k_bad[i].what, ta_status_str(st), d.msg);
        CHECK(st == k_bad[i].want);
        CHECK(strstr(d.msg, k_bad[i].msg) != NULL && strchr(d.msg, '\n') == NULL);
        /* init refuses the same, writing nothing */
        const size_t n = fw.fw.total;
        unsigned char *arena = malloc(n);
        memset(arena, 0x33, n);
        CHECK(ta_runtime_init(&rt, NULL, 0, arena, n, &d) == k_bad[i].want);
        int untouched = 1;
        for (size_t k = 0; k < n; k++) untouched &= arena[k] == 0x33;
        CHECK(untouched);
        free(arena);
    }
    free(init);
    free(blob);
    fw_free(&fw);
    fw_plan_free(&p);
    model_unload(&lm);
    model_unload(&other);
}

int main(int argc, char **argv) {
    g_data = ta_test_data_dir("test_fw_arena");
    if (!g_data) return ta_test_finish("test_fw_arena");
    model_manifest mf;
    if (!model_manifest_read(g_data, &mf)) {
        CHECK(!"manifest");
        model_manifest_free(&mf);
        return ta_test_finish("test_fw_arena");
    }
    char tpath[1024];
    snprintf(tpath, sizeof tpath, "%s/models/reference/tflm_min_arena.tsv", g_data);
    char *tsv = (char *)ta_test_read_file(tpath, NULL);
    CHECK(tsv != NULL);
    /* a true binary search on a few models (each probe is one init); the
     * others check the least size and one byte less */
    static const char *const k_search[] = {"tflm/hello_world_int8.tflite", "mlperf_tiny/ad01_int8.tflite",
                                           "tflm/keyword_scrambled.tflite", "fiti/KWS_2_001_002_attention.tflite"};
    /* TFLM's graph under TFLM's rule and under the default (arch 4) and
     * dtype rules; every rewrite under the default */
    static const struct {
        uint32_t rewrites;
        ta_align_rule rule;
        const char *name;
    } k_pass[] = {{0, {TA_ALIGN_TFLM, 0}, "TFLM's graph, alignment rule tflm"},
                  {0, {TA_ALIGN_ARCH, 4}, "TFLM's graph, alignment rule arch 4 (the default)"},
                  {0, {TA_ALIGN_DTYPE, 0}, "TFLM's graph, alignment rule dtype"},
                  {TA_REWRITE_ALL, {TA_ALIGN_ARCH, 4}, "--rewrite all, alignment rule arch 4"}};
    size_t *x_tflm = calloc(mf.n + 1, sizeof *x_tflm);
    for (size_t r = 0; r < sizeof k_pass / sizeof k_pass[0]; r++) {
        ratio_acc acc = {0, 0, 0};
        int smaller = 0;
        printf("%s:\n", k_pass[r].name);
        for (size_t i = 0; i < mf.n; i++) {
            if (argc > 1 && !strstr(mf.files[i], argv[1])) continue;
            bool search = false;
            for (size_t k = 0; k < sizeof k_search / sizeof k_search[0]; k++) search |= !strcmp(mf.files[i], k_search[k]);
            const size_t x = one(mf.files[i], tsv, k_pass[r].rewrites, k_pass[r].rule, search, &acc);
            /* no model's arena grows under the element-size rules (TFLM's
             * graph); every one shrinks (the 15 B slack becomes 7, the tail
             * packs at 8) */
            if (r == 0) x_tflm[i] = x;
            else if (!k_pass[r].rewrites && x && x_tflm[i]) {
                CHECK(x < x_tflm[i]);
                smaller += x < x_tflm[i];
            }
        }
        if (r > 0 && !k_pass[r].rewrites) printf("  %d models with a smaller _ARENA_BYTES than under tflm\n", smaller);
        /* every model TFLM runs, except the Ethos-U one, runs here too */
        CHECK(acc.n >= 25 || argc > 1);
        if (acc.n)
            printf("  geometric mean of _ARENA_BYTES / TFLM's smallest arena over %d models: %.3f (%d above TFLM)\n", acc.n,
                   exp(acc.log_sum / acc.n), acc.above);
    }
    if (argc < 2) {
        refusals();
        every_byte();
    }
    free(x_tflm);
    free(tsv);
    model_manifest_free(&mf);
    return ta_test_finish("test_fw_arena");
}
