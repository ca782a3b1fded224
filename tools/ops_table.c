/* The supported-ops table (ops_table.h).  Rows: the union of the library's
 * op definitions and TFLM's builtin ops, by name, sorted; the types column
 * comes from each definition (ta_op_def_types), so the table follows the
 * code. */
#include "ops_table.h"

#include <stdlib.h>
#include <string.h>

#include "tinyarena/ops.h"
#include "tinyarena/types.h"

/* The names TFLM's resolver registers (micro_mutable_op_resolver.h's Add*
 * calls), sorted.  A fact about TFLM, kept here to set our list beside it. */
static const char *const k_tflm[] = {"ABS",
                                     "ADD",
                                     "ADD_N",
                                     "ARG_MAX",
                                     "ARG_MIN",
                                     "ASSIGN_VARIABLE",
                                     "AVERAGE_POOL_2D",
                                     "BATCH_MATMUL",
                                     "BATCH_TO_SPACE_ND",
                                     "BROADCAST_ARGS",
                                     "BROADCAST_TO",
                                     "CALL_ONCE",
                                     "CAST",
                                     "CEIL",
                                     "CONCATENATION",
                                     "CONV_2D",
                                     "COS",
                                     "CUMSUM",
                                     "DEPTHWISE_CONV_2D",
                                     "DEPTH_TO_SPACE",
                                     "DEQUANTIZE",
                                     "DIV",
                                     "DYNAMIC_UPDATE_SLICE",
                                     "ELU",
                                     "EMBEDDING_LOOKUP",
                                     "EQUAL",
                                     "EXP",
                                     "EXPAND_DIMS",
                                     "FILL",
                                     "FLOOR",
                                     "FLOOR_DIV",
                                     "FLOOR_MOD",
                                     "FULLY_CONNECTED",
                                     "GATHER",
                                     "GATHER_ND",
                                     "GREATER",
                                     "GREATER_EQUAL",
                                     "HARD_SWISH",
                                     "IF",
                                     "L2_NORMALIZATION",
                                     "L2_POOL_2D",
                                     "LEAKY_RELU",
                                     "LESS",
                                     "LESS_EQUAL",
                                     "LOG",
                                     "LOGICAL_AND",
                                     "LOGICAL_NOT",
                                     "LOGICAL_OR",
                                     "LOGISTIC",
                                     "LOG_SOFTMAX",
                                     "MAXIMUM",
                                     "MAX_POOL_2D",
                                     "MEAN",
                                     "MINIMUM",
                                     "MIRROR_PAD",
                                     "MUL",
                                     "NEG",
                                     "NOT_EQUAL",
                                     "PACK",
                                     "PAD",
                                     "PADV2",
                                     "PRELU",
                                     "QUANTIZE",
                                     "READ_VARIABLE",
                                     "REDUCE_ALL",
                                     "REDUCE_MAX",
                                     "REDUCE_MIN",
                                     "RELU",
                                     "RELU6",
                                     "RESHAPE",
                                     "RESIZE_BILINEAR",
                                     "RESIZE_NEAREST_NEIGHBOR",
                                     "REVERSE_V2",
                                     "ROUND",
                                     "RSQRT",
                                     "SELECT_V2",
                                     "SHAPE",
                                     "SIN",
                                     "SLICE",
                                     "SOFTMAX",
                                     "SPACE_TO_BATCH_ND",
                                     "SPACE_TO_DEPTH",
                                     "SPLIT",
                                     "SPLIT_V",
                                     "SQRT",
                                     "SQUARE",
                                     "SQUARED_DIFFERENCE",
                                     "SQUEEZE",
                                     "STRIDED_SLICE",
                                     "SUB",
                                     "SUM",
                                     "SVDF",
                                     "TANH",
                                     "TRANSPOSE",
                                     "TRANSPOSE_CONV",
                                     "UNIDIRECTIONAL_SEQUENCE_LSTM",
                                     "UNPACK",
                                     "VAR_HANDLE",
                                     "WHILE",
                                     "ZEROS_LIKE"};

const char *const *ops_table_tflm_builtins(size_t *n) {
    *n = sizeof k_tflm / sizeof k_tflm[0];
    return k_tflm;
}

/* The name TFLM's list uses for a definition: the kind's, except the
 * sequence LSTM, which the IR calls LSTM. */
static const char *tflm_name(const ta_op_def *d) {
    const char *n = ta_op_def_name(d);
    return strcmp(n, "LSTM") == 0 ? "UNIDIRECTIONAL_SEQUENCE_LSTM" : n;
}

static int in_tflm(const char *name) {
    for (size_t i = 0; i < sizeof k_tflm / sizeof k_tflm[0]; i++)
        if (!strcmp(k_tflm[i], name)) return 1;
    return 0;
}

static const ta_op_def *def_named(const char *name) {
    for (uint32_t i = 0; i < ta_op_list_all.count; i++)
        if (!strcmp(tflm_name(ta_op_list_all.defs[i]), name)) return ta_op_list_all.defs[i];
    return NULL;
}

/* The types in a fixed order, commonest first. */
static void types_str(uint32_t t, char *out, size_t cap) {
    static const ta_dtype order[] = {TA_DTYPE_FLOAT32, TA_DTYPE_INT8,  TA_DTYPE_UINT8,   TA_DTYPE_INT16,
                                     TA_DTYPE_UINT16,  TA_DTYPE_INT32, TA_DTYPE_UINT32,  TA_DTYPE_INT64,
                                     TA_DTYPE_UINT64,  TA_DTYPE_BOOL,  TA_DTYPE_FLOAT16, TA_DTYPE_FLOAT64};
    out[0] = 0;
    if (t == 0xFFFFFFFFu) {
        snprintf(out, cap, "any");
        return;
    }
    size_t len = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (t & (1u << order[i]))
            len +=
                (size_t)snprintf(out + len, len < cap ? cap - len : 0, "%s%s", len ? ", " : "", ta_dtype_str(order[i]));
}

static int cmp_name(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

void ops_table_write(FILE *f, bool markdown) {
    /* the union of both lists, sorted, each name once */
    const size_t n_tflm = sizeof k_tflm / sizeof k_tflm[0];
    const char **names = malloc(sizeof *names * (n_tflm + ta_op_list_all.count));
    if (!names) return;
    size_t n = 0, ours = 0, both = 0, custom = 0;
    for (size_t i = 0; i < n_tflm; i++) names[n++] = k_tflm[i];
    for (uint32_t i = 0; i < ta_op_list_all.count; i++)
        if (!in_tflm(tflm_name(ta_op_list_all.defs[i]))) names[n++] = tflm_name(ta_op_list_all.defs[i]);
    qsort(names, n, sizeof *names, cmp_name);
    if (markdown) {
        fprintf(f, "| Op | tinyarena runs it on | in TFLM's op resolver |\n|---|---|---|\n");
    }
    for (size_t i = 0; i < n; i++) {
        const ta_op_def *d = def_named(names[i]);
        const int t = in_tflm(names[i]);
        char ty[160];
        types_str(ta_op_def_types(d), ty, sizeof ty);
        ours += d != NULL;
        both += d != NULL && t;
        custom += d != NULL && strncmp(names[i], "Signal", 6) == 0;
        if (markdown)
            fprintf(f, "| %s | %s | %s |\n", names[i], d ? ty : "not yet",
                    t                                     ? "yes"
                    : strncmp(names[i], "Signal", 6) == 0 ? "custom op (TFLM's signal library)"
                                                          : "no");
        else
            fprintf(f, "%-40s %-40s %s\n", names[i], d ? ty : "-", t ? "tflm" : "not-in-tflm-resolver");
    }
    fprintf(f,
            "%s%zu ops run here: %zu of the %zu builtins TFLM registers, %zu custom ops of TFLM's signal library, "
            "%zu builtin%s TFLM has no kernel for.\n",
            markdown ? "\n" : "# ", ours, both, n_tflm, custom, ours - both - custom,
            ours - both - custom == 1 ? "" : "s");
    free(names);
}
