/* The budget header's pre-unpacked 1x1 weights (tinyarena/pw_pack.h): one
 * pack per int8 1x1 CONV_2D the DSP cores' kernel can run (and one in the
 * armv6-m layout for the M0 kernel), keyed by the
 * filter's offset in the model, so that a Cortex-M firmware's kernel
 * unpacks nothing at invoke time (see emit_header.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "emit_header.h"
#include "tinyarena/graph.h"
#include "tinyarena/pw_pack.h"

typedef struct {
    size_t offset;       /* the filter's byte offset in the model */
    int32_t depth, channels;
    size_t words, wsum;  /* where its words and sums start in the arrays */
} pw_entry;

/* The op's filter when the kernel could take a pack for it: int8 input
 * and filter, filter [channels, 1, 1, depth] of one group (depth = the
 * input's channels), constant bytes inside the model. */
static bool pw_eligible(const ta_graph *g, const ta_op *op, const unsigned char *model, size_t len, pw_entry *e) {
    if (op->kind != TA_OP_CONV_2D || op->n_inputs < 2 || op->inputs[0] < 0 || op->inputs[1] < 0) return false;
    const ta_tensor *in = ta_graph_tensor(g, op->subgraph, op->inputs[0]);
    const ta_tensor *w = ta_graph_tensor(g, op->subgraph, op->inputs[1]);
    if (!in || !w || in->dtype != TA_DTYPE_INT8 || w->dtype != TA_DTYPE_INT8 || in->rank != 4 || w->rank != 4) return false;
    if (w->shape[1] != 1 || w->shape[2] != 1 || w->shape[3] != in->shape[3] || !w->data) return false;
    const int32_t depth = w->shape[3], channels = w->shape[0];
    if (!ta_kernel_pw_pack_words(depth, channels) && !ta_kernel_pw_pack_m0_words(depth, channels)) return false;
    const unsigned char *d = w->data;
    const size_t bytes = (size_t)depth * (size_t)channels;
    if (w->data_bytes < bytes || d < model || d > model + len || (size_t)(model + len - d) < bytes) return false;
    e->offset = (size_t)(d - model);
    e->depth = depth;
    e->channels = channels;
    return true;
}

/* One layout's arrays and table, the layers' words from `pack` (sized by
 * `size`): every entry the layout takes, those it refuses (an M0 pair of
 * -128 weights: TA_E_UNSUPPORTED) left out, opened by "#<kw> defined(cond)";
 * nothing (and *emitted false) when no layer has a pack in this layout. */
static bool emit_layout(FILE *f, const pw_entry *es, size_t n, const unsigned char *model, const char *lo, const char *up,
                        const char *kw, const char *cond, const char *what, size_t (*size)(int32_t, int32_t),
                        ta_status (*pack)(const int8_t *, int32_t, int32_t, uint32_t *, size_t, int32_t *),
                        bool *emitted) {
    size_t nw = 0, ns = 0;
    for (size_t i = 0; i < n; i++) nw += size(es[i].depth, es[i].channels), ns += (size_t)es[i].channels;
    uint32_t *words = calloc(nw ? nw : 1, sizeof *words);
    int32_t *wsum = calloc(ns ? ns : 1, sizeof *wsum);
    pw_entry *ok = calloc(n ? n : 1, sizeof *ok);
    bool good = words && wsum && ok;
    size_t m = 0, w = 0, k = 0;
    for (size_t i = 0; good && i < n; i++) {
        if (!size(es[i].depth, es[i].channels)) continue;
        const ta_status st = pack((const int8_t *)(model + es[i].offset), es[i].depth, es[i].channels, words + w, nw - w,
                                  wsum + k);
        if (st == TA_E_UNSUPPORTED) continue;
        if (st != TA_OK) good = false;
        ok[m] = es[i], ok[m].words = w, ok[m].wsum = k, m++;
        w += size(es[i].depth, es[i].channels), k += (size_t)es[i].channels;
    }
    if (good && m) {
        fprintf(f, "/* The 1x1 convolutions' weights pre-packed for %s (tinyarena/pw_pack.h):\n"
                   " * %zu layers, %zu B of flash beside the model's own weights, so that no\n"
                   " * call packs or sums them.  Name them once:\n"
                   " *     static const ta_pw_pack packs[] = {%s_PW_PACKS(model_bytes)};\n"
                   " *     TA_PW_PACKS_LINK(packs);\n"
                   " * Define %s_NO_PW_PACKS to leave them out (the kernel then packs). */\n",
                what, m, w * 4 + k * 4, up, up);
        fprintf(f, "#%s defined(%s) && !defined(%s_NO_PW_PACKS)\n#include \"tinyarena/pw_pack.h\"\n", kw, cond, up);
        fprintf(f, "#define %s_PW_PACK_BYTES %zuu\n", up, w * 4 + k * 4);
        fprintf(f, "static const uint32_t %s_pw_words[%zu] = {", lo, w);
        for (size_t i = 0; i < w; i++) fprintf(f, "%s0x%08x,", i % 8 ? " " : "\n    ", (unsigned)words[i]);
        fprintf(f, "\n};\nstatic const int32_t %s_pw_wsum[%zu] = {", lo, k);
        for (size_t i = 0; i < k; i++) fprintf(f, "%s%d,", i % 12 ? " " : "\n    ", (int)wsum[i]);
        fprintf(f, "\n};\n/* model: the model's bytes, as the runtime gets them */\n#define %s_PW_PACKS(model)", up);
        for (size_t i = 0; i < m; i++)
            fprintf(f, "%s \\\n    {(const int8_t *)(model) + %zu, %s_pw_words + %zu, %s_pw_wsum + %zu, %d, %d}", i ? "," : "",
                    ok[i].offset, lo, ok[i].words, lo, ok[i].wsum, (int)ok[i].depth, (int)ok[i].channels);
        fprintf(f, "\n");
    }
    free(words);
    free(wsum);
    free(ok);
    *emitted = good && m;
    return good;
}

bool emit_pw_packs(FILE *f, const ta_graph *g, const unsigned char *model, size_t len, const char *lo, const char *up) {
    if (!model || !g || !g->n_subgraphs) return true;
    const ta_subgraph *sg = &g->subgraphs[0];
    pw_entry *es = calloc(sg->n_ops ? sg->n_ops : 1, sizeof *es);
    if (!es) return false;
    size_t n = 0;
    for (uint32_t k = 0; k < sg->n_ops; k++) {
        pw_entry e;
        if (!pw_eligible(g, &g->ops[sg->op_base + k], model, len, &e)) continue;
        bool seen = false; /* a filter two ops share: one pack */
        for (size_t i = 0; i < n && !seen; i++)
            seen = es[i].offset == e.offset && es[i].depth == e.depth && es[i].channels == e.channels;
        if (!seen) es[n++] = e;
    }
    /* the DSP cores' int16 pairs, else armv6-m's pair words: one block of
     * #if / #elif, so that a target compiles one table at most */
    bool dsp = false, m0 = false;
    bool ok = emit_layout(f, es, n, model, lo, up, "if", "__ARM_FEATURE_DSP", "the DSP cores' kernel (int16 pairs)",
                          ta_kernel_pw_pack_words, ta_kernel_pw_pack, &dsp);
    ok = ok && emit_layout(f, es, n, model, lo, up, dsp ? "elif" : "if", "__ARM_ARCH_6M__",
                           "the armv6-m kernel (M0/M0+: pair words)", ta_kernel_pw_pack_m0_words, ta_kernel_pw_pack_m0, &m0);
    if (ok && (dsp || m0)) fprintf(f, "#endif\n\n");
    free(es);
    return ok;
}
