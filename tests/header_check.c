/* Compiled by tests/header_check.sh against a header emitted by
 * `tinyarena plan MODEL --header`: checks every entry of the budget table
 * against the library's own plan of the same model. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include TA_HEADER
#include "tinyarena/lifetime.h"
#include "tinyarena/plan.h"
#include "tinyarena/runtime.h"
#include "tinyarena/tflite.h"

#define FAIL(...) (fprintf(stderr, "header_check: " __VA_ARGS__), fputc('\n', stderr), exit(1))

int main(int argc, char **argv) {
    const ta_budget *b = &TA_BUDGET;
    if (argc < 2) FAIL("usage: header_check MODEL.tflite");
    FILE *f = fopen(argv[1], "rb");
    if (!f) FAIL("cannot open %s", argv[1]);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    unsigned char *bytes = aligned_alloc(16, ((size_t)len + 15) & ~(size_t)15);
    if (fread(bytes, 1, (size_t)len, f) != (size_t)len) FAIL("read");
    fclose(f);
    if (ta_budget_hash(bytes, (size_t)len) != b->model_hash) FAIL("model hash differs from the header's");
    ta_tflite_model m;
    ta_diag d;
    if (ta_tflite_open(&m, bytes, (size_t)len, &d)) FAIL("%s", d.msg);
    ta_graph_limits lim;
    ta_tflite_graph_limits(&m, &lim);
    size_t need = ta_graph_bytes(&lim);
    void *gm = malloc(need);
    ta_graph g;
    if (ta_graph_init(&g, &lim, gm, need) || ta_tflite_import(&m, &g, &d)) FAIL("import: %s", d.msg);
    /* the runtime's kernel scratch requests, when it can run the model */
    size_t n_scratch = 0;
    ta_scratch_request *scratch = NULL;
    if (ta_runtime_scratch_requests(&g, NULL, 0, &n_scratch, &d) == TA_OK && n_scratch) {
        scratch = calloc(n_scratch, sizeof *scratch);
        ta_runtime_scratch_requests(&g, scratch, n_scratch, &n_scratch, &d);
    } else {
        n_scratch = 0;
    }
    need = ta_lifetime_bytes(&g, n_scratch);
    void *lm = malloc(need);
    ta_lifetimes lt;
    if (ta_lifetime_analyze(&g, scratch, n_scratch, lm, need, &lt, &d)) FAIL("lifetimes: %s", d.msg);
    /* under the header's alignment rule, with the op modules' declarations */
    ta_lifetime_options lo;
    memset(&lo, 0, sizeof lo);
    if (!ta_align_rule_decode(b->align_rule, &lo.rule)) FAIL("alignment rule 0x%x is not a rule", b->align_rule);
    uint32_t *talign = calloc(g.n_tensors + 1, sizeof *talign);
    if (ta_runtime_operand_align(&g, talign, g.n_tensors, &d)) FAIL("%s", d.msg);
    lo.tensor_align = talign;
    lo.n_tensor_align = g.n_tensors;
    size_t n;
    ta_lifetime_requests(&g, &lt, &lo, NULL, NULL, 0, &n, &d);
    ta_request *reqs = calloc(n, sizeof *reqs);
    ta_buffer_origin *org = calloc(n, sizeof *org);
    ta_lifetime_requests(&g, &lt, &lo, reqs, org, n, &n, &d);
    const ta_strategy *s = ta_strategy_find(b->strategy);
    if (!s) FAIL("unknown strategy %s", b->strategy);
    ta_plan_scratch_bytes(s, reqs, n, NULL, &need);
    void *sc = malloc(need);
    size_t *off = calloc(n, sizeof *off);
    ta_plan_result r;
    if (ta_plan_run(s, reqs, n, NULL, sc, need, off, &r, &d)) FAIL("plan: %s", d.msg);
    if (b->count != n) FAIL("count %u, library %zu", b->count, n);
    if (b->arena_bytes != r.arena_bytes) FAIL("arena %u, library %zu", b->arena_bytes, r.arena_bytes);
    for (size_t i = 0; i < n; i++) {
        const ta_budget_entry *e = &b->entries[i];
        bool tensor = org[i].kind == TA_BUFFER_TENSOR;
        uint32_t idx = tensor ? (uint32_t)g.tensors[org[i].index].index : org[i].index;
        uint32_t sg = tensor ? g.tensors[org[i].index].subgraph : scratch[org[i].index].subgraph;
        if (e->offset != off[i] || e->size != ta_request_padded(&reqs[i]) || e->first != reqs[i].first || e->last != reqs[i].last ||
            e->index != idx || e->subgraph != sg || e->kind != (tensor ? TA_BUDGET_TENSOR : TA_BUDGET_SCRATCH))
            FAIL("entry %zu differs: header offset %u size %u, library offset %zu size %zu", i, e->offset, e->size,
                 off[i], reqs[i].size);
        /* each at its own alignment, which the arena start's covers */
        if (e->offset % reqs[i].align || b->align % reqs[i].align) FAIL("entry %zu misaligned", i);
    }
    char rn[32];
    printf("header_check: %s (%s, alignment rule %s): %u entries (%zu scratch), planned %u B match the library's plan\n",
           b->model_name, b->strategy, ta_align_rule_str(lo.rule, rn, sizeof rn), b->count, n_scratch, b->arena_bytes);
    free(talign);
    free(scratch);
    free(bytes);
    free(gm);
    free(lm);
    free(reqs);
    free(org);
    free(sc);
    free(off);
    return 0;
}
