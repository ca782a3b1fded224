#define _POSIX_C_SOURCE 200809L
/*
 * libFuzzer target for the FlexBuffer reader (custom op options): verify,
 * then walk everything reachable -- every vector element, map key and value,
 * integer reads -- so ASan proves every access stays inside the input.
 * Built by scripts/fuzz.sh.  (A fuzz target may malloc.)
 *
 * Invariants (abort() = a finding): a failed verify gives a non-empty diag;
 * map keys are NUL-terminated inside the buffer; a map finds its own keys.
 *
 * Then the same bytes are the custom options of each signal op (TFLM's
 * audio front end, the only custom ops with kernels) in a small graph whose
 * operands pass the operand checks, so that prepare reads the fuzzed
 * options: ta__op_prepare must succeed or refuse with a one-line diag, and
 * a record it sized must fill without running past its size.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/ops.h"
#include "tflite/flexbuf.h"
#include "tinyarena/graph.h"

static volatile unsigned sink;

static void require(int cond) {
    if (!cond) abort();
}

static void walk(const ta_flex_ref *r, int depth, unsigned *budget) {
    if (depth > 64 || !*budget) return;
    (*budget)--;
    int64_t v;
    if (ta_flex_int(r, &v) == TA_OK) sink += (unsigned)v;
    size_t n = ta_flex_size(r);
    for (size_t i = 0; i < n && i < 4096 && *budget; i++) {
        ta_flex_ref e;
        if (ta_flex_index(r, i, &e) == TA_OK) walk(&e, depth + 1, budget);
        const char *key;
        if (r->type == TA_FLEX_MAP && ta_flex_key_at(r, i, &key) == TA_OK) {
            require((const uint8_t *)key >= r->buf && (const uint8_t *)key < r->buf + r->len);
            size_t k = strnlen(key, (size_t)(r->buf + r->len - (const uint8_t *)key));
            require((const uint8_t *)key + k < r->buf + r->len);
            ta_flex_ref found;
            require(ta_flex_map_find(r, key, &found) == TA_OK);
        }
    }
}

/* One op per signal kind, operands shaped as the audio preprocessor's
 * (a 32-sample frame, a 16-point FFT, 4 channels), options = the input. */
typedef struct {
    const char *name;
    int n_in, n_out;
    int32_t in[6], out[2];
} sig_op;

enum { T_S16_32, T_S16_16W, T_S16_18, T_U32_9, T_U64_4, T_S16_8, T_U32_4, T_U32_4B, T_S16_125, T_S16_4, T_S32_0,
       T_COUNT };

static void prepare_signal_ops(const uint8_t *opts, size_t size) {
    static const struct {
        ta_dtype t;
        int32_t rank, dim;
    } tens[T_COUNT] = {
        [T_S16_32] = {TA_DTYPE_INT16, 1, 32},  [T_S16_16W] = {TA_DTYPE_INT16, 1, 16}, [T_S16_18] = {TA_DTYPE_INT16, 1, 18},
        [T_U32_9] = {TA_DTYPE_UINT32, 1, 9},   [T_U64_4] = {TA_DTYPE_UINT64, 1, 4},   [T_S16_8] = {TA_DTYPE_INT16, 1, 8},
        [T_U32_4] = {TA_DTYPE_UINT32, 1, 4},   [T_U32_4B] = {TA_DTYPE_UINT32, 1, 4},  [T_S16_125] = {TA_DTYPE_INT16, 1, 125},
        [T_S16_4] = {TA_DTYPE_INT16, 1, 4},    [T_S32_0] = {TA_DTYPE_INT32, 0, 0},
    };
    static const sig_op ops[] = {
        {"SignalWindow", 2, 1, {T_S16_32, T_S16_16W}, {T_S16_32}},
        {"SignalRfft", 1, 1, {T_S16_16W}, {T_S16_18}},
        {"SignalEnergy", 1, 1, {T_S16_18}, {T_U32_9}},
        {"SignalFilterBank", 6, 1, {T_U32_9, T_S16_8, T_S16_8, T_S16_8, T_S16_8, T_S16_8}, {T_U64_4}},
        {"SignalFilterBankSpectralSubtraction", 1, 2, {T_U32_4}, {T_U32_4B, T_U32_4}},
        {"SignalPCAN", 3, 1, {T_U32_4, T_U32_4B, T_S16_125}, {T_U32_4}},
        {"SignalFilterBankLog", 1, 1, {T_U32_4}, {T_S16_4}},
    };
    const uint32_t n_ops = sizeof ops / sizeof ops[0];
    ta_graph_limits lim = {.subgraphs = 1, .tensors = T_COUNT, .ops = n_ops, .indices = 16 * n_ops, .dims = T_COUNT};
    size_t need = ta_graph_bytes(&lim);
    void *blk = malloc(need);
    ta_graph g;
    require(ta_graph_init(&g, &lim, blk, need) == TA_OK && ta_graph_add_subgraph(&g, "signal", NULL) == TA_OK);
    for (int i = 0; i < T_COUNT; i++) {
        ta_tensor_desc td = {.name = "t", .dtype = tens[i].t, .rank = tens[i].rank, .shape = &tens[i].dim};
        require(ta_graph_add_tensor(&g, &td, NULL) == TA_OK);
    }
    for (uint32_t k = 0; k < n_ops; k++) {
        ta_op_desc od = {.kind = TA_OP_CUSTOM, .custom_name = ops[k].name, .builtin_code = 32, .version = 1,
                         .inputs = ops[k].in, .n_inputs = (uint32_t)ops[k].n_in, .outputs = ops[k].out,
                         .n_outputs = (uint32_t)ops[k].n_out, .custom_data = size ? opts : NULL,
                         .custom_data_bytes = size};
        require(ta_graph_add_op(&g, &od, NULL) == TA_OK);
    }
    for (uint32_t k = 0; k < n_ops; k++) {
        ta__op_info info;
        ta_diag d;
        d.msg[0] = '\0';
        ta_status st = ta__op_prepare(&g, 0, k, NULL, 0, &info, &d);
        if (st) {
            require(d.msg[0] != '\0' && !strchr(d.msg, '\n') && st != TA_E_INVALID_ARG);
            continue;
        }
        require(info.data_bytes > 0 && info.data_bytes < ((size_t)1 << 26));
        /* an exact-size record: ASan catches a fill past the size query */
        void *rec = aligned_alloc(8, (info.data_bytes + 7) & ~(size_t)7);
        ta__op_info again;
        require(ta__op_prepare(&g, 0, k, rec, info.data_bytes, &again, &d) == TA_OK);
        require(again.data_bytes == info.data_bytes && again.scratch_bytes == info.scratch_bytes &&
                again.state_bytes == info.state_bytes);
        free(rec);
    }
    free(blk);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* an exact-size heap copy so reads past the end are caught */
    uint8_t *buf = malloc(size ? size : 1);
    if (size) memcpy(buf, data, size);
    ta_flex_ref root;
    ta_diag d;
    if (ta_flex_root(buf, size, &root, &d) == TA_OK) {
        unsigned budget = 100000;
        walk(&root, 0, &budget);
    } else {
        require(d.msg[0] != '\0');
    }
    prepare_signal_ops(buf, size);
    free(buf);
    return 0;
}
