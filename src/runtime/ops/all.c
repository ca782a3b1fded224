/*
 * The op table: every op definition of the library, and the calls that use
 * all of them.  This is the only list of op kinds: a new op is one file
 * under src/runtime/ops/, one line here and its extern in
 * include/tinyarena/ops.h.
 *
 * Firmware that runs one model never references this file (its budget
 * header lists the model's ops, ta_runtime_options_for_ops): under
 * --gc-sections the definitions -- and the kernels -- no model op needs are
 * then not linked.
 */
#include "runtime/ops/op.h"

static const ta_op_def *const k_all[] = {
    &ta_op_ADD,
    &ta_op_SUB,
    &ta_op_MUL,
    &ta_op_DIV,
    &ta_op_AVERAGE_POOL_2D,
    &ta_op_MAX_POOL_2D,
    &ta_op_CONCATENATION,
    &ta_op_CONV_2D,
    &ta_op_DEPTHWISE_CONV_2D,
    &ta_op_TRANSPOSE_CONV,
    &ta_op_FULLY_CONNECTED,
    &ta_op_BATCH_MATMUL,
    &ta_op_DEQUANTIZE,
    &ta_op_QUANTIZE,
    &ta_op_RESHAPE,
    &ta_op_SQUEEZE,
    &ta_op_EXPAND_DIMS,
    &ta_op_SOFTMAX,
    &ta_op_LOGISTIC,
    &ta_op_SILU,
    &ta_op_TANH,
    &ta_op_LEAKY_RELU,
    &ta_op_HARD_SWISH,
    &ta_op_PAD,
    &ta_op_PADV2,
    &ta_op_TRANSPOSE,
    &ta_op_MEAN,
    &ta_op_STRIDED_SLICE,
    &ta_op_RESIZE_NEAREST_NEIGHBOR,
    &ta_op_CAST,
    &ta_op_MINIMUM,
    &ta_op_MAXIMUM,
    &ta_op_SVDF,
    &ta_op_LSTM,
    &ta_op_SignalWindow,
    &ta_op_SignalFftAutoScale,
    &ta_op_SignalRfft,
    &ta_op_SignalEnergy,
    &ta_op_SignalFilterBank,
    &ta_op_SignalFilterBankSquareRoot,
    &ta_op_SignalFilterBankSpectralSubtraction,
    &ta_op_SignalPCAN,
    &ta_op_SignalFilterBankLog,
    /* issue 18 part B: indexing, shape and reductions */
    &ta_op_SLICE,
    &ta_op_SPLIT,
    &ta_op_SPLIT_V,
    &ta_op_PACK,
    &ta_op_UNPACK,
    &ta_op_GATHER,
    &ta_op_GATHER_ND,
    &ta_op_EMBEDDING_LOOKUP,
    &ta_op_SHAPE,
    &ta_op_FILL,
    &ta_op_ZEROS_LIKE,
    &ta_op_BROADCAST_TO,
    &ta_op_SPACE_TO_DEPTH,
    &ta_op_DEPTH_TO_SPACE,
    &ta_op_SPACE_TO_BATCH_ND,
    &ta_op_BATCH_TO_SPACE_ND,
    &ta_op_MIRROR_PAD,
    &ta_op_RESIZE_BILINEAR,
    &ta_op_ARG_MAX,
    &ta_op_ARG_MIN,
    &ta_op_REDUCE_MAX,
    &ta_op_REDUCE_MIN,
    &ta_op_SUM,
    &ta_op_ADD_N,
    &ta_op_CUMSUM,
    &ta_op_RELU,
    &ta_op_RELU6,
    &ta_op_RELU_N1_TO_1,
    &ta_op_ELU,
    &ta_op_PRELU,
    &ta_op_ABS,
    &ta_op_NEG,
    &ta_op_EXP,
    &ta_op_LOG,
    &ta_op_SQRT,
    &ta_op_RSQRT,
    &ta_op_SQUARE,
    &ta_op_FLOOR,
    &ta_op_CEIL,
    &ta_op_ROUND,
    &ta_op_SIN,
    &ta_op_COS,
    &ta_op_SQUARED_DIFFERENCE,
    &ta_op_LOG_SOFTMAX,
    &ta_op_L2_NORMALIZATION,
    &ta_op_FLOOR_DIV,
    &ta_op_FLOOR_MOD,
    &ta_op_EQUAL,
    &ta_op_NOT_EQUAL,
    &ta_op_GREATER,
    &ta_op_GREATER_EQUAL,
    &ta_op_LESS,
    &ta_op_LESS_EQUAL,
    &ta_op_LOGICAL_AND,
    &ta_op_LOGICAL_OR,
    &ta_op_LOGICAL_NOT,
    &ta_op_SELECT_V2,
    /* issue 18: control flow and resource variables (runtime_subgraph.c) */
    &ta_op_IF,
    &ta_op_WHILE,
    &ta_op_CALL_ONCE,
    &ta_op_VAR_HANDLE,
    &ta_op_READ_VARIABLE,
    &ta_op_ASSIGN_VARIABLE,
};

const ta_op_list ta_op_list_all = {k_all, (uint32_t)TA__COUNT(k_all), true};

ta_status ta__op_prepare(const ta_graph *g, uint32_t sg, uint32_t op_index, void *data, size_t data_bytes,
                         ta__op_info *info, ta_diag *diag) {
    return ta__op_prepare_in(&ta_op_list_all, g, sg, op_index, data, data_bytes, info, diag);
}

ta_status ta__op_invoke(const void *rec, void *const *ptrs, void *scratch, ta_diag *diag) {
    return ta__op_invoke_in(&ta_op_list_all, rec, ptrs, scratch, NULL, diag);
}

ta_status ta__op_invoke_state(const void *rec, void *const *ptrs, void *scratch, void *state, ta_diag *diag) {
    return ta__op_invoke_in(&ta_op_list_all, rec, ptrs, scratch, state, diag);
}

ta_status ta__op_layout_check(ta_diag *diag) {
    for (uint32_t i = 0; i < ta_op_list_all.count; i++) {
        const ta_op_def *d = ta_op_list_all.defs[i];
        /* one definition per record kind, named as messages name the kind */
        for (uint32_t j = 0; j < i; j++)
            if (ta_op_list_all.defs[j]->kind == d->kind)
                return ta_diag_set(diag, TA_E_MALFORMED, "%s: record kind %u is also %s's", d->name, d->kind,
                                   ta_op_list_all.defs[j]->name);
        if (d->kind < TA__K_SIGNAL && strcmp(d->name, ta_op_kind_str((ta_op_kind)d->kind)) != 0)
            return ta_diag_set(diag, TA_E_MALFORMED, "%s: named other than its kind %s", d->name,
                               ta_op_kind_str((ta_op_kind)d->kind));
        if (!d->prepare || !d->invoke || !(d->flags & TA__OP_STATE) != !d->state_bytes)
            return ta_diag_set(diag, TA_E_MALFORMED, "%s: incomplete definition", d->name);
        ta_status st = ta__op_def_layout_check(d, diag);
        if (st) return st;
    }
    return TA_OK;
}
