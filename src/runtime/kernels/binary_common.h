/* Internal: what ADD, SUB and MUL share.  Each walks the output in order with
 * the broadcast walker (ta__bcast_iter, fixedpoint.h) and reads an element's
 * two inputs before it writes the output element. */
#ifndef TA_KERNELS_BINARY_COMMON_H
#define TA_KERNELS_BINARY_COMMON_H
#include "tinyarena/kernels.h"

typedef enum { TA__BIN_ADD, TA__BIN_SUB, TA__BIN_MUL } ta__binop;

/* ADD/SUB's prepare (add.c); float_ratios: SUB's three real multipliers
 * computed in float, as TFLM's SUB does (see ta_sub_prepare). */
ta_status ta__addsub_prepare(ta_addsub_params *p, ta_dtype type, float s1, int32_t zp1, float s2, int32_t zp2,
                             float s_out, int32_t zp_out, ta_activation act, int float_ratios);

/* Quantised ADD (negate = 0) or SUB (negate = 1) over int8 (wide = 0) or
 * int16 (wide = 1) tensors (add.c). */
ta_status ta__addsub_q_run(const ta_addsub_params *p, int negate, int wide, const void *in1, const void *in2,
                           void *out);

/* float32 ADD, SUB or MUL: in1 op in2, clamped to [act_min, act_max] (add.c). */
ta_status ta__binary_f32(const ta_broadcast *shape, ta__binop op, float act_min, float act_max, const float *in1,
                         const float *in2, float *out);
#endif
