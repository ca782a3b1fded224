#define _POSIX_C_SOURCE 200809L
/* bench_run: invoke time and arena breakdown per model (a strategy's plan,
 * planned scratch), with TFLM's persistent bytes for comparison; then the
 * persistent part by category, and with the op constants read from an
 * exported const blob (flash) instead of the arena.
 *   bench_run [DATA_DIR] [RUNS] [STRATEGY]   (DATA_DIR defaults to $TINYARENA_DATA,
 *                                            STRATEGY to greedy) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "tinyarena/runtime.h"

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

int main(int argc, char **argv) {
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
    return 0;
}
