/* Per-op bit-exactness against TFLM's dumped tensors.
 *
 * For every reference case that has per-tensor dumps (tensors/t<INDEX>.bin:
 * every non-constant tensor of subgraph 0 after TFLM's invoke), each op is
 * prepared and run in isolation on TFLM's own input tensors, and its output
 * is compared byte for byte with TFLM's.  This pins each kernel's arithmetic
 * independently of the ops before it.  Variable tensors (LSTM/SVDF state)
 * start from their reset value, as in TFLM's AllocateTensors, and the state
 * an op leaves behind is compared with TFLM's dump as well.  Every case runs
 * under each int8 kernel implementation (fast, portable, reference).  Run with an argument (model name
 * substring) to print every op's result. */
#include <stdlib.h>
#include <string.h>

#include "runtime/ops.h"
#include "testutil.h"
#include "runtime/kernels/kernels_fast.h"
#include "tinyarena/kernels.h"
#include "tinyarena/tflite.h"

static const struct {
    const char *model, *kase;
} k_cases[] = {
    {"tflm/person_detect", "person"},
    {"tflm/person_detect", "no_person"},
    {"tflm/xtensa_mobilenet_v2_quantized_1x3x224x224", "dog"},
    {"mlperf_tiny/ic_pretrainedResnet_quant", "image"},
    {"mlperf_tiny/kws_ref_model_int8", "image"},
    {"mlperf_tiny/vww_96_int8", "image"},
    {"openmv/blazeface_front_128", "image"},
    {"openmv/yolov8n_192", "image"},
    {"tflm/dtln_noise_suppression", "golden"},
};

static int g_verbose;

static void run_case(const char *data, const char *model, const char *kase) {
    char path[2048], dir[1024];
    snprintf(path, sizeof path, "%s/models/%s.tflite", data, model);
    char flat[256];
    snprintf(flat, sizeof flat, "%s", model);
    for (char *p = flat; *p; p++)
        if (*p == '/') *p = '\0', memmove(p + 2, p + 1, strlen(p + 1) + 1), p[0] = '_', p[1] = '_';
    snprintf(dir, sizeof dir, "%s/models/reference/cases/%s/%s", data, flat, kase);
    size_t len;
    unsigned char *bytes = ta_test_read_file(path, &len);
    if (!bytes) {
        printf("SKIP: %s: cannot read\n", path);
        return;
    }
    ta_tflite_model m;
    ta_diag d;
    CHECK(ta_tflite_open(&m, bytes, len, &d) == TA_OK);
    ta_graph_limits lim;
    ta_tflite_graph_limits(&m, &lim);
    size_t gb = ta_graph_bytes(&lim);
    void *gblock = malloc(gb);
    ta_graph g;
    CHECK(ta_graph_init(&g, &lim, gblock, gb) == TA_OK);
    if (ta_tflite_import(&m, &g, &d) != TA_OK) {
        CHECK(!"import");
        fprintf(stderr, "%s: %s\n", model, d.msg);
        free(gblock);
        free(bytes);
        return;
    }
    const ta_subgraph *sg = &g.subgraphs[0];
    void **ptrs = calloc(sg->n_tensors, sizeof *ptrs);
    unsigned char **golden = calloc(sg->n_tensors, sizeof *golden);
    size_t *glen = calloc(sg->n_tensors, sizeof *glen);
    for (uint32_t t = 0; t < sg->n_tensors; t++) {
        const ta_tensor *tt = ta_graph_tensor(&g, 0, (int32_t)t);
        if (tt->flags & TA_TENSOR_CONST) {
            ptrs[t] = (void *)tt->data;
            continue;
        }
        snprintf(path, sizeof path, "%s/tensors/t%u.bin", dir, t);
        golden[t] = ta_test_read_file(path, &glen[t]);
        ptrs[t] = calloc(1, tt->bytes + 16);
        if (tt->flags & TA_TENSOR_VARIABLE) {
            /* TFLM's reset value: int8 state at its zero point, others 0 */
            int fill = tt->dtype == TA_DTYPE_INT8 && tt->quant.count && tt->quant.zero_point ? (int)tt->quant.zero_point[0] : 0;
            memset(ptrs[t], fill, tt->bytes);
        } else if (golden[t] && glen[t] == tt->bytes) {
            memcpy(ptrs[t], golden[t], tt->bytes);
        }
    }
    int bad_ops = 0, checked = 0;
    for (uint32_t o = 0; o < sg->n_ops; o++) {
        const ta_op *op = ta_graph_op(&g, 0, o);
        ta__op_info info;
        ta_status st = ta__op_prepare(&g, 0, o, NULL, 0, &info, &d);
        if (st) {
            printf("  %s/%s op %u: prepare: %s\n", model, kase, o, d.msg);
            bad_ops++;
            continue;
        }
        void *od = malloc(info.data_bytes);
        void *scratch = info.scratch_bytes ? malloc(info.scratch_bytes) : NULL;
        CHECK(ta__op_prepare(&g, 0, o, od, info.data_bytes, &info, &d) == TA_OK);
        /* outputs into fresh buffers so stale golden bytes cannot hide a miss */
        for (uint32_t k = 0; k < op->n_outputs; k++) {
            const ta_tensor *tt = ta_graph_tensor(&g, 0, op->outputs[k]);
            memset(ptrs[op->outputs[k]], 0x5a, tt->bytes);
        }
        st = ta__op_invoke(od, ptrs, scratch, &d);
        if (st) {
            printf("  %s/%s op %u: invoke: %s\n", model, kase, o, d.msg);
            bad_ops++;
        } else {
            for (uint32_t k = 0; k < op->n_outputs + op->n_inputs; k++) {
                /* outputs, then any variable input (state the op updated) */
                int32_t ti = k < op->n_outputs ? op->outputs[k] : op->inputs[k - op->n_outputs];
                if (k >= op->n_outputs &&
                    (ti < 0 || !(ta_graph_tensor(&g, 0, ti)->flags & TA_TENSOR_VARIABLE)))
                    continue;
                const ta_tensor *tt = ta_graph_tensor(&g, 0, ti);
                if (!golden[ti] || glen[ti] != tt->bytes) continue;
                checked++;
                size_t diff = 0, first = 0;
                int maxd = 0;
                for (size_t b = 0; b < tt->bytes; b++)
                    if (((unsigned char *)ptrs[ti])[b] != golden[ti][b]) {
                        if (!diff) first = b;
                        diff++;
                        if (tt->dtype == TA_DTYPE_INT8) {
                            int dd = abs((int)((int8_t *)ptrs[ti])[b] - (int)(int8_t)golden[ti][b]);
                            maxd = dd > maxd ? dd : maxd;
                        }
                    }
                if (diff) {
                    bad_ops++;
                    printf("  %s/%s op %u (%s) tensor %d %s: %zu of %zu bytes differ (first at %zu, max int8 diff %d)\n",
                           model, kase, o, ta_op_kind_str(op->kind), ti, ta_dtype_str(tt->dtype), diff, tt->bytes,
                           first, maxd);
                } else if (g_verbose) {
                    printf("  %s/%s op %u (%s): ok\n", model, kase, o, ta_op_kind_str(op->kind));
                }
                /* feed TFLM's bytes forward regardless */
                memcpy(ptrs[ti], golden[ti], tt->bytes);
            }
        }
        free(od);
        free(scratch);
    }
    printf("%s/%s: %u ops, %d outputs compared, %d ops differ or fail\n", model, kase, sg->n_ops, checked, bad_ops);
    CHECK(bad_ops == 0);
    CHECK(checked > 0);
    for (uint32_t t = 0; t < sg->n_tensors; t++) {
        if (!(ta_graph_tensor(&g, 0, (int32_t)t)->flags & TA_TENSOR_CONST)) free(ptrs[t]);
        free(golden[t]);
    }
    free(ptrs);
    free(golden);
    free(glen);
    free(gblock);
    free(bytes);
}

int main(int argc, char **argv) {
    const char *data = ta_test_data_dir("per-op golden tensors");
    if (!data) return ta_test_finish("test_golden");
    const char *only = argc > 1 ? argv[1] : NULL;
    g_verbose = only != NULL;
    /* every int8 kernel implementation (kernels.h): the fast kernels (on
     * x86-64 with AVX2 when the CPU has it), their portable build, and the
     * reference loops */
    static const struct {
        ta_kernel_impl impl;
        int x86_cap; /* x86-64: the widest build FAST may run (2 AVX2, 1 SSE4.1, 0 SSE2) */
        const char *name;
    } k_impls[] = {{TA_KERNEL_IMPL_FAST, 2, "fast"},
                   {TA_KERNEL_IMPL_FAST, 1, "fast, at most SSE4.1"},
                   {TA_KERNEL_IMPL_FAST, 0, "fast, SSE2"},
                   {TA_KERNEL_IMPL_PORTABLE, 2, "portable"},
                   {TA_KERNEL_IMPL_REFERENCE, 2, "reference"}};
    for (size_t k = 0; k < sizeof k_impls / sizeof k_impls[0]; k++) {
        printf("kernels: %s\n", k_impls[k].name);
        CHECK(ta_kernel_use_impl(k_impls[k].impl) == TA_OK);
#ifdef TA__X86_DISPATCH
        ta__x86_cap(k_impls[k].x86_cap);
#else
        (void)k_impls[k].x86_cap;
#endif
        for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) {
            if (only && !strstr(k_cases[i].model, only)) continue;
            run_case(data, k_cases[i].model, k_cases[i].kase);
        }
    }
    CHECK(ta_kernel_use_impl(TA_KERNEL_IMPL_FAST) == TA_OK);
#ifdef TA__X86_DISPATCH
    ta__x86_cap(2);
#endif
    return ta_test_finish("test_golden");
}
