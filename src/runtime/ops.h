/*
 * Internal: the op layer between the graph and the kernels.
 *
 * For one op of a ta_graph, ta__op_prepare validates the op (types, shapes,
 * options, constant operands), derives every quantisation constant once, and
 * writes a self-contained "op data" record: the kernel's params struct, the
 * op's tensor indices, and any per-channel tables.  ta__op_invoke then runs
 * the kernel from that record and a table of tensor data pointers alone --
 * the graph is not needed at invoke time, so a runtime may keep only the
 * pointer table and the op records (its persistent part).
 *
 * Two-phase memory, like every tinyarena call: prepare with data == NULL
 * reports the bytes (info->data_bytes) and the kernel's scratch need; call
 * again with a block of that size (8-byte aligned) to fill it.  The record
 * holds pointers into itself, so it must not be moved after the fill.
 */
#ifndef TA_RUNTIME_OPS_H
#define TA_RUNTIME_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "tinyarena/graph.h"
#include "tinyarena/status.h"

typedef struct ta__op_info {
    size_t data_bytes;    /* op record bytes (persistent) */
    size_t scratch_bytes; /* kernel scratch needed during invoke (0: none) */
    size_t table_bytes;   /* of data_bytes: out-of-line constant tables (per-channel
                             multipliers and shifts, concat sizes) */
} ta__op_info;

/* Validates op `op_index` of subgraph sg and fills its record.  Errors name
 * the op, its index and the offending type, e.g. "op 3 (CONV_2D): input type
 * int16 is not supported".  TA_E_UNSUPPORTED for ops/types without a kernel,
 * TA_E_MALFORMED for inconsistent shapes or missing constant operands,
 * TA_E_NO_MEMORY when data_bytes is below the size query. */
ta_status ta__op_prepare(const ta_graph *g, uint32_t sg, uint32_t op_index, void *data,
                         size_t data_bytes, ta__op_info *info, ta_diag *diag);

/* Gives a prepared op its scratch: at least info.scratch_bytes, 8-byte
 * aligned (leave unset when the op needs none). */
void ta__op_set_scratch(void *data, void *scratch);

/* Runs a prepared op.  ptrs[k] is the data of local tensor k of the
 * subgraph (constant tensors: their model data). */
ta_status ta__op_invoke(const void *data, void *const *ptrs, ta_diag *diag);

/* The op kind a prepared record runs (for messages). */
ta_op_kind ta__op_kind(const void *data);

#endif
