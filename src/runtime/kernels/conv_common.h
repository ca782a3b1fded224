/* Internal: shape checks shared by the convolution-like kernels. */
#ifndef TA_KERNELS_CONV_COMMON_H
#define TA_KERNELS_CONV_COMMON_H
#include "tinyarena/kernels.h"

/* Positive dims, matching batch, positive strides/dilations, padding >= 0. */
ta_status ta__conv_check(const ta_dims4 *in, const ta_dims4 *f, const ta_dims4 *out, int32_t sh,
                         int32_t sw, int32_t dh, int32_t dw, int32_t ph, int32_t pw);
#endif
