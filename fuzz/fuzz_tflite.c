/*
 * libFuzzer target for the TFLite reader: open, size, import, then touch
 * every pointer the graph hands out, so ASan proves they stay inside the
 * input.  Built by scripts/fuzz.sh.  (A fuzz target may malloc.)
 *
 * Invariants checked (abort() = a finding):
 *   - a failed open/import gives a known status and a non-empty diag;
 *   - a model that opened imports and validates;
 *   - accessors agree with the graph.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tinyarena/tflite.h"

static volatile unsigned sink;

static void touch(const void *p, size_t n) {
    if (!p || !n) return;
    const unsigned char *b = p;
    sink += b[0] + b[n - 1];
}

static void require(int cond) {
    if (!cond) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* An exact-size, malloc-aligned copy: reads past the end are caught. */
    unsigned char *bytes = malloc(size ? size : 1);
    if (!bytes) return 0;
    if (size) memcpy(bytes, data, size);

    ta_tflite_model m;
    ta_diag d;
    ta_status st = ta_tflite_open(&m, bytes, size, &d);
    if (st != TA_OK) {
        require(st == TA_E_MALFORMED || st == TA_E_UNSUPPORTED);
        require(d.msg[0] != '\0');
        free(bytes);
        return 0;
    }
    ta_graph_limits lim;
    require(ta_tflite_graph_limits(&m, &lim) == TA_OK);
    size_t need = ta_graph_bytes(&lim);
    require(need > 0);
    void *block = malloc(need);
    require(block != NULL);
    ta_graph g;
    require(ta_graph_init(&g, &lim, block, need) == TA_OK);
    st = ta_tflite_import(&m, &g, &d);
    require(st == TA_OK);
    require(ta_graph_validate(&g, &d) == TA_OK);
    require(g.n_tensors == lim.tensors && g.n_ops == lim.ops && g.n_subgraphs == lim.subgraphs);

    for (uint32_t i = 0; i < g.n_tensors; i++) {
        const ta_tensor *t = &g.tensors[i];
        touch(t->name, strlen(t->name) + 1);
        touch(t->data, t->data_bytes);
        if (t->quant.count) {
            /* Typed loads, so UBSan checks their alignment too. */
            float f = t->quant.scale[t->quant.count - 1];
            touch(&f, sizeof f);
            if (t->quant.zero_point) {
                int64_t z = t->quant.zero_point[t->quant.count - 1];
                touch(&z, sizeof z);
            }
            require(t->quant.axis >= 0 && (t->quant.count == 1 || t->quant.axis < t->rank));
        }
    }
    for (uint32_t k = 0; k < g.n_ops; k++) {
        const ta_op *op = &g.ops[k];
        if (op->custom_name) touch(op->custom_name, strlen(op->custom_name) + 1);
        touch(op->custom_data, op->custom_data_bytes);
        require(op->kind != TA_OP_CUSTOM || op->custom_name != NULL);
    }
    touch(g.name, strlen(g.name) + 1);

    ta_tflite_info info;
    require(ta_tflite_get_info(&m, &info) == TA_OK);
    for (uint32_t i = 0; i < info.metadata; i++) {
        const char *name;
        const void *md;
        size_t mb;
        require(ta_tflite_metadata(&m, i, &name, &md, &mb) == TA_OK);
        touch(name, strlen(name) + 1);
        touch(md, mb);
    }
    for (uint32_t s = 0; s < info.subgraphs; s++) {
        uint32_t nt = 0, no = 0;
        require(ta_tflite_subgraph_size(&m, s, &nt, &no) == TA_OK);
        require(nt == g.subgraphs[s].n_tensors && no == g.subgraphs[s].n_ops);
        const int32_t *off;
        uint32_t n;
        st = ta_tflite_offline_offsets(&m, s, &off, &n);
        require(st == TA_OK || st == TA_E_NOT_FOUND);
        if (st == TA_OK) {
            require(info.has_offline_offsets && n == nt);
            touch(off, n * sizeof *off);
        }
    }
    free(block);
    free(bytes);
    return 0;
}
