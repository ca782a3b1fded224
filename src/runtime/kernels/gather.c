/*
 * GATHER, GATHER_ND and EMBEDDING_LOOKUP: TFLM's copies of rows picked by
 * index tensors.  The indices are data, not shape: prepare cannot prove them
 * in range, so every index is checked here before the row it names is read
 * (TFLM only DCHECKs GATHER's; GATHER_ND checks the flat position, which is
 * what is reproduced: an index past its own dim that still lands inside the
 * params reads what TFLM reads).
 */
#include <string.h>

#include "tinyarena/kernels.h"

/* Index k of an int32 or int64 index tensor (any alignment of the element
 * size is all the runtime promises: read through memcpy). */
static int64_t idx_at(const void *indices, int32_t size, int64_t k) {
    if (size == 8) {
        int64_t v;
        memcpy(&v, (const uint8_t *)indices + (size_t)k * 8u, 8);
        return v;
    }
    int32_t v;
    memcpy(&v, (const uint8_t *)indices + (size_t)k * 4u, 4);
    return v;
}

ta_status ta_kernel_gather(const ta_gather_params *p, const void *params, const void *indices, void *output) {
    /* params may be empty (no address): then every index is out of range */
    if (!p || !indices || !output || (p->idx_size != 4 && p->idx_size != 8) || p->batch < 0 ||
        p->outer < 0 || p->n_idx < 0 || p->inner_bytes < 0 || p->axis_size < 0)
        return TA_E_INVALID_ARG;
    const uint8_t *src = (const uint8_t *)params;
    uint8_t *dst = (uint8_t *)output;
    const size_t row = (size_t)p->inner_bytes;
    for (int64_t b = 0; b < p->batch; b++)
        for (int64_t o = 0; o < p->outer; o++)
            for (int64_t i = 0; i < p->n_idx; i++) {
                const int64_t v = idx_at(indices, p->idx_size, b * p->n_idx + i);
                if (v < 0 || v >= p->axis_size) return TA_E_OUT_OF_RANGE;
                const int64_t from = ((b * p->outer + o) * p->axis_size + v);
                const int64_t to = ((b * p->outer + o) * p->n_idx + i);
                if (row) memcpy(dst + (size_t)to * row, src + (size_t)from * row, row);
            }
    return TA_OK;
}

ta_status ta_kernel_gather_nd(const ta_gather_nd_params *p, const void *params, const void *indices, void *output) {
    if (!p || !indices || !output || p->nd < 1 || p->nd > TA_KERNEL_MAX_GATHER_ND ||
        (p->idx_size != 4 && p->idx_size != 8) || p->elem_size < 1 || p->n_slices < 0 || p->slice_elems < 0 ||
        p->total_elems < p->slice_elems)
        return TA_E_INVALID_ARG;
    const size_t es = (size_t)p->elem_size, slice = (size_t)p->slice_elems * es;
    for (int64_t i = 0; i < p->n_slices; i++) {
        int64_t pos = 0;
        for (int32_t j = 0; j < p->nd; j++) {
            const int64_t v = idx_at(indices, p->idx_size, i * p->nd + j);
            /* |v| < 2^63 / stride is not given: clamp before multiplying so
             * a hostile index cannot overflow the int64 position */
            if (v < -p->total_elems || v > p->total_elems) return TA_E_OUT_OF_RANGE;
            pos += v * p->strides[j];
        }
        if (pos < 0 || pos > p->total_elems - p->slice_elems) return TA_E_OUT_OF_RANGE;
        if (slice) memcpy((uint8_t *)output + (size_t)i * slice, (const uint8_t *)params + (size_t)pos * es, slice);
    }
    return TA_OK;
}

ta_status ta_kernel_embedding_lookup(const ta_embedding_params *p, const int32_t *ids, const void *value,
                                     void *output) {
    if (!p || !ids || !output || p->n_ids < 0 || p->rows < 0 || p->row_elems < 0 || p->elem_size < 1)
        return TA_E_INVALID_ARG;
    const size_t in_row = (size_t)p->row_elems * (size_t)p->elem_size;
    for (int32_t i = 0; i < p->n_ids; i++) {
        int32_t id;
        memcpy(&id, &ids[i], sizeof id);
        if (id < 0 || id >= p->rows) return TA_E_OUT_OF_RANGE;
        if (p->dequant) {
            const int8_t *q = (const int8_t *)value + (size_t)id * (size_t)p->row_elems;
            float *o = (float *)output + (size_t)i * (size_t)p->row_elems;
            for (int64_t k = 0; k < p->row_elems; k++) o[k] = p->scale * (float)q[k];
        } else if (in_row) {
            memcpy((uint8_t *)output + (size_t)i * in_row, (const uint8_t *)value + (size_t)id * in_row, in_row);
        }
    }
    return TA_OK;
}
