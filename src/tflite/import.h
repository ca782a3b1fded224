/*
 * Internal: the TFLite walker's state and helpers shared by import.c (the
 * walk, operators, metadata, the public calls) and import_tensors.c
 * (mappings, buffers, operator codes, tensors).  See import.c for the walk.
 */
#ifndef TA_TFLITE_IMPORT_H
#define TA_TFLITE_IMPORT_H

#include <string.h>

#include "common/util.h"
#include "tflite/fb.h"
#include "tflite/schema_ids.h"
#include "tinyarena/tflite.h"

#define OFFLINE_METADATA_NAME "OfflineMemoryAllocation"

typedef enum {
    CTX_MODEL,
    CTX_OPCODE,
    CTX_BUFFER,
    CTX_SUBGRAPH,
    CTX_TENSOR,
    CTX_OP,
    CTX_METADATA
} ctx_kind;

/* Walker state. */
typedef struct rd {
    ta_fb fb;
    ta_graph *g; /* NULL while verifying and counting */
    ta_diag *d;
    ta_diag ctx_buf; /* holds the "tensor 3 of subgraph 0" prefix */
    ctx_kind ck;
    uint32_t ci, cs;
    uint32_t version;
    ta_fb_vec opcodes, subgraphs, buffers, metadata;
    const char *description;
    uint64_t n_tensors, n_ops, n_indices, n_dims, n_words, const_bytes;
    const int32_t *offline;
    uint32_t offline_count;
} rd;

/* ---- diagnostics ------------------------------------------------------ */

static inline const char *ctx(rd *r) {
    switch (r->ck) {
    case CTX_MODEL: return "model";
    case CTX_OPCODE: ta_diag_set(&r->ctx_buf, TA_OK, "operator code %u", r->ci); break;
    case CTX_BUFFER: ta_diag_set(&r->ctx_buf, TA_OK, "buffer %u", r->ci); break;
    case CTX_SUBGRAPH: ta_diag_set(&r->ctx_buf, TA_OK, "subgraph %u", r->ci); break;
    case CTX_TENSOR: ta_diag_set(&r->ctx_buf, TA_OK, "tensor %u of subgraph %u", r->ci, r->cs); break;
    case CTX_OP: ta_diag_set(&r->ctx_buf, TA_OK, "op %u of subgraph %u", r->ci, r->cs); break;
    case CTX_METADATA: ta_diag_set(&r->ctx_buf, TA_OK, "metadata %u", r->ci); break;
    }
    return r->ctx_buf.msg;
}

static inline void set_ctx(rd *r, ctx_kind k, uint32_t i, uint32_t s) {
    r->ck = k;
    r->ci = i;
    r->cs = s;
}

/* A FlatBuffers-level failure of the field `what` in the current object. */
static inline ta_status bad(rd *r, const char *what) {
    if (strcmp(r->fb.why, TA_FB_WORK_EXCEEDED) == 0)
        return ta_diag_set(r->d, TA_E_MALFORMED,
                           "%s: %s: work limit of %llu units exceeded (file %zu bytes; aliased "
                           "offsets?)",
                           ctx(r), what, (unsigned long long)r->fb.work_limit, r->fb.len);
    return ta_diag_set(r->d, TA_E_MALFORMED, "%s: %s: %s (offset %llu, file %zu bytes)", ctx(r),
                       what, r->fb.why, (unsigned long long)r->fb.at, r->fb.len);
}

#define FB(call, what)                          \
    do {                                        \
        if (!(call)) return bad(r, (what));     \
    } while (0)

#define TRY(call)                               \
    do {                                        \
        ta_status st_ = (call);                 \
        if (st_ != TA_OK) return st_;           \
    } while (0)

/* A failure of a graph call while importing (only capacity can fail). */
static inline ta_status graph_fail(rd *r, ta_status st, const char *what) {
    if (st == TA_E_NO_MEMORY)
        return ta_diag_set(r->d, st, "%s: graph capacity too small for the %s (size it with "
                                     "ta_tflite_graph_limits)", ctx(r), what);
    return ta_diag_set(r->d, st, "%s: adding the %s to the graph failed: %s", ctx(r), what,
                       ta_status_str(st));
}

static bool aligned(const void *p, size_t a) { return ((uintptr_t)p % a) == 0; }

typedef struct ta__tfl_opcode {
    int32_t code;            /* effective builtin code */
    int32_t version;
    const char *custom_code; /* NULL when absent */
} ta__tfl_opcode;

bool ta__tfl_map_type(int v, ta_dtype *out);
ta_op_kind ta__tfl_map_kind(int32_t code);
ta_status ta__tfl_buffer_data(rd *r, uint32_t idx, const uint8_t **data, size_t *bytes);
ta_status ta__tfl_walk_buffers(rd *r);
ta_status ta__tfl_read_opcode(rd *r, uint32_t i, ta__tfl_opcode *oc);
ta_status ta__tfl_walk_opcodes(rd *r);
ta_status ta__tfl_index_list(rd *r, const ta_fb_table *t, unsigned slot, const char *what,
                            int32_t lo, uint32_t n, ta_fb_vec *v);
ta_status ta__tfl_walk_tensor(rd *r, uint32_t sg, const ta_fb_vec *tensors, uint32_t i);

#endif
