/*
 * SPLIT, SPLIT_V and UNPACK: TFLM's split loops (one input cut along an
 * axis into consecutive runs).  The params are CONCATENATION's, read the
 * other way round: per outer step, output k takes the next copy_bytes[k]
 * bytes of the input.
 */
#include <string.h>

#include "tinyarena/kernels.h"

ta_status ta_kernel_split(const ta_concat_params *p, const void *input, void *const *outputs) {
    if (!p || !input || !outputs || p->n_inputs < 1 || !p->copy_bytes || p->outer < 0) return TA_E_INVALID_ARG;
    const uint8_t *in = (const uint8_t *)input;
    for (int32_t k = 0; k < p->n_inputs; k++)
        if (!outputs[k] || p->copy_bytes[k] < 0) return TA_E_INVALID_ARG;
    for (int64_t o = 0; o < p->outer; o++)
        for (int32_t k = 0; k < p->n_inputs; k++) {
            const size_t n = (size_t)p->copy_bytes[k];
            /* outputs are distinct tensors: output k's o-th run sits at o * n */
            if (n) memcpy((uint8_t *)outputs[k] + (size_t)o * n, in, n);
            in += n;
        }
    return TA_OK;
}
