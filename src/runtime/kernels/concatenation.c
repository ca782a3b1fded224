/*
 * CONCATENATION for any element size: TFLM reference_ops::Concatenation.
 * With `outer` = product of the dims before the axis, the output is, for
 * each outer index, input 0's block, then input 1's block, ... where a block
 * is (axis extent * inner) elements.  Steps and blocks go in that order,
 * forward (the overlap walk.h's ta_walk_concat permits relies on it).
 */
#include <string.h>

#include "tinyarena/kernels.h"

ta_status ta_kernel_concatenation(const ta_concat_params *p, const void *const *inputs,
                                  void *output) {
    if (!p || !inputs || !output || p->n_inputs < 1 || p->outer < 0 || !p->copy_bytes)
        return TA_E_INVALID_ARG;
    int64_t row = 0;
    for (int32_t k = 0; k < p->n_inputs; k++) {
        if (p->copy_bytes[k] < 0 || (p->copy_bytes[k] && !inputs[k])) return TA_E_INVALID_ARG;
        row += p->copy_bytes[k];
    }
    uint8_t *out = (uint8_t *)output;
    for (int64_t o = 0; o < p->outer; o++) {
        for (int32_t k = 0; k < p->n_inputs; k++) {
            const size_t nb = (size_t)p->copy_bytes[k];
            /* an input its producer wrote straight into its slice (the CONCAT
             * rewrite) is already there; one input may overlap the output
             * under the OVERLAP rewrite's relation (walk.h ta_walk_concat):
             * its block can overlap its own destination, hence memmove */
            const uint8_t *src = (const uint8_t *)inputs[k] + (size_t)o * nb;
            if (nb && src != out) memmove(out, src, nb);
            out += nb;
        }
    }
    (void)row;
    return TA_OK;
}
