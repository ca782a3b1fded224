/* Internal: per-element arithmetic shared by ADD and SUB. */
#ifndef TA_KERNELS_BINARY_COMMON_H
#define TA_KERNELS_BINARY_COMMON_H
#include "tinyarena/kernels.h"

/* One quantised ADD (negate = 0) or SUB (negate = 1) element, clamped. */
int32_t ta__addsub_q(const ta_addsub_params *p, int32_t x, int32_t y, int negate);
#endif
