/*
 * tinyarena/tflite.h -- read a .tflite model in place and import it into the graph IR.
 *
 * The reader never copies and never allocates.  ta_tflite_open() verifies the
 * whole file once (every offset, count, string and alignment it will ever
 * read, with a work limit linear in the file size) and records counts; after
 * it returns TA_OK no later call can fail on bounds.  The graph that
 * ta_tflite_import() fills points into the model bytes (names, quantisation
 * scales and zero points, constant data, custom op options), so the bytes
 * must stay alive and unchanged as long as the graph is used.
 *
 * Two-phase use, like every tinyarena call that needs memory:
 *
 *     ta_tflite_model m;
 *     ta_diag d;
 *     if (ta_tflite_open(&m, bytes, len, &d)) { report(d.msg); }
 *     ta_graph_limits lim;
 *     ta_tflite_graph_limits(&m, &lim);
 *     size_t need = ta_graph_bytes(&lim);
 *     void *block = my_alloc(need);             // any memory the caller owns
 *     ta_graph g;
 *     ta_graph_init(&g, &lim, block, need);
 *     if (ta_tflite_import(&m, &g, &d)) { report(d.msg); }
 *
 * What the import produces: one graph subgraph per TFLite subgraph, in file
 * order; tensors in file order (local index = TFLite tensor index), flagged
 * CONST when their buffer holds data, VARIABLE when is_variable, DYNAMIC when
 * shape_signature has a -1, INPUT/OUTPUT from the subgraph's lists; ops in
 * file order, their kind mapped from the builtin operator code (builtins the
 * IR does not model become TA_OP_OTHER named after the builtin, or
 * "UNKNOWN_BUILTIN" for codes newer than the reader; custom ops become
 * TA_OP_CUSTOM named by their custom_code, with custom_data pointing at their
 * custom options), and their builtin options parsed into ta_op_options by the
 * options' union type (absent fields take the schema's defaults, e.g. softmax
 * beta 0.0 when a SoftmaxOptions table omits it; without an options table the
 * IR defaults of ta_op_options_default() stay).  op->builtin_code keeps
 * TFLite's effective operator code (max of the two code fields).
 * Two deliberate decisions on options: a CONV_2D or DEPTHWISE_CONV_2D
 * dilation below 1 is refused (TA_E_MALFORMED, "dilation_w 0, dilation_h 1
 * (both must be >= 1)"): the schema's default is 1, and 0 would make TFLM read one pixel
 * for every tap; an options table whose union type the reader has no
 * fields for, or does not know (newer schemas), is accepted and not read --
 * the op keeps the defaults, so a newer converter's op still plans, and
 * every option value a kernel uses is checked again by its prepare.
 *
 * Guarantees on what the graph points to: quantisation scales are 4-aligned
 * and zero points 8-aligned; for count > 1 the axis is a valid dimension whose
 * size is count (old TOCO rank-1 bias tensors that say axis 3 get axis 0);
 * constant data is exactly the tensor's byte size (fixed-size types) and is
 * aligned to min(element size, 4) -- 8-byte types may be only 4-aligned, so
 * read int64/float64 data with memcpy.  Names are NUL-terminated.
 *
 * Statuses: TA_E_MALFORMED (with a one-line diag naming the object and the
 * byte offset) for any file that breaks the FlatBuffers rules or the TFLite
 * schema; TA_E_UNSUPPORTED for valid files this build does not handle (schema
 * version other than 3, rank above TA_MAX_RANK, sparse tensors, a big-endian
 * host); TA_E_INVALID_ARG for NULL arguments or misaligned model bytes.
 */
#ifndef TINYARENA_TFLITE_H
#define TINYARENA_TFLITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinyarena/graph.h"
#include "tinyarena/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An opened model.  The caller owns the struct (stack, static, anywhere);
 * it holds only pointers into the model bytes and counts.  Treat the fields
 * as private: read them through the calls below. */
typedef struct ta_tflite_model {
    const uint8_t *bytes;
    size_t len;
    uint32_t version;
    uint32_t n_subgraphs, n_operator_codes, n_buffers, n_metadata;
    uint64_t n_tensors, n_ops, n_indices, n_dims; /* over all subgraphs */
    uint64_t n_words; /* 8-byte words of misaligned zero points to copy */
    uint64_t const_bytes;
    uint64_t work_limit, work_used;
    const char *description;
    const int32_t *offline; /* OfflineMemoryAllocation offsets, or NULL */
    uint32_t offline_count;
    bool open;
} ta_tflite_model;

/* Summary counts of an opened model. */
typedef struct ta_tflite_info {
    uint32_t version;        /* schema version (always 3 once opened) */
    uint32_t subgraphs;
    uint32_t tensors;        /* over all subgraphs */
    uint32_t ops;            /* over all subgraphs */
    uint32_t operator_codes;
    uint32_t buffers;        /* including the empty buffer 0 */
    uint32_t metadata;       /* metadata entries */
    uint64_t const_bytes;    /* bytes of constant data over all CONST tensors
                                (a buffer shared by two tensors counts twice) */
    bool has_offline_offsets;/* carries "OfflineMemoryAllocation" metadata */
    const char *description; /* never NULL ("" when absent) */
} ta_tflite_info;

/*
 * Verifies `len` bytes at `bytes` as a TFLite flatbuffer and fills *m.
 * `bytes` must be 8-byte aligned (16 recommended, as TFLM asks), so that the
 * float and int64 arrays the graph points to are aligned in memory; data
 * kept after the flatbuffer for large models (Buffer.offset/size) must be
 * inside [bytes, bytes + len).
 * Returns TA_OK; TA_E_INVALID_ARG (m or bytes NULL, bytes misaligned);
 * TA_E_MALFORMED / TA_E_UNSUPPORTED as in the overview, with d->msg set when
 * d is non-NULL.  Time is linear in len: the verifier stops with
 * TA_E_MALFORMED ("work limit") when the file's offsets alias so much that
 * it would do more than about 2 units of work per byte.
 */
ta_status ta_tflite_open(ta_tflite_model *m, const void *bytes, size_t len, ta_diag *d);

/* Capacities ta_graph_bytes() needs to import the model: exact counts of
 * subgraphs, tensors, ops, indices (op inputs+outputs+intermediates plus
 * subgraph inputs+outputs), dims (sum of ranks) and words (int64 zero points
 * the file stores misaligned, which the import copies into the graph).  TA_E_STATE when m is
 * not open; TA_E_OVERFLOW when a count does not fit a ta_graph. */
ta_status ta_tflite_graph_limits(const ta_tflite_model *m, ta_graph_limits *lim);

/*
 * Fills g, which must be freshly initialised (no subgraphs yet) with at
 * least the capacities of ta_tflite_graph_limits().  Finishes with
 * ta_graph_validate() (graph.h: a DAG per subgraph, one writer per tensor,
 * no read before the write, no op writing a constant or variable, control
 * flow naming its subgraphs explicitly and without recursion), so nothing
 * else ever sees an invalid graph.  g->name is the model description.
 * Returns TA_OK; TA_E_INVALID_ARG; TA_E_STATE (m not open, or g not empty);
 * TA_E_NO_MEMORY (g too small); TA_E_MALFORMED only from the validator
 * (a one-line diag starting "subgraph N"): a model that opened cannot fail
 * here on bytes or format.  On failure g holds a partial import.
 */
ta_status ta_tflite_import(const ta_tflite_model *m, ta_graph *g, ta_diag *d);

/* Summary of an open model.  TA_E_INVALID_ARG / TA_E_STATE. */
ta_status ta_tflite_get_info(const ta_tflite_model *m, ta_tflite_info *info);

/* The model description string ("" when absent or m not open).  Points into the bytes. */
const char *ta_tflite_description(const ta_tflite_model *m);

/* Tensor and op counts of subgraph `sg`.  TA_E_NOT_FOUND when sg is out of
 * range; TA_E_STATE when m is not open.  Either output may be NULL. */
ta_status ta_tflite_subgraph_size(const ta_tflite_model *m, uint32_t sg, uint32_t *n_tensors,
                                  uint32_t *n_ops);

/* Metadata entry i (0 <= i < info.metadata): its name ("" when absent) and
 * the bytes of the buffer it names (NULL/0 when that buffer is empty).  All
 * pointers point into the model bytes.  TA_E_NOT_FOUND when i is out of range. */
ta_status ta_tflite_metadata(const ta_tflite_model *m, uint32_t i, const char **name,
                             const void **data, size_t *bytes);

/* The last metadata entry called `name` (TFLM's rule when a name repeats).
 * TA_E_NOT_FOUND when there is none. */
ta_status ta_tflite_metadata_find(const ta_tflite_model *m, const char *name,
                                  const void **data, size_t *bytes);

/*
 * Offline-planned arena offsets from the "OfflineMemoryAllocation" metadata
 * (written by e.g. Arm Vela).  Its buffer holds int32 words: format version
 * (0), a subgraph word (documented by TFLM as a subgraph index, written by
 * Vela as the subgraph count, ignored by TFLM and by us), the count n, then
 * n byte offsets into the arena, -1 meaning "plan online".  As TFLM requires,
 * n equals the model's total tensor count: one offset per tensor of every
 * subgraph, subgraph by subgraph in tensor order.  ta_tflite_open checked
 * the version, that n words fit in the buffer, n, and that every entry is
 * >= -1.  This returns subgraph `subgraph`'s slice: *offsets (pointing into
 * the model bytes, 4-aligned) has *count = that subgraph's tensor count
 * entries, entry i for its tensor i.
 * TA_E_NOT_FOUND when the model has no such metadata or subgraph is out of
 * range.  (TFLM itself, for models with several subgraphs, reads every
 * subgraph's offsets from the start of the list; single-subgraph models,
 * the only ones seen in practice, read the same either way.)
 */
ta_status ta_tflite_offline_offsets(const ta_tflite_model *m, uint32_t subgraph,
                                    const int32_t **offsets, uint32_t *count);

/*
 * Writes into out[0..cap) a copy of the open model that carries an
 * "OfflineMemoryAllocation" metadata entry with `offsets` (n_offsets ==
 * the model's total tensor count; each >= -1, -1 meaning "TFLM plans it
 * online"), in the layout TFLM reads: int32 words 0 (format version), the
 * subgraph count, n, then the n offsets, 16-byte aligned in the file.  An
 * existing entry of that name is dropped (*replaced, optional, says so);
 * every other table, vector and buffer is kept byte for byte (the old file
 * follows a new prefix of a multiple of 16 bytes; large models' external
 * Buffer.offset values are moved with it), so tensors, ops and buffer
 * indices are unchanged.  *out_len always gets the output's length.
 * Returns TA_OK; TA_E_INVALID_ARG (NULL, wrong count, an offset < -1);
 * TA_E_STATE (m not open); TA_E_NO_MEMORY (out NULL or cap < *out_len:
 * call again with that much); TA_E_UNSUPPORTED (a Model field newer than
 * signature_defs); TA_E_OVERFLOW (output over 2 GiB).
 */
ta_status ta_tflite_write_offline(const ta_tflite_model *m, const int32_t *offsets, size_t n_offsets, void *out,
                                  size_t cap, size_t *out_len, bool *replaced, ta_diag *d);

#ifdef __cplusplus
}
#endif
#endif
