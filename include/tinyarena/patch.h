/*
 * tinyarena/patch.h -- patch-based execution (issue 13): the first ops of a
 * graph run band by band over their output rows, so the tensors between
 * them only ever hold one band (plus its halo), never the whole tensor.
 *
 * A stage is a run of consecutive ops of subgraph 0's order, first_op ..
 * last_op, forming a small DAG (ta_patch_stage_valid): each a window op
 * (CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D) or an
 * elementwise op whose inputs have the output's shape (ADD, SUB, MUL,
 * RELU, RELU6, RELU_N1_TO_1, LOGISTIC, TANH, SILU), all batch 1 NHWC.
 * Every op's output but the last's is read only by later stage ops (a
 * residual ADD reads a tensor two or more ops back: the skip branch's band
 * is kept across the ops in between); inputs from outside the stage (the
 * stage inputs) are held whole.  The grid is `bands` x 1: the stage
 * output's rows are cut into `bands` even bands (ta_patch_band); each band
 * runs every stage op on the rows its readers need (ta_patch_dag_rows: back
 * through strides, dilations and padding, the union over readers), so the
 * padding of a band is the model's only at the image border and real rows
 * (a halo, recomputed) in between.
 *
 * Planning is a lifetime transformation (ta_patch_apply), so every strategy,
 * the validator and the bound work unchanged: an intermediate tensor's
 * request shrinks to its largest band; the stage inputs live to the last
 * stage op and the stage output from the first op's step (band by band,
 * both are read and written across the whole stage, and a band's rows must
 * survive the next band's ops); overlap relations touching a
 * stage input, an intermediate, or made for the stage output's producer are
 * dropped.  Format-free: graph, lifetimes and requests in, no memory of its
 * own.
 */
#ifndef TINYARENA_PATCH_H
#define TINYARENA_PATCH_H

#include <stddef.h>
#include <stdint.h>

#include "tinyarena/graph.h"
#include "tinyarena/lifetime.h"
#include "tinyarena/plan.h"
#include "tinyarena/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most ops in one stage (the runtime keeps their row geometry on its stack:
 * 16 keeps the band loop under 1 KB of it, so person_detect's firmware with
 * its stages still runs on a 4 KB stack; the stages chosen on the shared
 * models have at most 6 ops). */
#define TA_PATCH_MAX_OPS 8
/* Most bands searched. */
#define TA_PATCH_MAX_BANDS 64

/* One windowed op along the rows (H of NHWC): input and output rows, the
 * stride, the leading padding (rows of padding above row 0), the dilation and
 * the window's rows.  All >= 1 except pad >= 0. */
typedef struct ta_patch_rows {
    int32_t in_h, out_h, stride, pad, dilation, taps;
} ta_patch_rows;

/* Most stages in one plan. */
#define TA_PATCH_MAX_STAGES 16

/* One stage: ops first_op .. last_op of subgraph 0, the grid bands x 1
 * (rows), and the MACs its halos recompute. */
typedef struct ta_patch_stage {
    int32_t first_op, last_op;
    int32_t bands;
    uint64_t extra_macs;
} ta_patch_stage;

/* The stages of a graph, in op order (n_stages 0: layer by layer). */
typedef struct ta_patch_plan {
    uint32_t n_stages;
    ta_patch_stage stages[TA_PATCH_MAX_STAGES];
    uint64_t macs;         /* the graph's MACs layer by layer (conv, depthwise, pools, fully connected) */
    uint64_t extra_macs;   /* the stages' halo recompute, summed */
    size_t bytes_before;   /* ta_patch_choose: the peak live bytes (relations as unions) without stages; */
    size_t bytes_after;    /* with them.  ta_runtime_patch: the planned arenas (head) instead */
} ta_patch_plan;

/* Band b (0 .. n-1) of h rows cut into n even bands: rows [*r0, *r1). */
static inline void ta_patch_band(int32_t h, int32_t n, int32_t b, int32_t *r0, int32_t *r1) {
    *r0 = (int32_t)((int64_t)h * b / n);
    *r1 = (int32_t)((int64_t)h * (b + 1) / n);
}

/* The input rows [*i0, *i1) that output rows [o0, o1) (0 <= o0 < o1 <=
 * out_h) of op g read, and *pad, the leading padding of a kernel call whose
 * input starts at row *i0 and whose output starts at row o0 (>= 0: the
 * model's padding where the band touches row 0, none below).  Taps past
 * *i1 are the model's bottom padding (i1 = in_h) or never reached.  Needs
 * ta_patch_rows_valid(g). */
static inline void ta_patch_in_rows(const ta_patch_rows *g, int32_t o0, int32_t o1, int32_t *i0, int32_t *i1,
                                    int32_t *pad) {
    const int64_t top = (int64_t)o0 * g->stride - g->pad;
    const int64_t last = (int64_t)(o1 - 1) * g->stride - g->pad + (int64_t)(g->taps - 1) * g->dilation;
    const int64_t a = top > 0 ? top : 0;
    const int64_t b = last + 1 < g->in_h ? last + 1 : g->in_h;
    *i0 = (int32_t)a;
    *i1 = (int32_t)b;
    *pad = (int32_t)(a - top);
}

/* True when every output row's window reaches a real input row (so every
 * band reads at least one: ta_patch_in_rows gives i0 < i1). */
static inline int ta_patch_rows_valid(const ta_patch_rows *g) {
    return g->in_h >= 1 && g->out_h >= 1 && g->stride >= 1 && g->dilation >= 1 && g->taps >= 1 && g->pad >= 0 &&
           (int64_t)(g->taps - 1) * g->dilation - g->pad >= 0 && (int64_t)(g->out_h - 1) * g->stride - g->pad < g->in_h;
}

/* One stage op as the band loop sees it: its row geometry (an elementwise
 * op: in_h = out_h = its rows, stride 1, pad 0, dilation 1, taps 1) and,
 * per input read by rows (n_src: 1, or 2 for ADD, SUB and MUL), the stage
 * op writing it (its index in the stage, 0 .. n - 1; -1: a tensor from
 * outside the stage, held whole). */
typedef struct ta_patch_dag_op {
    ta_patch_rows geo;
    int32_t src[2];
    int32_t n_src;
} ta_patch_dag_op;

/* The rows every op of a stage of n ops (in op order, ops[n - 1] the last)
 * computes for output rows [o0, o1) of the last: rows[k] = [lo, hi) of op
 * k's output, the union of what its readers in the stage need (every op of
 * a valid stage has one, ta_patch_stage_valid).  A band holds op k's rows
 * from row rows[k][0] at the start of its buffer; a reader of rows [i0, i1)
 * of it (ta_patch_in_rows) finds them (i0 - rows[k][0]) rows in. */
static inline void ta_patch_dag_rows(const ta_patch_dag_op *ops, int32_t n, int32_t o0, int32_t o1,
                                     int32_t (*rows)[2]) {
    for (int32_t k = 0; k < n; k++) rows[k][0] = INT32_MAX, rows[k][1] = INT32_MIN;
    rows[n - 1][0] = o0;
    rows[n - 1][1] = o1;
    for (int32_t k = n - 1; k >= 0; k--) {
        int32_t i0, i1, pad;
        if (rows[k][0] >= rows[k][1]) continue;
        ta_patch_in_rows(&ops[k].geo, rows[k][0], rows[k][1], &i0, &i1, &pad);
        for (int32_t j = 0; j < ops[k].n_src; j++) {
            const int32_t p = ops[k].src[j];
            if (p < 0 || p >= k) continue;
            if (i0 < rows[p][0]) rows[p][0] = i0;
            if (i1 > rows[p][1]) rows[p][1] = i1;
        }
    }
}

/* Op `op` of subgraph 0 as a stage op: its row geometry, the inputs it
 * reads by rows (*row_in, *n_row_in: local tensor indices) and its MACs
 * per output row (0 for an elementwise op).  TA_E_UNSUPPORTED when it
 * cannot be one. */
ta_status ta_patch_op_node(const ta_graph *g, uint32_t op, ta_patch_rows *rows, int32_t row_in[2], int32_t *n_row_in,
                           uint64_t *row_macs);

/* Whether ops first .. last of subgraph 0 form a stage (see the top):
 * 2 .. TA_PATCH_MAX_OPS ops, each one ta_patch_op_node takes, at least
 * one a window op or a binary one, every output but the last's read (at
 * least once, only by rows) by later stage ops alone, not a graph output,
 * and -- with buffer_of (ta_rewrite_buffers, or NULL) -- in a buffer of its
 * own; no stage input a variable.  ignore_marks: treat depthwise convs the
 * DWINPLACE rewrite marked as plain ones.  When valid and dag is not NULL,
 * dag[0 .. last - first] gets the stage's ops. */
bool ta_patch_stage_valid(const ta_graph *g, const int32_t *buffer_of, int32_t first, int32_t last, int ignore_marks,
                          ta_patch_dag_op *dag);

/* The last ops l (ascending, at most cap) such that first .. l is a stage
 * (ta_patch_stage_valid); returns their count.  One pass over the graph per
 * call. */
int32_t ta_patch_stage_ends(const ta_graph *g, const int32_t *buffer_of, int32_t first, int ignore_marks,
                            int32_t *lasts, int32_t cap);

/* Op `op` of subgraph 0 as a stage op: its row geometry (*rows) and its MACs
 * per output row (*row_macs).  TA_E_UNSUPPORTED when it cannot be one (kind,
 * rank, batch, unknown dims, a window some output row reads nothing of). */
ta_status ta_patch_op_rows(const ta_graph *g, uint32_t op, ta_patch_rows *rows, uint64_t *row_macs);

/* The longest stage starting at op `first`: the last op index of the
 * longest valid chain first .. returned, or -1 when not even first and
 * first + 1 form one.  ignore_marks: treat depthwise convs the DWINPLACE
 * rewrite marked as plain ones (the caller clears the marks of the stage it
 * keeps).  buffer_of (ta_rewrite_buffers, or NULL): an intermediate must
 * have a buffer of its own. */
int32_t ta_patch_chain(const ta_graph *g, const int32_t *buffer_of, int32_t first, int ignore_marks);

/* Work bytes ta_patch_choose needs for g's n_req requests over n_steps
 * steps (8-aligned); ta_patch_apply needs n_req of them. */
size_t ta_patch_work_bytes(const ta_graph *g, size_t n_req, int32_t n_steps);

/*
 * Chooses the stages: sets of disjoint stages (ta_patch_stage_ends) with
 * band counts 2 .. TA_PATCH_MAX_BANDS (at most the stage output's rows; of
 * the counts with one largest band only the smallest), costed by the peak
 * live bytes of the transformed requests (relations counted as unions, as
 * ta_plan_bound_overlaps), whose extra MACs stay within overhead_pct percent
 * of the graph's MACs.  Two searches, the best set wins: an interval search
 * (each stage costed on its own by the most live bytes over its steps, then
 * a binary search over the peak p for the cheapest disjoint stages keeping
 * every op's step at most p, followed by the greedy below from that set),
 * and a greedy under the cap and half of it: each round tries every stage
 * spanning a step at the current peak as a new stage -- replacing the
 * chosen stages inside it, so a stage can grow or change its bands -- and
 * keeps the set with the lowest peak (at an equal peak the one with fewer
 * steps at it, then the fewer extra MACs) while that improves.  A set is
 * kept only when it lowers the peak.  *out gets it (n_stages 0 when none
 * helps).  reqs/origin/n_req: the lifetime requests (ta_lifetime_requests),
 * ov/n_ov the overlap relations (ta_rewrite_overlaps, may be 0).  Nothing
 * is modified.
 */
ta_status ta_patch_choose(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of, const ta_request *reqs,
                          const ta_buffer_origin *origin, size_t n_req, const ta_overlap *ov, size_t n_ov,
                          uint32_t overhead_pct, void *work, size_t work_bytes, ta_patch_plan *out, ta_diag *diag);

/*
 * Applies the stages of *p to the requests (in place) and the relations
 * (the kept ones moved to the front, *n_ov their count); role: n_req bytes
 * of work.  TA_E_BAD_REQUEST when a stage is not a valid chain of g (or a
 * tensor of it has no request of its own).
 */
ta_status ta_patch_apply(const ta_graph *g, const ta_lifetimes *lt, const int32_t *buffer_of, const ta_patch_plan *p,
                         ta_request *reqs, const ta_buffer_origin *origin, size_t n_req, ta_overlap *ov, size_t *n_ov,
                         uint8_t *role, ta_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
