/* The bytes each planned buffer's ops read and write: the per-buffer weight
 * of planning across memory regions (regions.h), counted from the graph so
 * that the planning core stays format-free. */
#include <string.h>

#include "tinyarena/lifetime.h"

/* Every op reads each of its inputs once and writes each output once: a
 * kernel that walks an operand several times (a conv's input under its
 * window) is not modelled -- the count orders buffers by how hot they are,
 * it does not predict a bus. */
ta_status ta_lifetime_access_bytes(const ta_graph *g, const ta_buffer_origin *origin, const ta_request *reqs, size_t n,
                                   const int32_t *buffer_of, size_t n_buffer_of, uint64_t *tensor_work,
                                   uint64_t *weight, ta_diag *diag) {
    if (!g || (n && (!origin || !reqs || !weight)) || (!tensor_work && g->n_tensors))
        return ta_diag_set(diag, TA_E_INVALID_ARG, "access bytes: NULL argument");
    if (buffer_of && n_buffer_of != g->n_tensors)
        return ta_diag_set(diag, TA_E_INVALID_ARG, "access bytes: %zu buffer_of entries for %u tensors", n_buffer_of,
                           g->n_tensors);
    memset(tensor_work, 0, (size_t)g->n_tensors * sizeof *tensor_work);
    for (uint32_t o = 0; o < g->n_ops; o++) {
        const ta_op *op = &g->ops[o];
        if (op->subgraph >= g->n_subgraphs) continue;
        const ta_subgraph *sg = &g->subgraphs[op->subgraph];
        for (int io = 0; io < 2; io++) {
            const int32_t *ix = io ? op->outputs : op->inputs;
            uint32_t k = io ? op->n_outputs : op->n_inputs;
            for (uint32_t j = 0; j < k; j++) {
                if (ix[j] < 0 || (uint32_t)ix[j] >= sg->n_tensors) continue;
                uint32_t t = sg->tensor_base + (uint32_t)ix[j];
                uint64_t b = g->tensors[t].bytes;
                tensor_work[t] = tensor_work[t] > UINT64_MAX - b ? UINT64_MAX : tensor_work[t] + b;
            }
        }
    }
    /* a shared buffer (rewrite.h) is accessed through every member */
    if (buffer_of)
        for (uint32_t t = 0; t < g->n_tensors; t++) {
            int32_t r = buffer_of[t];
            if (r < 0 || (uint32_t)r >= g->n_tensors || (uint32_t)r == t) continue;
            uint64_t b = tensor_work[t];
            tensor_work[r] = tensor_work[r] > UINT64_MAX - b ? UINT64_MAX : tensor_work[r] + b;
        }
    for (size_t i = 0; i < n; i++) {
        if (origin[i].kind == TA_BUFFER_SCRATCH) {
            /* written and read back by its one op */
            weight[i] = (uint64_t)reqs[i].size * 2;
        } else if (origin[i].index < g->n_tensors) {
            weight[i] = tensor_work[origin[i].index];
        } else {
            return ta_diag_set(diag, TA_E_INVALID_ARG, "access bytes: buffer %zu names tensor %u of %u", i,
                               origin[i].index, g->n_tensors);
        }
    }
    return TA_OK;
}
