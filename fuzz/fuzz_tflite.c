/*
 * libFuzzer target for the TFLite reader and what reads its graph: open,
 * size, import (which runs the graph validator), touch every pointer the
 * graph hands out, so ASan proves they stay inside the input; then the
 * runtime's query (import again, every op's prepare, lifetimes, a greedy
 * plan) and init in an arena capped at 4 MiB, on a read-only copy of the
 * bytes, and, when the model is cheap enough to run (invoke_cost), invoke:
 * ASan then checks prepare's promise that no kernel reads or writes a byte
 * it did not prove in bounds outside the arena, and poison mode that no
 * kernel writes over another live tensor inside it -- IF, WHILE and
 * CALL_ONCE run their subgraphs, WHILE capped at FUZZ_MAX_ITERATIONS body
 * runs.  Built by scripts/fuzz.sh.  (A fuzz target
 * may malloc.)
 *
 * Invariants checked (abort() = a finding):
 *   - a failed open/import gives a known status and a non-empty diag;
 *   - a model that opened imports, or the validator refuses it (a one-line
 *     diag starting "subgraph ");
 *   - accessors agree with the graph;
 *   - query and init succeed or fail with a non-empty one-line diag and a
 *     status that is not the caller's fault (INVALID_ARG, STATE).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tinyarena/runtime.h"
#include "tinyarena/tflite.h"

static volatile unsigned sink;

static void touch(const void *p, size_t n) {
    if (!p || !n) return;
    const unsigned char *b = p;
    sink += b[0] + b[n - 1];
}

static void require(int cond) {
    if (!cond) abort();
}

static void require_clean(ta_status st, const ta_diag *d) {
    if (st == TA_OK) return;
    if (st == TA_E_INVALID_ARG || st == TA_E_STATE || d->msg[0] == '\0' || strchr(d->msg, '\n')) {
        fprintf(stderr, "finding: %s: %s\n", ta_status_str(st), d->msg);
        abort();
    }
}

/* The runtime on what parses: query (prepare of every op) and init, with
 * work and arena capped so that a model asking for gigabytes is a clean
 * refusal here, not an out-of-memory of the fuzzer. */
static int inside(const ta_io *io, const void *base, size_t bytes) {
    const char *p = io->data, *b = base;
    return p >= b && io->bytes <= bytes && p - b <= (ptrdiff_t)(bytes - io->bytes);
}

/* An upper bound on the kernels' work: per op of every subgraph, its
 * output elements times (1 + all its input elements).  No kernel here does
 * more steps (a conv's work per output element is its filter, an input).
 * With a WHILE, every op may run once per iteration: times the cap
 * (FUZZ_MAX_ITERATIONS, the runtime's max_iterations here). */
#define FUZZ_MAX_ITERATIONS 64u
static uint64_t invoke_cost(const ta_graph *g) {
    uint64_t cost = 0;
    bool loops = false;
    for (uint32_t k = 0; k < g->n_ops && cost <= ((uint64_t)1 << 40); k++) {
        const ta_op *op = &g->ops[k];
        loops = loops || op->kind == TA_OP_WHILE;
        uint64_t in = 1, out = 0;
        for (uint32_t j = 0; j < op->n_inputs; j++) {
            const ta_tensor *t = ta_graph_tensor(g, op->subgraph, op->inputs[j]);
            if (t) in += ta_tensor_elements(t) > (1u << 30) ? (1u << 30) : ta_tensor_elements(t);
        }
        for (uint32_t j = 0; j < op->n_outputs; j++) {
            const ta_tensor *t = ta_graph_tensor(g, op->subgraph, op->outputs[j]);
            if (t) out += ta_tensor_elements(t) > (1u << 30) ? (1u << 30) : ta_tensor_elements(t);
        }
        cost += in * (out ? out : 1);
    }
    return loops ? cost * (FUZZ_MAX_ITERATIONS + 1) : cost;
}

static void run_query_init(const unsigned char *model, size_t size, int invoke) {
    const size_t cap = (size_t)4 << 20;
    /* the bytes as firmware has them: a read-only page copy (a write faults) */
    void *ro = mmap(NULL, size ? size : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    require(ro != MAP_FAILED);
    if (size) memcpy(ro, model, size);
    require(mprotect(ro, size ? size : 1, PROT_READ) == 0);
    const unsigned char *bytes = ro;
    ta_runtime_options opt = ta_runtime_options_default();
    require(ta_runtime_use_strategy(&opt, "greedy") == TA_OK);
    /* Poison mode when invoking: a kernel writing outside its output inside
     * the arena (where ASan cannot see) clobbers a live tensor's checksum,
     * and invoke says so with TA_E_OVERLAP: a finding. */
    opt.poison = invoke != 0;
    /* WHILE: a loop that does not end stops at the cap (TA_E_TIMEOUT, one line) */
    opt.max_iterations = FUZZ_MAX_ITERATIONS;
    ta_runtime rt;
    ta_diag d;
    ta_status st = ta_runtime_open(&rt, bytes, size, &opt, &d);
    require(st == TA_OK); /* the reader already accepted these bytes */
    size_t wb = ta_runtime_work_bytes(&rt);
    if (wb > cap) {
        munmap(ro, size ? size : 1);
        return;
    }
    void *work = malloc(wb ? wb : 1);
    ta_arena_breakdown b;
    memset(&b, 0, sizeof b);
    st = ta_runtime_query(&rt, work, wb, &b, &d);
    if (st == TA_E_NO_MEMORY && b.work_bytes > wb && b.work_bytes <= cap) {
        free(work);
        wb = b.work_bytes;
        work = malloc(wb);
        st = ta_runtime_query(&rt, work, wb, &b, &d);
    }
    require_clean(st, &d);
    if (st == TA_OK && b.total <= cap) {
        void *arena = malloc(b.total ? b.total : 1);
        st = ta_runtime_init(&rt, work, wb, arena, b.total, &d);
        require_clean(st, &d);
        if (st == TA_OK && invoke) {
            ta_status ist = ta_runtime_invoke(&rt, &d);
            if (ist == TA_E_OVERLAP) {
                fprintf(stderr, "finding: %s\n", d.msg);
                abort();
            }
            require_clean(ist, &d);
        }
        if (st == TA_OK) {
            /* every input and output lies inside the arena (or, for a
             * constant, the model bytes) */
            for (uint32_t k = 0; k < ta_runtime_input_count(&rt); k++) {
                const ta_io *io = ta_runtime_input(&rt, k);
                require(io && (!io->bytes || inside(io, arena, b.total) || inside(io, bytes, size)));
            }
            for (uint32_t k = 0; k < ta_runtime_output_count(&rt); k++) {
                const ta_io *io = ta_runtime_output(&rt, k);
                require(io && (!io->bytes || inside(io, arena, b.total) || inside(io, bytes, size)));
            }
        }
        free(arena);
    }
    free(work);
    munmap(ro, size ? size : 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* An exact-size, malloc-aligned copy: reads past the end are caught. */
    unsigned char *bytes = malloc(size ? size : 1);
    if (!bytes) return 0;
    if (size) memcpy(bytes, data, size);

    ta_tflite_model m;
    ta_diag d;
    ta_status st = ta_tflite_open(&m, bytes, size, &d);
    if (st != TA_OK) {
        require(st == TA_E_MALFORMED || st == TA_E_UNSUPPORTED);
        require(d.msg[0] != '\0');
        free(bytes);
        return 0;
    }
    ta_graph_limits lim;
    require(ta_tflite_graph_limits(&m, &lim) == TA_OK);
    size_t need = ta_graph_bytes(&lim);
    require(need > 0);
    void *block = malloc(need);
    require(block != NULL);
    ta_graph g;
    require(ta_graph_init(&g, &lim, block, need) == TA_OK);
    st = ta_tflite_import(&m, &g, &d);
    if (st != TA_OK) {
        require(st == TA_E_MALFORMED && strncmp(d.msg, "subgraph ", 9) == 0 && !strchr(d.msg, '\n'));
        free(block);
        free(bytes);
        return 0;
    }
    require(ta_graph_validate(&g, &d) == TA_OK);
    require(g.n_tensors == lim.tensors && g.n_ops == lim.ops && g.n_subgraphs == lim.subgraphs);

    for (uint32_t i = 0; i < g.n_tensors; i++) {
        const ta_tensor *t = &g.tensors[i];
        touch(t->name, strlen(t->name) + 1);
        touch(t->data, t->data_bytes);
        if (t->quant.count) {
            /* Typed loads, so UBSan checks their alignment too. */
            float f = t->quant.scale[t->quant.count - 1];
            touch(&f, sizeof f);
            if (t->quant.zero_point) {
                int64_t z = t->quant.zero_point[t->quant.count - 1];
                touch(&z, sizeof z);
            }
            require(t->quant.axis >= 0 && (t->quant.count == 1 || t->quant.axis < t->rank));
        }
    }
    for (uint32_t k = 0; k < g.n_ops; k++) {
        const ta_op *op = &g.ops[k];
        if (op->custom_name) touch(op->custom_name, strlen(op->custom_name) + 1);
        touch(op->custom_data, op->custom_data_bytes);
        require(op->kind != TA_OP_CUSTOM || op->custom_name != NULL);
    }
    touch(g.name, strlen(g.name) + 1);

    ta_tflite_info info;
    require(ta_tflite_get_info(&m, &info) == TA_OK);
    for (uint32_t i = 0; i < info.metadata; i++) {
        const char *name;
        const void *md;
        size_t mb;
        require(ta_tflite_metadata(&m, i, &name, &md, &mb) == TA_OK);
        touch(name, strlen(name) + 1);
        touch(md, mb);
    }
    for (uint32_t s = 0; s < info.subgraphs; s++) {
        uint32_t nt = 0, no = 0;
        require(ta_tflite_subgraph_size(&m, s, &nt, &no) == TA_OK);
        require(nt == g.subgraphs[s].n_tensors && no == g.subgraphs[s].n_ops);
        const int32_t *off;
        uint32_t n;
        st = ta_tflite_offline_offsets(&m, s, &off, &n);
        require(st == TA_OK || st == TA_E_NOT_FOUND);
        if (st == TA_OK) {
            require(info.has_offline_offsets && n == nt);
            touch(off, n * sizeof *off);
        }
    }
    const int invoke = invoke_cost(&g) <= 20000000u;
    free(block);
    run_query_init(bytes, size, invoke);
    free(bytes);
    return 0;
}
