#define _POSIX_C_SOURCE 200809L
/* bench_run: invoke time and arena breakdown per model (a strategy's plan,
 * planned scratch), with TFLM's persistent bytes for comparison; then the
 * persistent part by category, and with the op constants read from an
 * exported const blob (flash) instead of the arena; then the kernels' speed:
 * multiply-accumulates counted from the model (CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, TRANSPOSE_CONV, BATCH_MATMUL), instructions per invoke
 * (callgrind, ta_runtime_invoke only, when valgrind is installed: bench_run
 * runs itself under it once per model and kernel implementation) and per
 * MAC, and the median invoke time, for each int8 kernel implementation.
 *   bench_run [DATA_DIR] [RUNS] [STRATEGY]   (DATA_DIR defaults to $TINYARENA_DATA,
 *                                            STRATEGY to greedy)
 *   TA_BENCH_IMPLS=fast,sse4.1,sse2,portable,reference   the implementations
 *                                            to measure (default all but
 *                                            reference: it takes minutes
 *                                            under callgrind); sse4.1 and sse2
 *                                            are FAST capped at SSE4.1 and at
 *                                            SSE2 (the x86-64 baseline) on
 *                                            x86-64, FAST elsewhere
 *   bench_run --invoke-once IMPL MODEL [PCT] one invoke (what callgrind counts; PCT:
 *                                            every rewrite, optimal plan, patch
 *                                            stages of at most PCT% extra MACs)
 *   bench_run --patch [DATA_DIR] [PCT]       patch-based execution (patch.h):
 *                                            planned arena, stages, extra MACs and
 *                                            invoke instructions against layer by
 *                                            layer (every rewrite, optimal plan)
 *   bench_run --macs MODEL                   the model's MACs */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "runtime/kernels/kernels_fast.h"
#include "tinyarena/kernels.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/runtime.h"
#include "tinyarena/tflite.h"

static const char *const k_models[] = {
    "tflm/hello_world_int8", "tflm/hello_world_float", "tflm/micro_speech_quantized",
    "tflm/audio_preprocessor_int8", /* TFLM's signal custom ops, op state */
    "tflm/simple_add_model", "mlperf_tiny/ad01_int8", "mlperf_tiny/kws_ref_model_int8",
    "mlperf_tiny/ic_pretrainedResnet_quant", "mlperf_tiny/vww_96_int8", "tflm/person_detect",
    "openmv/blazeface_front_128", "openmv/yolov8n_192", "tflm/xtensa_mobilenet_v2_quantized_1x3x224x224",
    /* attention, recurrent state (variable tensors in the persistent part), 16x8 single ops */
    "fiti/KWS_2_001_002_attention", "tflm/keyword_scrambled", "tflm/mnist_lstm_trained_lstm_int8",
    "tflm/dtln_noise_suppression", "tflm/seanet/add0", "tflm/seanet/conv0", "tflm/seanet/leaky_relu0",
    "tflm/seanet/pad0", "tflm/seanet/quantize0", "tflm/seanet/strided_slice0", "tflm/seanet/sub0",
    "tflm/seanet/transpose_conv0",
};

static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    unsigned char *b = n > 0 ? aligned_alloc(16, ((size_t)n + 15) & ~(size_t)15) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Column `want` (1-based) of the model's row in tflm_reference.tsv. */
static size_t tflm_col(const char *data, const char *model, int want) {
    char path[1024], key[300], line[4096];
    snprintf(path, sizeof path, "%s/models/reference/tflm_reference.tsv", data);
    snprintf(key, sizeof key, "%s.tflite\t", model);
    FILE *f = fopen(path, "r");
    size_t v = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, strlen(key))) continue;
        char *p = line;
        for (int col = 1; col < want && p; col++) p = strchr(p, '\t') ? strchr(p, '\t') + 1 : NULL;
        if (p) v = strtoull(p, NULL, 10);
    }
    if (f) fclose(f);
    return v;
}

/* Multiply-accumulates of one invoke, from the graph's shapes: output
 * elements x window (conv: taps x input channels per group, depthwise: taps,
 * FC / batch matmul: the inner dimension), transpose conv: input elements x
 * filter taps x output channels.  0 when the model does not import. */
static uint64_t count_macs(const unsigned char *bytes, size_t len) {
    ta_tflite_model m;
    ta_diag d;
    if (ta_tflite_open(&m, bytes, len, &d)) return 0;
    ta_graph_limits lim;
    ta_tflite_graph_limits(&m, &lim);
    size_t gb = ta_graph_bytes(&lim);
    void *block = malloc(gb);
    ta_graph g;
    uint64_t macs = 0;
    if (block && !ta_graph_init(&g, &lim, block, gb) && !ta_tflite_import(&m, &g, &d)) {
        for (uint32_t s = 0; s < g.n_subgraphs; s++)
            for (uint32_t o = 0; o < g.subgraphs[s].n_ops; o++) {
                const ta_op *op = ta_graph_op(&g, s, o);
                if (op->n_inputs < 2 || op->n_outputs < 1 || op->inputs[1] < 0 || op->outputs[0] < 0) continue;
                const ta_tensor *out = ta_graph_tensor(&g, s, op->outputs[0]);
                const ta_tensor *w = ta_graph_tensor(&g, s, op->inputs[1]);
                uint64_t n_out = 1;
                for (int32_t k = 0; k < out->rank; k++) n_out *= (uint64_t)out->shape[k];
                switch (op->kind) {
                case TA_OP_CONV_2D:
                    if (w->rank == 4) macs += n_out * (uint64_t)w->shape[1] * w->shape[2] * w->shape[3];
                    break;
                case TA_OP_DEPTHWISE_CONV_2D:
                    if (w->rank == 4) macs += n_out * (uint64_t)w->shape[1] * w->shape[2];
                    break;
                case TA_OP_FULLY_CONNECTED:
                    if (w->rank == 2) macs += n_out * (uint64_t)w->shape[1];
                    break;
                case TA_OP_BATCH_MATMUL: {
                    const ta_tensor *lhs = ta_graph_tensor(&g, s, op->inputs[0]);
                    if (lhs->rank >= 2) macs += n_out * (uint64_t)lhs->shape[lhs->rank - 1];
                    break;
                }
                case TA_OP_TRANSPOSE_CONV:
                    /* inputs: output shape, filter OHWI, input */
                    if (op->n_inputs >= 3 && op->inputs[2] >= 0 && w->rank == 4) {
                        const ta_tensor *in = ta_graph_tensor(&g, s, op->inputs[2]);
                        uint64_t n_in = 1;
                        for (int32_t k = 0; k < in->rank; k++) n_in *= (uint64_t)in->shape[k];
                        macs += n_in * (uint64_t)w->shape[0] * w->shape[1] * w->shape[2];
                    }
                    break;
                default: break;
                }
            }
    }
    free(block);
    return macs;
}

static const struct {
    const char *name;
    ta_kernel_impl impl;
    int x86_cap; /* x86-64: the widest build FAST may run (2 AVX2, 1 SSE4.1, 0 SSE2) */
} k_impls[] = {{"fast", TA_KERNEL_IMPL_FAST, 2},         {"sse4.1", TA_KERNEL_IMPL_FAST, 1},
               {"sse2", TA_KERNEL_IMPL_FAST, 0},         {"portable", TA_KERNEL_IMPL_PORTABLE, 2},
               {"reference", TA_KERNEL_IMPL_REFERENCE, 2}};

static void use_impl(size_t i) {
    ta_kernel_use_impl(k_impls[i].impl);
#ifdef TA__X86_DISPATCH
    ta__x86_cap(k_impls[i].x86_cap);
#endif
}

/* Opens and initialises a model, inputs a fixed pattern: the greedy plan
 * of TFLM's graph (pct < 0), or every rewrite, the optimal plan and patch
 * stages of at most pct% extra MACs (pct >= 0; 0: layer by layer). */
static ta_status open_model_patch(ta_runtime *rt, const unsigned char *model, size_t len, void **arena, int pct,
                                  ta_diag *d) {
    ta_runtime_options opt = ta_runtime_options_default();
    ta_runtime_use_strategy(&opt, pct < 0 ? "greedy" : "optimal");
    if (pct >= 0) {
        opt.rewrites = TA_REWRITE_ALL;
        opt.patch_overhead = (uint32_t)pct;
    }
    void *work = NULL;
    size_t wb = 0;
    ta_arena_breakdown b;
    ta_status st = ta_runtime_open(rt, model, len, &opt, d);
    if (!st) st = cli_runtime_query(rt, &work, &wb, &b, d);
    if (!st) st = ta_runtime_init(rt, work, wb, *arena = malloc(b.total), b.total, d);
    free(work);
    for (uint32_t k = 0; !st && k < ta_runtime_input_count(rt); k++) {
        const ta_io *io = ta_runtime_input(rt, k);
        for (size_t j = 0; j < io->bytes; j++) ((unsigned char *)io->data)[j] = (unsigned char)((j * 7u) & 0x3Fu);
    }
    return st;
}

static ta_status open_model(ta_runtime *rt, const unsigned char *model, size_t len, void **arena, ta_diag *d) {
    return open_model_patch(rt, model, len, arena, -1, d);
}

/* --invoke-once IMPL MODEL [PCT]: what the callgrind runs count. */
static int invoke_once(const char *impl, const char *path, int pct) {
    size_t len;
    unsigned char *model = read_file(path, &len);
    ta_runtime rt;
    ta_diag d;
    void *arena = NULL;
    int rc = 1;
    for (size_t i = 0; i < sizeof k_impls / sizeof k_impls[0]; i++)
        if (!strcmp(impl, k_impls[i].name)) use_impl(i), rc = 0;
    if (!rc && model && !open_model_patch(&rt, model, len, &arena, pct, &d) && !ta_runtime_invoke(&rt, &d)) rc = 0;
    else rc = 1;
    free(arena);
    free(model);
    return rc;
}

/* Instructions of one ta_runtime_invoke under callgrind, or 0 (pct: as
 * open_model_patch). */
static uint64_t callgrind_insns_patch(const char *self, const char *impl, const char *path, int pct) {
    char cmd[4096], line[512];
    snprintf(cmd, sizeof cmd,
             "valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=ta_runtime_invoke "
             "'%s' --invoke-once %s '%s' %d 2>&1",
             self, impl, path, pct);
    FILE *p = popen(cmd, "r");
    uint64_t n = 0;
    while (p && fgets(line, sizeof line, p)) {
        const char *c = strstr(line, "Collected : ");
        if (c) n = strtoull(c + 12, NULL, 10);
    }
    if (p && pclose(p) != 0) n = 0;
    return n;
}

static uint64_t callgrind_insns(const char *self, const char *impl, const char *path) {
    return callgrind_insns_patch(self, impl, path, -1);
}

/* --patch: per model, layer by layer against patch stages (every rewrite,
 * optimal plan, fast kernels): the planned arena, the whole arena, the
 * stages, their extra MACs, and the instructions of one invoke (callgrind)
 * and the median invoke time. */
static int patch_table(const char *data, int pct, const char *self) {
    static const char *const models[] = {"tflm/person_detect", "mlperf_tiny/vww_96_int8",
                                         "mlperf_tiny/ic_pretrainedResnet_quant", "openmv/blazeface_front_128",
                                         "openmv/yolov8n_192", "tflm/xtensa_mobilenet_v2_quantized_1x3x224x224"};
    const bool cg = system("valgrind --version > /dev/null 2>&1") == 0;
    printf("patch stages (--patch-overhead %d), every rewrite, optimal plan, fast kernels; instructions: %s\n", pct,
           cg ? "callgrind, ta_runtime_invoke only" : "valgrind not installed");
    printf("%-48s %9s %9s %9s %9s %6s %7s %13s %13s %7s %8s %8s\n", "model", "planned", "patched", "total", "patched",
           "stages", "MACs+%", "insns layer", "insns patch", "insns+%", "ms layer", "ms patch");
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/models/%s.tflite", data, models[m]);
        size_t len;
        unsigned char *model = read_file(path, &len);
        if (!model) continue;
        ta_arena_breakdown b[2];
        double ms[2] = {-1, -1};
        ta_patch_plan pp;
        memset(&pp, 0, sizeof pp);
        for (int k = 0; k < 2; k++) {
            ta_runtime rt;
            ta_diag d;
            void *arena = NULL;
            double t[5];
            ta_status st = open_model_patch(&rt, model, len, &arena, k ? pct : 0, &d);
            for (int r = 0; !st && r < 5; r++) {
                double t0 = now_ms();
                st = ta_runtime_invoke(&rt, &d);
                t[r] = now_ms() - t0;
            }
            if (!st) {
                qsort(t, 5, sizeof *t, cmp_d);
                ms[k] = t[2];
                b[k] = *ta_runtime_breakdown(&rt);
                if (k) pp = *ta_runtime_patch(&rt);
            } else {
                memset(&b[k], 0, sizeof b[k]);
            }
            free(arena);
        }
        const uint64_t i0 = cg ? callgrind_insns_patch(self, "fast", path, 0) : 0;
        const uint64_t i1 = cg && pp.n_stages ? callgrind_insns_patch(self, "fast", path, pct) : i0;
        printf("%-48s %9zu %9zu %9zu %9zu %6u %7.2f %13llu %13llu %7.2f %8.3f %8.3f\n", models[m], b[0].planned,
               b[1].planned, b[0].total, b[1].total, pp.n_stages,
               pp.macs ? 100.0 * (double)pp.extra_macs / (double)pp.macs : 0.0, (unsigned long long)i0,
               (unsigned long long)i1, i0 ? 100.0 * ((double)i1 - (double)i0) / (double)i0 : 0.0, ms[0], ms[1]);
        for (uint32_t i = 0; i < pp.n_stages; i++)
            printf("    stage %u: ops %d..%d, grid %dx1, extra MACs %llu\n", i, pp.stages[i].first_op,
                   pp.stages[i].last_op, pp.stages[i].bands, (unsigned long long)pp.stages[i].extra_macs);
        fflush(stdout);
        free(model);
    }
    return 0;
}

/* The kernels table: MACs, then per implementation instructions per invoke,
 * per MAC and the median invoke time. */
static void kernel_table(const char *data, int runs, const char *self) {
    const char *want = getenv("TA_BENCH_IMPLS");
    if (!want) want = "fast,sse4.1,sse2,portable";
    const bool cg = system("valgrind --version > /dev/null 2>&1") == 0;
    printf("\nkernels: instructions per invoke (%s), per MAC, median invoke ms (%d runs)\n", 
           cg ? "callgrind, ta_runtime_invoke only" : "valgrind not installed: no instruction counts", runs);
    printf("%-48s %12s", "model", "MACs");
    for (size_t i = 0; i < sizeof k_impls / sizeof k_impls[0]; i++)
        if (strstr(want, k_impls[i].name)) printf(" %13s %8s %9s", k_impls[i].name, "/MAC", "ms");
    printf("\n");
    for (size_t m = 0; m < sizeof k_models / sizeof k_models[0]; m++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/models/%s.tflite", data, k_models[m]);
        size_t len;
        unsigned char *model = read_file(path, &len);
        if (!model) continue;
        const uint64_t macs = count_macs(model, len);
        printf("%-48s %12llu", k_models[m], (unsigned long long)macs);
        for (size_t i = 0; i < sizeof k_impls / sizeof k_impls[0]; i++) {
            if (!strstr(want, k_impls[i].name)) continue;
            ta_runtime rt;
            ta_diag d;
            void *arena = NULL;
            double *t = calloc((size_t)runs, sizeof *t);
            use_impl(i);
            ta_status st = open_model(&rt, model, len, &arena, &d);
            for (int r = 0; !st && r < runs; r++) {
                ta_runtime_reset(&rt, &d);
                double t0 = now_ms();
                st = ta_runtime_invoke(&rt, &d);
                t[r] = now_ms() - t0;
            }
            qsort(t, (size_t)runs, sizeof *t, cmp_d);
            const uint64_t n = cg && !st ? callgrind_insns(self, k_impls[i].name, path) : 0;
            if (n)
                if (macs)
                    printf(" %13llu %8.2f", (unsigned long long)n, (double)n / (double)macs);
                else
                    printf(" %13llu %8s", (unsigned long long)n, "-");
            else
                printf(" %13s %8s", "-", "-");
            printf(" %9.4f", st ? -1.0 : t[runs / 2]);
            free(t);
            free(arena);
        }
        use_impl(0);
        printf("\n");
        fflush(stdout);
        free(model);
    }
}

int main(int argc, char **argv) {
    if ((argc == 4 || argc == 5) && !strcmp(argv[1], "--invoke-once"))
        return invoke_once(argv[2], argv[3], argc == 5 ? atoi(argv[4]) : -1);
    if (argc >= 2 && !strcmp(argv[1], "--patch")) {
        const char *pd = argc > 2 ? argv[2] : getenv("TINYARENA_DATA");
        return patch_table(pd ? pd : "../shared", argc > 3 ? atoi(argv[3]) : 10, argv[0]);
    }
    if (argc == 3 && !strcmp(argv[1], "--macs")) { /* for tests/cortex_m.sh */
        size_t len;
        unsigned char *model = read_file(argv[2], &len);
        const uint64_t macs = model ? count_macs(model, len) : 0;
        free(model);
        if (!model) return 1;
        printf("%llu\n", (unsigned long long)macs);
        return 0;
    }
    const char *data = argc > 1 ? argv[1] : getenv("TINYARENA_DATA");
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    const char *strategy = argc > 3 ? argv[3] : "greedy";
    if (!data) data = "../shared";
    if (runs < 1) runs = 1;
    static ta_arena_breakdown parts[sizeof k_models / sizeof k_models[0]];
    static ta_arena_breakdown with_blob[sizeof k_models / sizeof k_models[0]];
    static size_t tflm_pers[sizeof k_models / sizeof k_models[0]];
    static double t_blob[sizeof k_models / sizeof k_models[0]];
    printf("plan: %s; TFLM figures from models/reference/tflm_reference.tsv\n", strategy);
    printf("%-48s %10s %9s %8s %10s %10s %6s %10s %10s %7s\n", "model", "invoke ms", "planned", "scratch", "persistent",
           "TFLM pers.", "align", "total", "TFLM total", "ratio");
    for (size_t m = 0; m < sizeof k_models / sizeof k_models[0]; m++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/models/%s.tflite", data, k_models[m]);
        size_t len;
        unsigned char *model = read_file(path, &len);
        if (!model) {
            printf("%-48s (missing)\n", k_models[m]);
            continue;
        }
        ta_runtime_options opt = ta_runtime_options_default();
        if (ta_runtime_use_strategy(&opt, strategy)) {
            printf("unknown strategy %s\n", strategy);
            return 1;
        }
        ta_runtime rt;
        ta_diag d;
        ta_arena_breakdown b;
        size_t wb = 0;
        void *work = NULL, *arena = NULL;
        ta_status st = ta_runtime_open(&rt, model, len, &opt, &d);
        if (!st) st = cli_runtime_query(&rt, &work, &wb, &b, &d);
        if (!st) st = ta_runtime_init(&rt, work, wb, arena = malloc(b.total), b.total, &d);
        free(work);
        double *t = calloc((size_t)runs, sizeof *t);
        for (int r = 0; !st && r < runs; r++) {
            ta_runtime_reset(&rt, &d); /* stateful models: every run from the initial state */
            double t0 = now_ms();
            st = ta_runtime_invoke(&rt, &d);
            t[r] = now_ms() - t0;
        }
        if (st) {
            printf("%-48s error: %s\n", k_models[m], d.msg);
        } else {
            parts[m] = b;
            qsort(t, (size_t)runs, sizeof *t, cmp_d);
            size_t tp = tflm_col(data, k_models[m], 8), tt = tflm_col(data, k_models[m], 9);
            tflm_pers[m] = tp;
            /* the same model reading its exported op constants (outputs must not change) */
            size_t nb = 0;
            void *blob = NULL, *arena2 = NULL, *work2 = NULL;
            ta_runtime rt2;
            ta_arena_breakdown b2;
            ta_runtime_options o2 = opt;
            ta_status s2 = ta_runtime_export_consts(&rt, NULL, 0, &nb, &d);
            if (!s2 && !(s2 = (blob = aligned_alloc(16, (nb + 15) & ~(size_t)15)) ? TA_OK : TA_E_NO_MEMORY))
                s2 = ta_runtime_export_consts(&rt, blob, nb, &nb, &d);
            ta_runtime_use_consts(&o2, blob, nb);
            if (!s2) s2 = ta_runtime_open(&rt2, model, len, &o2, &d);
            size_t wb2 = b.work_bytes + nb + 64;
            if (!s2) s2 = ta_runtime_query(&rt2, work2 = malloc(wb2), wb2, &b2, &d);
            if (!s2) s2 = ta_runtime_init(&rt2, work2, wb2, arena2 = malloc(b2.total), b2.total, &d);
            /* one input pattern for both runtimes */
            for (uint32_t k = 0; !s2 && k < ta_runtime_input_count(&rt); k++) {
                const ta_io *i1 = ta_runtime_input(&rt, k), *i2 = ta_runtime_input(&rt2, k);
                for (size_t j = 0; j < i1->bytes; j++)
                    ((unsigned char *)i1->data)[j] = ((unsigned char *)i2->data)[j] = (unsigned char)((j * 7u) & 0x3Fu);
            }
            if (!s2) s2 = ta_runtime_reset(&rt, &d);
            if (!s2) s2 = ta_runtime_invoke(&rt, &d);
            double t0 = now_ms();
            if (!s2) s2 = ta_runtime_invoke(&rt2, &d);
            t_blob[m] = now_ms() - t0;
            for (uint32_t k = 0; !s2 && k < ta_runtime_output_count(&rt); k++)
                if (memcmp(ta_runtime_output(&rt2, k)->data, ta_runtime_output(&rt, k)->data, ta_runtime_output(&rt, k)->bytes))
                    s2 = TA_E_BAD_REQUEST, snprintf(d.msg, sizeof d.msg, "outputs differ with the const blob");
            if (s2) printf("%-48s const blob: %s\n", k_models[m], d.msg);
            else with_blob[m] = b2;
            free(blob);
            free(work2);
            free(arena2);
            printf("%-48s %10.4f %9zu %8zu %10zu %10zu %6zu %10zu %10zu %7.3f\n", k_models[m], t[runs / 2], b.planned,
                   b.scratch, b.persistent, tp, b.alignment, b.total, tt, tt ? (double)b.total / (double)tt : 0.0);
        }
        free(t);
        free(arena);
        free(model);
    }
    /* The persistent part by category, for the same runs, and with the op
     * constants in a const blob (flash; ta_runtime_use_consts). */
    printf("\npersistent part by category (bytes); 'blob': the op constants read from an exported const blob\n"
           "%-48s %8s %8s %8s %6s %6s %8s %10s %10s %10s %10s %10s %9s\n", "model", "tensors", "op recs", "tables", "io",
           "shared", "state", "persistent", "pers. blob", "blob flash", "TFLM pers.", "total blob", "invoke ms");
    for (size_t m = 0; m < sizeof k_models / sizeof k_models[0]; m++)
        if (parts[m].total)
            printf("%-48s %8zu %8zu %8zu %6zu %6zu %8zu %10zu %10zu %10zu %10zu %10zu %9.4f\n", k_models[m],
                   parts[m].tensor_table, parts[m].op_records, parts[m].op_tables, parts[m].io_table,
                   parts[m].shared_scratch, parts[m].variables, parts[m].persistent, with_blob[m].persistent, with_blob[m].const_bytes,
                   tflm_pers[m], with_blob[m].total, t_blob[m]);
    char self[1024];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    kernel_table(data, runs, n > 0 ? self : argv[0]);
    return 0;
}
