/* bench_overlap: what CONV_2D overlap relations would save (planning only).
 *
 * For person_detect, vww_96_int8 and the PyTorch MobileNetV2, planned from
 * the .tflite under TFLM's rules (tensors only, 16-byte alignment), and
 * again with every rewrite (rewrite.h: alias, inplace, fusepad, order), every
 * CONV_2D whose input dies at the op (its last use) gets the relation
 * ta_walk_conv2d derives from the kernel's walk, and the plan is made again
 * with the relations.  Columns: the arena without relations (optimal), with
 * relations on the 1x1 convolutions (the common case) in the runtime's
 * current walk order (REREAD: the window read again per output channel),
 * the same with a pixel-buffered walk (PIXEL), and with relations on every
 * CONV_2D (REREAD).  With relations the figure is best's plan (optimal does
 * not search with relations yet); "= bound" when it meets the bound that
 * counts each related pair as its union.
 *
 * Nothing here changes the runtime: a kernel must run in the described
 * order (and poison checks must prove it) before a plan may use these.
 *
 *   bench_overlap [DATA_DIR]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "model_load.h"
#include "model_plan.h"
#include "plan_report.h"
#include "tinyarena/rewrite.h"
#include "tinyarena/walk.h"

static const char *const k_models[] = {"tflm/person_detect.tflite", "mlperf_tiny/vww_96_int8.tflite",
                                       "tflm/xtensa_mobilenet_v2_quantized_1x3x224x224.tflite"};

/* TFLite's SAME padding before the input along one axis. */
static int32_t same_pad(int32_t in, int32_t out, int32_t stride, int32_t dil, int32_t f) {
    int64_t total = (int64_t)(out - 1) * stride + (int64_t)(f - 1) * dil + 1 - in;
    return total > 0 ? (int32_t)(total / 2) : 0;
}

/* The relations for the model's CONV_2D ops (only 1x1 when only_1x1). */
static size_t conv_relations(const model_plan *mp, ta_conv_walk walk, bool only_1x1, ta_overlap *out) {
    const ta_graph *g = mp->g;
    int32_t *req_of = malloc(g->n_tensors * sizeof *req_of);
    for (uint32_t t = 0; t < g->n_tensors; t++) req_of[t] = -1;
    for (size_t i = 0; i < mp->n; i++)
        if (mp->origin[i].kind == TA_BUFFER_TENSOR) req_of[mp->origin[i].index] = (int32_t)i;
    /* with the alias/inplace rewrites a tensor lives in its group's buffer */
    if (mp->buffer_of)
        for (uint32_t t = 0; t < g->n_tensors; t++)
            if (req_of[t] < 0 && mp->buffer_of[t] >= 0) req_of[t] = req_of[mp->buffer_of[t]];
    size_t nr = 0;
    const ta_subgraph *sg = &g->subgraphs[0];
    for (uint32_t k = 0; k < sg->n_ops; k++) {
        const ta_op *op = &g->ops[sg->op_base + k];
        if (op->kind != TA_OP_CONV_2D || op->n_inputs < 2 || op->n_outputs < 1) continue;
        const ta_tensor *in = ta_graph_tensor(g, 0, op->inputs[0]), *f = ta_graph_tensor(g, 0, op->inputs[1]);
        const ta_tensor *o = ta_graph_tensor(g, 0, op->outputs[0]);
        if (!in || !f || !o || in->rank != 4 || f->rank != 4 || o->rank != 4) continue;
        if (only_1x1 && (f->shape[1] != 1 || f->shape[2] != 1)) continue;
        int32_t x = req_of[sg->tensor_base + (uint32_t)op->inputs[0]], y = req_of[sg->tensor_base + (uint32_t)op->outputs[0]];
        if (x < 0 || y < 0) continue;
        int32_t step = mp->lt.op_step[sg->op_base + k];
        /* the input must die here (no later reader, not a graph output) and
         * the output be born here: the relation permits sharing for the
         * pair's whole joint lifetime, which must be this op alone */
        if (mp->reqs[x].last != step || mp->reqs[y].first != step) continue;
        ta_conv_geometry cg = {in->shape[0], in->shape[1], in->shape[2], in->shape[3], o->shape[1], o->shape[2],
                               o->shape[3], f->shape[1], f->shape[2], op->opt.stride_h, op->opt.stride_w,
                               op->opt.dilation_h, op->opt.dilation_w, 0, 0, (int32_t)ta_dtype_size(in->dtype),
                               (int32_t)ta_dtype_size(o->dtype)};
        if (op->opt.padding == TA_PAD_SAME) {
            cg.pad_top = same_pad(cg.in_h, cg.out_h, cg.stride_h, cg.dilation_h, cg.filter_h);
            cg.pad_left = same_pad(cg.in_w, cg.out_w, cg.stride_w, cg.dilation_w, cg.filter_w);
        } else if (op->opt.padding == TA_PAD_EXPLICIT) {
            cg.pad_top = op->opt.pad_top;
            cg.pad_left = op->opt.pad_left;
        }
        ta_overlap r = {(uint32_t)x, (uint32_t)y, 0, 0};
        if (ta_walk_conv2d(&cg, walk, &r, NULL) != TA_OK) continue;
        out[nr++] = r;
    }
    free(req_of);
    return nr;
}

static int32_t g_peak; /* the last plan's peak step */

static void plan(const model_plan *mp, const ta_overlap *ov, size_t nr, size_t *arena, size_t *bound, bool *proven) {
    ta_plan_options opt;
    memset(&opt, 0, sizeof opt);
    opt.time_limit_s = 10;
    opt.clock = cli_clock;
    opt.overlaps = ov;
    opt.n_overlaps = nr;
    plan_outcome o = plan_report_run(ta_strategy_find("optimal"), mp->reqs, mp->n, &opt);
    *arena = o.st ? 0 : o.res.arena_bytes;
    *bound = o.st ? 0 : o.res.lower_bound_bytes;
    *proven = !o.st && o.res.proof == TA_PROOF_OPTIMAL;
    g_peak = o.res.peak_step;
    if (o.st) fprintf(stderr, "bench_overlap: %s\n", o.diag.msg);
    free(o.offsets);
}

static void cell(char *buf, size_t len, size_t arena, size_t bound, size_t base, size_t nr) {
    char a[32];
    if (!nr) {
        snprintf(buf, len, "%s (no relation)", fmt_bytes(arena, a));
        return;
    }
    snprintf(buf, len, "%s (%+.1f%%%s, %zu rel.)", fmt_bytes(arena, a),
             base ? 100.0 * ((double)arena - (double)base) / (double)base : 0.0, arena == bound ? ", = bound" : "",
             nr);
}

int main(int argc, char **argv) {
    const char *data = argc > 1 ? argv[1] : getenv("TINYARENA_DATA");
    if (!data || !*data) data = "../shared";
    printf("| model | no relations, optimal | + 1x1 CONV_2D, REREAD walk | + 1x1 CONV_2D, PIXEL walk | + every CONV_2D, "
           "REREAD walk | + every CONV_2D, ROWS walk (the runtime's) | peak (bound) without -> with every CONV_2D, REREAD |\n"
           "|---|---|---|---|---|---|---|\n");
    int rc = 0;
    for (size_t m = 0; m < sizeof k_models / sizeof k_models[0]; m++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/models/%s", data, k_models[m]);
        loaded_model lm;
        if (model_load(path, &lm) != CLI_OK) {
            model_unload(&lm);
            rc = 1;
            continue;
        }
        ta_lifetime_options lo = {.align = 16, .offline_offsets = lm.offline, .n_offline = lm.n_offline};
        for (int rw = 0; rw < 2; rw++) {
            model_plan mp;
            memset(&mp, 0, sizeof mp);
            const ta_graph *g = &lm.g;
            ta_graph g2;
            void *g2mem = NULL;
            ta_rewrite_stats st;
            memset(&st, 0, sizeof st);
            bool ok = rw ? model_rewrite_graph(&lm.g, TA_REWRITE_ALL, &g, &g2, &g2mem, &st, path) == CLI_OK &&
                               model_plan_build_rewritten(&mp, g, &lo, NULL, 0, path, TA_REWRITE_ALL, &st) == CLI_OK
                         : model_plan_build(&mp, &lm.g, &lo, NULL, 0, path) == CLI_OK;
            if (ok) {
                ta_overlap *ov = malloc((g->n_ops + 1) * sizeof *ov);
                size_t base, bound;
                bool proven;
                plan(&mp, NULL, 0, &base, &bound, &proven);
                char c[4][96], before[96], after[96];
                model_plan_step_label(&mp, g_peak, before, sizeof before);
                const struct {
                    ta_conv_walk w;
                    bool only;
                } cols[4] = {{TA_CONV_WALK_REREAD, true},
                             {TA_CONV_WALK_PIXEL, true},
                             {TA_CONV_WALK_REREAD, false},
                             {TA_CONV_WALK_ROWS, false}};
                for (int k = 0; k < 4; k++) {
                    size_t nr = conv_relations(&mp, cols[k].w, cols[k].only, ov), a2, b2;
                    bool pr;
                    plan(&mp, ov, nr, &a2, &b2, &pr);
                    cell(c[k], sizeof c[k], a2, b2, base, nr);
                    if (k == 2) model_plan_step_label(&mp, g_peak, after, sizeof after);
                }
                char bb[32];
                printf("| %s%s | %s%s | %s | %s | %s | %s | %s -> %s |\n", k_models[m], rw ? ", --rewrite all" : "",
                       fmt_bytes(base, bb), proven ? " (proven)" : "", c[0], c[1], c[2], c[3], before, after);
                free(ov);
            } else {
                rc = 1;
            }
            model_plan_free(&mp);
            free(g2mem);
        }
        model_unload(&lm);
    }
    return rc;
}
