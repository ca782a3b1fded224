/*
 * tinyarena/walk.h -- what a kernel's walk tolerates: overlap relations
 * (plan.h, ta_overlap) derived from the order in which a kernel reads its
 * input and writes its output.  Format-free: plain geometry in, a relation
 * out; no graph, no model.
 *
 * One description per kernel family: the loop order and window geometry.
 * From it, the tightest d such that writing the output over the input at
 * that d never overwrites an input byte the walk will still read.  Nothing
 * here changes a kernel; a runtime may only use a relation with a kernel
 * that really runs in the described order.
 */
#ifndef TINYARENA_WALK_H
#define TINYARENA_WALK_H

#include <stdint.h>

#include "tinyarena/plan.h"
#include "tinyarena/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CONV_2D walk orders (NHWC, output pixels in row-major order, batch
 * outermost, both walks forward: low addresses first). */
typedef enum ta_conv_walk {
    /* for each output pixel, for each output channel: read the whole window,
     * write one output element.  The reference kernel's order (TFLM's, and
     * this runtime's CONV_2D today): the window is read again for every
     * output channel, so a pixel's first writes must miss its own window. */
    TA_CONV_WALK_REREAD = 0,
    /* for each output pixel: read the window once, then write every output
     * channel (accumulators or the window held aside meanwhile). */
    TA_CONV_WALK_PIXEL = 1,
    /* output rows in order (batch outermost), each row one step: while it
     * runs, the row may read every byte of the input rows its windows touch
     * (whole rows, every column) and write its output row in any order.
     * What the runtime runs when an output overlaps its input
     * (src/runtime/ops/conv.c, pool.c): consecutive output rows are one
     * kernel call on the input rows from the first row's first window row
     * on -- as many rows as the addresses allow without a write landing on
     * a byte that call or a later one reads -- so every kernel (reference,
     * fast, x86 or Cortex-M, whatever its inner loop order) keeps to it.  The same
     * geometry serves AVERAGE/MAX_POOL_2D (out_c = in_c, dilation 1). */
    TA_CONV_WALK_ROWS = 2
} ta_conv_walk;

typedef struct ta_conv_geometry {
    int32_t batches;                  /* >= 1 */
    int32_t in_h, in_w, in_c;         /* input NHWC, >= 1 */
    int32_t out_h, out_w, out_c;      /* output NHWC, >= 1 */
    int32_t filter_h, filter_w;       /* >= 1 */
    int32_t stride_h, stride_w;       /* >= 1 */
    int32_t dilation_h, dilation_w;   /* >= 1 */
    int32_t pad_top, pad_left;        /* >= 0: zero rows/columns before the input */
    int32_t in_elem, out_elem;        /* bytes per element, 1..8 */
} ta_conv_geometry;

/*
 * The overlap CONV_2D tolerates for input X and output Y under walk `walk`:
 * fills rel->kind = TA_OVERLAP_BELOW and rel->d (rel->x, rel->y untouched:
 * the caller's buffer indices).  The relation permits exactly the
 * placements where every output write lands below every input byte still to
 * be read (or past X's end): with Y ending d bytes below X's end, the
 * tightest such d; d - 1 would overwrite a byte before its last read.
 *   - d in [-padded Y, bytes of X]: -Y's size means any overlap is safe
 *     (every read precedes every write), X's size means none is.
 *   - Bytes are unpadded element bytes; a plan rounds offsets up to the
 *     buffers' alignment, which only moves Y further down: still safe.
 * The 1x1 convolution 8 -> 16 channels of person_detect (48x48, int8):
 * REREAD d = 7 (in_c - 1: a pixel's first output channel would land on the
 * input bytes its other channels still read), PIXEL d = -8.
 * ROWS: each output row's writes must land below the first byte of the
 * first input row its windows or any later row's touch; a
 * geometry with an output row whose windows touch no input row (all
 * padding) gets d = X's size (no overlap: the runtime cannot cut it).
 * The 1x1 above: ROWS d = 384 (one input row).
 * O(batches x out_h x out_w), no memory.  TA_E_INVALID_ARG for NULL,
 * TA_E_BAD_REQUEST for a dimension out of range, TA_E_OVERFLOW for tensors
 * above 2^40 bytes or more than 2^31 output pixels.
 */
ta_status ta_walk_conv2d(const ta_conv_geometry *g, ta_conv_walk walk, ta_overlap *rel, ta_diag *diag);

/*
 * The overlap a forward gather tolerates: a kernel that writes output
 * elements j = 0, 1, ... in order, element j read from input byte offset
 * src(j) before it is written, src strictly increasing by at least one
 * element per step (STRIDED_SLICE with positive strides, in row-major
 * order).  Then src(j) - j * elem never decreases, so the output may start
 * anywhere up to src(0) = `first` bytes above the input's start: each write
 * lands at or below the element it replaces.  rel->kind = TA_OVERLAP_BELOW,
 * rel->d = x_bytes - y_bytes - first (Y ending d below X's end); d + 1
 * would write element 0 over the next one before its read when the gather
 * is contiguous.  TA_E_INVALID_ARG for NULL or first + y_bytes > x_bytes.
 */
ta_status ta_walk_gather(uint64_t x_bytes, uint64_t y_bytes, uint64_t first, ta_overlap *rel, ta_diag *diag);

/*
 * The overlap a backward scatter tolerates: a kernel that writes output
 * elements from the last down, element j a copy of input element src(j)
 * (read before j is written) or a constant, where src increases with j and
 * j - src(j) never decreases (PAD / PADV2 in row-major order: j - src(j) is
 * the padding before j).  That difference is smallest at the first copied
 * element, at output byte offset `first`; with the input starting at most
 * `first` bytes above the output's start, every write lands at or above the
 * element it replaces and above every input byte still to be read.
 * rel->kind = TA_OVERLAP_ABOVE, rel->d = -first (Y may start `first` bytes
 * below X's start, or anywhere higher); with X one element higher, the
 * output element after the first copied one is written over the input's
 * first element before that is read.  TA_E_INVALID_ARG for NULL or
 * first + x_bytes > y_bytes.
 */
ta_status ta_walk_pad_backward(uint64_t x_bytes, uint64_t y_bytes, uint64_t first, ta_overlap *rel, ta_diag *diag);

/*
 * The overlap a forward concatenation tolerates for one of its inputs: a
 * kernel that, for each of `outer` steps in order, moves every input's
 * block of that step into the output in input order (memmove: a block may
 * overlap its own source), the output step `before + mine + after` bytes,
 * X's block `mine` bytes, the blocks of the inputs before X `before` bytes
 * and of those after `after` (CONCATENATION along any axis; a channel
 * concat of NHWC has one step per pixel).  Every write up to X's block of
 * step s must land below X's bytes of step s, the first still unread: with
 * Y starting (before + after) * (outer - 1) + before bytes below X -- Y's
 * end at most `after` bytes above X's -- the last step's writes before its
 * read end exactly at X's last block, and every earlier step's further
 * below.  rel->kind = TA_OVERLAP_BELOW, rel->d = -after; d - 1 overwrites
 * the first byte of X's last block before its read whenever a write comes
 * before that read (outer > 1 or before > 0).  The channel concat of
 * yolov8n_192's neck (24x24, 128 + 64 channels, int8, the 128 first):
 * d = -64, the 73,728 B input inside the 110,592 B output.
 * TA_E_INVALID_ARG for NULL, mine 0, or more than 2^40 bytes.
 */
ta_status ta_walk_concat(uint64_t outer, uint64_t before, uint64_t mine, uint64_t after, ta_overlap *rel,
                         ta_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
