/* The budget header's pre-unpacked 1x1 weights (tinyarena/pw_pack.h): one
 * pack per int8 1x1 CONV_2D the DSP cores' kernel can run, keyed by the
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
    if (!ta_kernel_pw_pack_words(depth, channels)) return false;
    const unsigned char *d = w->data;
    const size_t bytes = (size_t)depth * (size_t)channels;
    if (w->data_bytes < bytes || d < model || d > model + len || (size_t)(model + len - d) < bytes) return false;
    e->offset = (size_t)(d - model);
    e->depth = depth;
    e->channels = channels;
    return true;
}

bool emit_pw_packs(FILE *f, const ta_graph *g, const unsigned char *model, size_t len, const char *lo, const char *up) {
    if (!model || !g || !g->n_subgraphs) return true;
    const ta_subgraph *sg = &g->subgraphs[0];
    pw_entry *es = calloc(sg->n_ops ? sg->n_ops : 1, sizeof *es);
    if (!es) return false;
    size_t n = 0, nw = 0, ns = 0;
    for (uint32_t k = 0; k < sg->n_ops; k++) {
        pw_entry e;
        if (!pw_eligible(g, &g->ops[sg->op_base + k], model, len, &e)) continue;
        bool seen = false; /* a filter two ops share: one pack */
        for (size_t i = 0; i < n && !seen; i++)
            seen = es[i].offset == e.offset && es[i].depth == e.depth && es[i].channels == e.channels;
        if (seen) continue;
        e.words = nw;
        e.wsum = ns;
        nw += ta_kernel_pw_pack_words(e.depth, e.channels);
        ns += (size_t)e.channels;
        es[n++] = e;
    }
    bool ok = true;
    uint32_t *words = n ? calloc(nw, sizeof *words) : NULL;
    int32_t *wsum = n ? calloc(ns, sizeof *wsum) : NULL;
    if (n && (!words || !wsum)) ok = false;
    for (size_t i = 0; ok && i < n; i++)
        ok = ta_kernel_pw_pack((const int8_t *)(model + es[i].offset), es[i].depth, es[i].channels, words + es[i].words,
                               nw - es[i].words, wsum + es[i].wsum) == TA_OK;
    if (ok && n) {
        fprintf(f, "/* The 1x1 convolutions' weights pre-unpacked to int16 pairs for the DSP\n"
                   " * cores' kernel (tinyarena/pw_pack.h): %zu layers, %zu B of flash beside the\n"
                   " * model's own weights, so that no call unpacks them.  Name them once:\n"
                   " *     static const ta_pw_pack packs[] = {%s_PW_PACKS(model_bytes)};\n"
                   " *     TA_PW_PACKS_LINK(packs);\n"
                   " * Define %s_NO_PW_PACKS to leave them out (the kernel then unpacks). */\n",
                n, nw * 4 + ns * 4, up, up);
        fprintf(f, "#if defined(__ARM_FEATURE_DSP) && !defined(%s_NO_PW_PACKS)\n#include \"tinyarena/pw_pack.h\"\n", up);
        fprintf(f, "#define %s_PW_PACK_BYTES %zuu\n", up, nw * 4 + ns * 4);
        fprintf(f, "static const uint32_t %s_pw_words[%zu] = {", lo, nw);
        for (size_t i = 0; i < nw; i++) fprintf(f, "%s0x%08x,", i % 8 ? " " : "\n    ", (unsigned)words[i]);
        fprintf(f, "\n};\nstatic const int32_t %s_pw_wsum[%zu] = {", lo, ns);
        for (size_t i = 0; i < ns; i++) fprintf(f, "%s%d,", i % 12 ? " " : "\n    ", (int)wsum[i]);
        fprintf(f, "\n};\n/* model: the model's bytes, as the runtime gets them */\n#define %s_PW_PACKS(model)", up);
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%s \\\n    {(const int8_t *)(model) + %zu, %s_pw_words + %zu, %s_pw_wsum + %zu, %d, %d}", i ? "," : "",
                    es[i].offset, lo, es[i].words, lo, es[i].wsum, (int)es[i].depth, (int)es[i].channels);
        fprintf(f, "\n#endif\n\n");
    }
    free(words);
    free(wsum);
    free(es);
    return ok;
}
