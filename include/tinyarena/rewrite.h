/*
 * tinyarena/rewrite.h -- going below the lower bound: rewrites that change
 * what must be live, never an output bit.
 *
 * The lower bound (plan.h) is what any planner must pay for a given graph
 * under TFLM's lifetime rules (lifetime.h).  These rewrites change the graph
 * or the buffers so that fewer bytes are live at once.  They are opt-in: with
 * flags 0 nothing here runs and everything is TFLM's, byte for byte.
 *
 *   TA_REWRITE_ALIAS    a RESHAPE / SQUEEZE / EXPAND_DIMS output shares its
 *                       input's buffer (the op's copy becomes a no-op);
 *   TA_REWRITE_INPLACE  an elementwise op writes its output over an input
 *                       whose bytes die at that op;
 *   TA_REWRITE_FUSEPAD  a PAD (or PADV2) feeding a VALID conv disappears: the
 *                       conv reads the unpadded tensor with explicit padding;
 *   TA_REWRITE_ORDER    the ops run in a memory-aware topological order;
 *   TA_REWRITE_OVERLAP  a CONV_2D / AVERAGE_POOL_2D / MAX_POOL_2D writes its
 *                       output over the part of its dying input its walk
 *                       has consumed (an overlap relation, plan.h; the
 *                       walk is walk.h's ROWS), a STRIDED_SLICE with
 *                       positive strides over its input from up to its
 *                       first element's offset (walk.h's forward gather),
 *                       a PAD / PADV2 over its input walking backward
 *                       (walk.h's ta_walk_pad_backward);
 *   TA_REWRITE_DWINPLACE  a depthwise convolution writes its output over its
 *                       input, channel by channel through a one-channel
 *                       kernel scratch (TinyEngine's in-place depthwise);
 *   TA_REWRITE_CONCAT   the producers of a CONCATENATION's inputs write
 *                       straight into their slices of its output, and the
 *                       copy of those inputs disappears;
 *   TA_REWRITE_SLICE    a STRIDED_SLICE whose output is one contiguous byte
 *                       range of its input becomes a view of it (no copy);
 *                       and a CONCATENATION whose consecutive inputs are
 *                       stride-1 slices tiling one tensor along its axis
 *                       reads that tensor instead (pass 1: a slice nothing
 *                       else reads disappears, its output ELIDED);
 *   TA_REWRITE_SILU     a LOGISTIC whose output only a MUL(x, sigmoid(x))
 *                       reads fuses with it into one SILU op (the sigmoid
 *                       tensor disappears), which may run in place over x;
 *   TA_REWRITE_INPUTS   the policy for graph inputs: with it, the op that
 *                       reads a graph input last may write its output over
 *                       it (INPLACE, DWINPLACE, OVERLAP), as TinyEngine and
 *                       most MCU runtimes do; without it no rewrite writes
 *                       into a graph input's bytes.  Either way the input's
 *                       pointer stays valid and the caller fills the input
 *                       before every invoke: under TFLM's rules too, a
 *                       later tensor may reuse an input's bytes after its
 *                       last reader, so no input survives an invoke in
 *                       general.
 *   TA_REWRITE_GATHER   an int8 or int16 TRANSPOSE_CONV runs output-
 *                       stationary: each output element sums the inputs
 *                       that reach it in a register, so the op needs no
 *                       accumulator scratch (TFLM's scatter kernel needs
 *                       one int32 / int64 per output element).
 *
 * Two passes, so that planners, emitters and the runtime all see the same
 * result and the runtime can redo it from the model bytes alone:
 *
 *  1. ta_rewrite_graph (FUSEPAD, SILU, ORDER, DWINPLACE's and GATHER's marks) builds a new graph with the same
 *     tensors -- same indices, names, shapes -- and fewer or reordered ops.
 *     A folded PAD's output is flagged TA_TENSOR_ELIDED (never planned) and
 *     its conv gets padding TA_PAD_EXPLICIT with the PAD's amounts.  Op
 *     indices (and so steps) are those of the new graph.
 *  2. ta_rewrite_buffers (ALIAS, INPLACE, DWINPLACE) walks that graph in execution
 *     order with its lifetimes and groups tensors into shared buffers:
 *     buffer_of[t] names the tensor whose buffer t lives in.  Passed to
 *     ta_lifetime_requests (ta_lifetime_options.buffer_of), a group becomes
 *     one request: lifetime the union, size the largest member.
 *
 *     ta_graph g2;  void *m = malloc(ta_rewrite_graph_bytes(g, flags));
 *     ta_op_kind_set ip;  ta_op_list_inplace_kinds(&ta_op_list_all, &ip);   // ops.h
 *     ta_rewrite_graph(g, flags, &ip, m, ta_rewrite_graph_bytes(g, flags), &g2, &stats, &diag);
 *     ... ta_lifetime_analyze(&g2, ...) -> lt ...
 *     int32_t *buffer_of = malloc(g2.n_tensors * sizeof *buffer_of);
 *     void *s = malloc(ta_rewrite_buffers_bytes(&g2));
 *     ta_rewrite_buffers(&g2, &lt, flags, &ip, s, ta_rewrite_buffers_bytes(&g2), buffer_of, &stats, &diag);
 *     ta_lifetime_options lo = {.buffer_of = buffer_of, .n_buffer_of = g2.n_tensors};
 *     ta_lifetime_requests(&g2, &lt, &lo, ...);
 *
 * When each rewrite applies (everything else is left as it is; only
 * subgraph 0's ops are rewritten, and a subgraph 0 with control flow is not
 * reordered):
 *
 * ALIAS  op RESHAPE/SQUEEZE/EXPAND_DIMS, data input A and output B both
 *   planned, same dtype, same bytes, B written by this op only.  A may be a
 *   graph input and B a graph output.  Nothing ever writes into a shared
 *   buffer except the op creating its first tensor and INPLACE ops, whose
 *   rule below protects every member.
 * INPLACE  an op of a kind in the `inplace` set (the runtime's op table:
 *   ADD/SUB/MUL, LOGISTIC, TANH, QUANTIZE, DEQUANTIZE, SOFTMAX) with one input, or
 *   two inputs both exactly the output's shape (no broadcasting); output Y and input X planned, equal element count and equal
 *   element size (so int8->int8 requantisation qualifies, float->int8 does
 *   not), Y written by this op only; and no tensor sharing X's buffer is
 *   needed after this op -- none is read later and none is a graph output
 *   (outputs are needed after the last op).  The first input that qualifies
 *   is taken.  Kernels of these kinds read element i before writing element
 *   i and so may run with output == input (kernels.h; a test runs each).
 *   X may be a graph input only with INPUTS (its bytes are overwritten by
 *   its last reader, as TFLM's rules already let any later buffer reuse
 *   them after it).
 * FUSEPAD  op PAD, or PADV2 whose pad value is the pad value PAD would use
 *   (int8: the output's zero point; float32: +0.0 or -0.0); 4-D, padding
 *   only height and width; input X not constant or variable; int8 with
 *   per-tensor quantisation identical on X and the PAD output Y; Y neither
 *   a graph input nor output and read by exactly one op, a CONV_2D or
 *   DEPTHWISE_CONV_2D with VALID padding, as its data input (input 0); for
 *   float32, every filter weight finite.  Bit-exactness: the conv kernels
 *   skip taps outside the input.  int8: a padded tap would add
 *   filter * (zero point + input_offset) = filter * 0 = 0 to an int32
 *   accumulator, so skipping it changes nothing.  float32: a padded tap adds
 *   0 * w = +-0 (w finite); the running sum starts at +0.0 and round-to-
 *   nearest never produces -0.0 from it (x + -x is +0.0), and s + +-0 == s
 *   for every s that is not -0.0, so skipping it changes nothing either.
 *
 * DWINPLACE  op DEPTHWISE_CONV_2D (after FUSEPAD: reading the PAD's input),
 *   depth multiplier 1 (input, filter and output channels equal), 4-D,
 *   same batch, out_h * out_w <= in_h * in_w, int8 or float32 input and
 *   output of one dtype; data input X planned, not constant or variable,
 *   not a graph output, read by this op only (and, with ALIAS, not the
 *   output of a RESHAPE-like op, whose input could be read later); output
 *   Y planned and written by this op only.  Pass 1 marks the op
 *   (ta_op_options.in_place): its prepare then asks for out_h * out_w
 *   elements of kernel scratch and records the in-place path.  Pass 2
 *   puts Y in X's buffer when X's buffer is needed until exactly this op
 *   (the INPLACE rule), so the planner sees the output as a view of the
 *   input's buffer plus the op's scratch: with views
 *   (ta_rewrite_buffers_at) at the input's end (offset X's bytes - Y's
 *   bytes past X's own, the kernels' _end form) when that difference is a
 *   multiple of 16, so the front the op frees can take the next op's
 *   output under an overlap relation (pass 3); otherwise at X's offset (the
 *   first out_n*out_h*out_w*C elements).  The runtime picks the kernel
 *   from the two pointers.  Pass 1 keeps a mark only where it lowers the
 *   peak of a live-bytes profile of the final order that follows the
 *   ALIAS/INPLACE groups, the marks' scratch and Y's place, and, with
 *   OVERLAP, counts each pair pass 3 will relate (CONV_2D and pools of the
 *   walk geometry, a fused PAD's explicit padding included) as its union.
 *   A marked op whose
 *   output pass 2 left apart runs the normal kernel (its scratch unused).
 *   The kernel (kernels.h, depthwise_conv2d_inplace.c) computes channel c
 *   into the scratch, then writes it to channel c's slots, which every
 *   later channel leaves alone: each output element is the out-of-place
 *   kernel's arithmetic, so outputs stay byte-identical.  With INPUTS X may be a graph
 *   input, as for INPLACE: TFLM's own rules already let a later tensor
 *   reuse an input's bytes after its last use, so a TFLM user cannot read
 *   an input back after invoke either; refill inputs before every invoke.
 *   The whole input buffer stays reserved until Y dies (a stride-2 op's
 *   footprint does not shrink in the plan).
 *
 * CONCAT  op CONCATENATION whose output Y has every dim before the axis 1,
 *   so that input i's slice is one contiguous byte range of Y, at the sum of
 *   the bytes of the inputs before it.  Input X joins when: planned, Y's
 *   dtype (int8: the same scale and zero point, as prepare requires; the
 *   copy is then bit for bit the identity), not a graph input or output,
 *   constant or variable, written by one op before the concatenation, named
 *   once among the op's inputs, its slice at a multiple of 16 bytes (the
 *   arena's alignment: kernels may read their operands with word loads), and
 *   X's buffer is X's own extent (X at offset 0 of its group, every member
 *   inside X's bytes: a larger depthwise input written in place would spill
 *   into the neighbouring slices).  X's whole group then moves into Y's
 *   buffer at the slice's offset (ta_rewrite_buffers_at's buffer_at), so a
 *   view is "a group's buffer + a byte offset"; the planner sees one buffer
 *   whose lifetime is the union of Y's and every joined input's, the
 *   validator and poison mode check that buffer as a whole (a write into a
 *   slice re-checksums it), and the kernel skips an input already at its
 *   slice.  Other inputs are copied as before.  X may have other readers:
 *   nothing writes into a group while a member is still needed (the INPLACE
 *   rule).  A concatenation's output may itself join a later one (nested
 *   slices compose).  Only ta_rewrite_buffers_at applies CONCAT.
 * SLICE  op STRIDED_SLICE with constant begin, end and strides, every stride
 *   1, no ellipsis or new-axis mask and no `offset`, resolved as the kernel
 *   does (negative indices from the end, clamped; begin/end/shrink masks),
 *   whose output is one contiguous range of the input: every axis before the
 *   first one that keeps more than one index keeps one, every axis after it
 *   is whole.  Output Y (Y's dtype, bytes the slice's) joins input X's
 *   buffer at X's offset + the range's start, when that start is a multiple
 *   of 16 bytes, and not when X is a graph input and Y a graph output (the
 *   caller refills an input while it may still read an output).  The
 *   kernel finds Y at that address and copies nothing.  Nothing writes X's
 *   buffer while Y is needed (the INPLACE rule sees Y as a member).  Only
 *   ta_rewrite_buffers_at applies SLICE.
 * SILU  op LOGISTIC with input X and output S, and op MUL reading X and S
 *   (either order) with output Y: S planned, not a graph input or output,
 *   written by the LOGISTIC only and read by that MUL only (once); X, S and
 *   Y of one shape (no broadcasting) and one dtype, int8 or float32.  Pass 1
 *   drops the LOGISTIC and turns the MUL into a TA_OP_SILU op: input 0 X,
 *   output Y, the MUL's options, S as its intermediate 0 (flagged
 *   TA_TENSOR_ELIDED: never planned, only its quantisation is read).  Its
 *   kernel runs, per block of elements, the LOGISTIC kernel into a small
 *   stack block and the MUL kernel on (X, block) -- the same per-element
 *   arithmetic with S's quantisation, so every output byte is the unfused
 *   pair's.  It reads element i before writing it: INPLACE may put Y over X.
 *
 * GATHER  op TRANSPOSE_CONV of subgraph 0 whose data input (input 2) is
 *   int8 or int16.  Pass 1 marks it (ta_op_options.gather): its prepare
 *   then records the output-stationary kernel and asks for no scratch, so
 *   a const blob and init table carry it to firmware with no rewrite code
 *   linked.  Each output element is the sum of the same products as TFLM's
 *   scatter, added in another order: int8 sums wrap modulo 2^32 and int16
 *   sums are int64 that prepare proves cannot overflow, so the sum, and
 *   after the same bias, requantisation and clamp the output byte, are the
 *   same.  float32 (its sums depend on the order; no scratch) is not marked.
 *   Changes no buffer: only the op's scratch request disappears.
 *
 * Nothing here allocates; both passes take caller memory sized by the
 * matching _bytes call.
 */
#ifndef TINYARENA_REWRITE_H
#define TINYARENA_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinyarena/graph.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/plan.h"
#include "tinyarena/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TA_REWRITE_ALIAS 1u
#define TA_REWRITE_INPLACE 2u
#define TA_REWRITE_FUSEPAD 4u
#define TA_REWRITE_ORDER 8u
#define TA_REWRITE_OVERLAP 16u
#define TA_REWRITE_DWINPLACE 32u
#define TA_REWRITE_CONCAT 64u
#define TA_REWRITE_SLICE 128u
#define TA_REWRITE_SILU 256u
#define TA_REWRITE_INPUTS 512u
#define TA_REWRITE_GATHER 1024u
#define TA_REWRITE_ALL 2047u
/* The flags ta_rewrite_graph (pass 1) acts on: without any of them the
 * model's graph runs as it is. */
#define TA_REWRITE_GRAPH_FLAGS                                                                       \
    (TA_REWRITE_FUSEPAD | TA_REWRITE_ORDER | TA_REWRITE_DWINPLACE | TA_REWRITE_SILU | TA_REWRITE_GATHER)

/* A set of op kinds, one bit per ta_op_kind. */
typedef struct ta_op_kind_set {
    uint32_t bits[(TA_OP_KIND_COUNT + 31) / 32];
} ta_op_kind_set;

static inline bool ta_op_kind_set_has(const ta_op_kind_set *s, ta_op_kind k) {
    return s && (unsigned)k < TA_OP_KIND_COUNT && ((s->bits[(unsigned)k / 32] >> ((unsigned)k % 32)) & 1u);
}
static inline void ta_op_kind_set_add(ta_op_kind_set *s, ta_op_kind k) {
    if ((unsigned)k < TA_OP_KIND_COUNT) s->bits[(unsigned)k / 32] |= 1u << ((unsigned)k % 32);
}

/* What the rewrites did (each pass adds its own counts). */
typedef struct ta_rewrite_stats {
    uint32_t aliased;    /* RESHAPE-like outputs sharing their input's buffer */
    uint32_t in_place;   /* elementwise outputs written over a dying input */
    uint32_t fused_pads; /* PAD ops folded into the conv they fed */
    uint32_t reordered;  /* ops that run at another position than in the model */
    uint32_t overlapped; /* overlap relations declared (pass 3) */
    uint32_t dw_in_place; /* depthwise convs whose output took their input's buffer (DWINPLACE) */
    uint32_t concat_in_place; /* CONCATENATION inputs written straight into their slice (CONCAT) */
    uint32_t slice_views;     /* STRIDED_SLICE outputs that are a view of their input (SLICE) */
    uint32_t slices_rejoined; /* CONCATENATIONs reading a tensor in place of slices tiling it (SLICE) */
    uint32_t silu_fused;      /* LOGISTIC -> MUL pairs fused into one SILU op (SILU, pass 1) */
    uint32_t gathered;        /* TRANSPOSE_CONVs marked to run output-stationary (GATHER, pass 1) */
} ta_rewrite_stats;

/* Parses a comma-separated list of "alias", "inplace", "fusepad", "order",
 * "overlap", "dwinplace", "concat", "slice", "silu", "inputs", "gather", "all" or "none" (e.g. "alias,inplace").  TA_E_INVALID_ARG names the first
 * unknown word in diag. */
ta_status ta_rewrite_parse(const char *list, uint32_t *flags, ta_diag *diag);

/* The flags as the same list ("alias,inplace,fusepad"; "none" for 0) in
 * buf (NUL-terminated, truncated to len); returns buf. */
const char *ta_rewrite_names(uint32_t flags, char *buf, size_t len);

/* Bytes of the block ta_rewrite_graph needs (the new graph and its work). */
size_t ta_rewrite_graph_bytes(const ta_graph *g, uint32_t flags);

/*
 * Pass 1: FUSEPAD, SILU, ORDER, DWINPLACE's and GATHER's marks (other flags are ignored here).  Builds *out in
 * mem: every subgraph, every tensor (same indices; folded PAD outputs and
 * fused sigmoids get TA_TENSOR_ELIDED), subgraph 0's ops without the folded
 * PADs and fused LOGISTICs (a fused MUL becomes TA_OP_SILU) and, with
 * ORDER, in the order that keeps the fewest bytes live (costing INPLACE
 * with the kinds in `inplace`, as pass 2 will).  stats (optional)
 * gets fused_pads, silu_fused, reordered and gathered.  Deterministic.  TA_E_NO_MEMORY when bytes
 * is below ta_rewrite_graph_bytes; TA_E_INVALID_ARG for unknown flags;
 * TA_E_MALFORMED for a graph ta_graph_validate refuses.
 */
ta_status ta_rewrite_graph(const ta_graph *g, uint32_t flags, const ta_op_kind_set *inplace, void *mem, size_t bytes,
                           ta_graph *out, ta_rewrite_stats *stats, ta_diag *diag);

/* The new graph ta_rewrite_graph builds lives in the first this-many bytes
 * of its block; the rest is work for the call (ORDER's search) and may be
 * reused as soon as it returns. */
size_t ta_rewrite_graph_keep_bytes(const ta_graph *g);

/* Bytes of the work block ta_rewrite_buffers needs. */
size_t ta_rewrite_buffers_bytes(const ta_graph *g);

/*
 * Pass 2: ALIAS, INPLACE and DWINPLACE (other flags are ignored here).  g is the graph
 * as it runs (pass 1's output, or the model's graph), lt its lifetimes.
 * Writes buffer_of[0 .. g->n_tensors) (every tensor its own buffer when no
 * rewrite applies) for ta_lifetime_options.buffer_of.  INPLACE considers
 * the op kinds in `inplace` (NULL: none): the kinds whose kernels read
 * element i before writing it, which only the runtime's op table knows --
 * ta_op_list_inplace_kinds (ops.h) gives them for an op list.  stats
 * (optional) gets aliased and in_place.  DWINPLACE joins the output of a
 * depthwise conv pass 1 marked (ta_op_options.in_place) to its input's
 * buffer; stats gets dw_in_place.  Deterministic.
 */
ta_status ta_rewrite_buffers(const ta_graph *g, const ta_lifetimes *lt, uint32_t flags, const ta_op_kind_set *inplace,
                             void *mem, size_t bytes, int32_t *buffer_of, ta_rewrite_stats *stats, ta_diag *diag);

/* Bytes of the work block ta_rewrite_overlaps needs. */
size_t ta_rewrite_overlaps_bytes(const ta_graph *g);

/*
 * Pass 3: OVERLAP.  After pass 2 and ta_lifetime_requests: for every op of
 * subgraph 0 whose kind is in `walks` -- the kinds whose kernels run walk.h's
 * TA_CONV_WALK_ROWS whenever their output overlaps their input, which only
 * the runtime's op table knows (ta_op_list_overlap_kinds, ops.h) -- the
 * relation that walk tolerates, between the request holding input 0 (X)
 * and the request holding output 0 (Y):
 *   - both planned tensors' requests (buffer_of: pass 2's groups, or NULL),
 *     different, neither at a fixed offset; the output not a view at a
 *     byte offset in its group (buffer_at, ta_rewrite_buffers_at, or NULL)
 *     nor a slice of a larger group (a CONCAT member); the input may be at
 *     an offset (a view, a depthwise output at its input's end) when no
 *     other input of the op is in its group;
 *   - X's request dies at the op's step and Y's is born there, so the pair
 *     is live together exactly while the op runs;
 *   - the op is CONV_2D (any kernel, stride, dilation, SAME/VALID/EXPLICIT
 *     padding), AVERAGE_POOL_2D or MAX_POOL_2D with 4-D input and output,
 *     and its walk tolerates some overlap (d below X's bytes); or a
 *     STRIDED_SLICE with constant begin/end/strides, every stride positive,
 *     no ellipsis or new-axis mask and a non-empty output, resolved as the
 *     kernel resolves it: its walk is a forward gather (walk.h
 *     ta_walk_gather, d = X - Y - the first element's byte offset); or a
 *     PAD / PADV2 with constant int32 paddings, none negative, rank 1..5,
 *     a non-empty input and an output of its dtype: its kernel walks
 *     backward whenever the output overlaps the input (walk.h
 *     ta_walk_pad_backward), a TA_OVERLAP_ABOVE relation with d = X's
 *     offset in its group - the padding bytes before the input's first
 *     element (offsets only: request sizes do not enter); or a
 *     CONCATENATION (any axis, inputs of the output's dtype and dims off
 *     the axis): its kernel moves each step's blocks forward (walk.h
 *     ta_walk_concat), so X is the largest input that dies here (any
 *     input, not only input 0; no other input in its group), d = -(the
 *     bytes per step after X's block).
 * Each other relation is TA_OVERLAP_BELOW with d = the walk's d (tensor bytes)
 * plus the padding and group bytes of X's request after X's tensor (its
 * offset and bytes subtracted), minus those of Y's: on the requests it permits exactly what the walk permits on
 * the tensors.  The 1x1 convolution 8 -> 16 channels of person_detect:
 * d = 384 (one input row), arena 37,248 B at that op instead of 55,296 B.
 * Writes up to cap relations to out (at most one per op: cap = the ops of
 * subgraph 0 always suffices) and their count to *n_out; TA_E_NO_MEMORY when
 * there are more, or when bytes is below ta_rewrite_overlaps_bytes.
 * stats (optional) gets overlapped.  Deterministic, O(ops + tensors + the
 * walked output rows).
 */
ta_status ta_rewrite_overlaps(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of,
                              const size_t *buffer_at, const ta_op_kind_set *walks, const ta_request *reqs, const ta_buffer_origin *origin,
                              size_t n_req, void *mem, size_t bytes, ta_overlap *out, size_t cap, size_t *n_out,
                              ta_rewrite_stats *stats, ta_diag *diag);

/* ta_rewrite_overlaps under the graph-input policy of `flags`: without
 * TA_REWRITE_INPUTS, no relation lets an output overlap a group holding a
 * graph input.  (ta_rewrite_overlaps is this with TA_REWRITE_ALL.) */
ta_status ta_rewrite_overlaps_for(const ta_graph *g, const ta_lifetimes *lt, uint32_t flags, const int32_t *buffer_of,
                                  const size_t *buffer_at, const ta_op_kind_set *walks, const ta_request *reqs,
                                  const ta_buffer_origin *origin, size_t n_req, void *mem, size_t bytes, ta_overlap *out,
                                  size_t cap, size_t *n_out, ta_rewrite_stats *stats, ta_diag *diag);

/* Pass 2 with views: ta_rewrite_buffers, plus CONCAT, which places group
 * members at byte offsets inside their group's buffer: buffer_at[t]
 * (0 .. g->n_tensors) gets t's offset (0 for every group's own tensor),
 * for ta_lifetime_options.buffer_at.  With buffer_at NULL this is
 * ta_rewrite_buffers (CONCAT and SLICE do not apply).  stats gets
 * concat_in_place and slice_views. */
ta_status ta_rewrite_buffers_at(const ta_graph *g, const ta_lifetimes *lt, uint32_t flags,
                                const ta_op_kind_set *inplace, void *mem, size_t bytes, int32_t *buffer_of,
                                size_t *buffer_at, ta_rewrite_stats *stats, ta_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
