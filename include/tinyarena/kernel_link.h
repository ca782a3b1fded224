/*
 * tinyarena/kernel_link.h -- which kernel variants a firmware links.
 *
 * CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED each have several kernels
 * behind their op: per input type, the reference loops, the general fast
 * loops and, per CPU family, specialised paths (the Cortex-M DSP cores'
 * 1x1 pixel loops, one per channel count and requantisation, the gathered
 * small convolutions, the unrolled 3x3 depthwise; the armv6-m assembly 1x1
 * and 3x3 paths).  Which one a call takes depends only on its parameters
 * and constant operands (shapes, quantisation, weights, bias) and on the CPU
 * family, so the host knows, for every op of a model, which variants the
 * target will run.  The ops reach every variant through one table,
 * ta__kernel_variants, indexed by TA_KV_*: the library's default table
 * (a weak definition) holds all of them; a firmware defines its own with
 * TA_KERNELS_LINK(mask), and the linker (with --gc-sections) keeps only the
 * variants in mask.
 *
 * The mask of a model comes from `tinyarena plan --header` (<P>_KERNELS,
 * beside <P>_OPS): the host invokes the model once with
 * ta_kernel_variants_record on, and every kernel call adds the variants the
 * three CPU families (DSP, armv6-m, the rest) would run for its parameters.
 * A call whose variant the table lacks fails with TA_E_UNSUPPORTED (the op
 * says which kernel failed); it never runs another variant silently.
 *
 * Use (the Cortex-M example, examples/cortex_m/main.c):
 *     #include "model_budget.h"
 *     TA_KERNELS_LINK(MODEL_BUDGET_KERNELS);   // file scope, once
 */
#ifndef TINYARENA_KERNEL_LINK_H
#define TINYARENA_KERNEL_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "tinyarena/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The variants, as bit numbers of a mask.  _DSP: Cortex-M with the DSP
 * extension (__ARM_FEATURE_DSP); _M0: armv6-m; no suffix on a fast variant
 * with a family twin: every other target (x86-64, Arm64, Cortex-M3, ...).
 * Part of the header format (<P>_KERNELS): never renumber. */
enum {
    TA_KV_CONV_S8_REF = 0,   /* CONV_2D int8, TFLM's loops */
    TA_KV_CONV_S8_GEN,       /* the general fast loops (2x2 blocks) */
    TA_KV_CONV_S8_GEN_DSP,
    TA_KV_CONV_S8_GEN_M0,
    TA_KV_CONV_S8_PW_DSP,    /* 1x1 (and gathered) convolutions: channel groups, weights unpacked */
    TA_KV_CONV_S8_PW4_R0,    /* its pixel loops: 4 channels, requantisation 0..3 (conv2d_s8_pw_dsp.c) */
    TA_KV_CONV_S8_PW4_R1,
    TA_KV_CONV_S8_PW4_R2,
    TA_KV_CONV_S8_PW4_R3,
    TA_KV_CONV_S8_PW2_R0,    /* 2 channels (depths over 128) */
    TA_KV_CONV_S8_PW2_R1,
    TA_KV_CONV_S8_PW2_R2,
    TA_KV_CONV_S8_PW2_R3,
    TA_KV_CONV_S8_GATHER_DSP, /* small one-group windows gathered into the 1x1 loops */
    TA_KV_CONV_S8_PW_M0,     /* armv6-m 1x1: one pixel x 4 channels in assembly */
    TA_KV_CONV_S16,          /* CONV_2D int16 x int8, int64 bias */
    TA_KV_CONV_S16_B32,      /* int32 bias (or none) */
    TA_KV_CONV_F32,
    TA_KV_DW_S8_REF,
    TA_KV_DW_S8_GEN,
    TA_KV_DW_S8_GEN_DSP,
    TA_KV_DW_S8_GEN_M0,
    TA_KV_DW_S8_3X3_DSP,     /* 3x3, channels by 4, unrolled */
    TA_KV_DW_S8_3X3_M0,      /* 3x3 in armv6-m assembly */
    TA_KV_DW_F32,
    TA_KV_DW_S8_INPLACE,     /* over its input through a one-channel scratch (DWINPLACE) */
    TA_KV_DW_F32_INPLACE,
    TA_KV_FC_S8_REF,
    TA_KV_FC_S8_FAST,
    TA_KV_FC_F32,
    TA_KV_COUNT
};
#define TA_KV_BIT(v) (UINT32_C(1) << (v))
#define TA_KV_ALL ((uint32_t)(TA_KV_BIT(TA_KV_COUNT) - 1u))

/* A variant's arguments: the kernel's params struct, its tensors, scratch;
 * `from` the first output channel still to do; `done` (out) how many a
 * partial variant did; ctx a variant's own context. */
typedef struct ta_kernel_args {
    const void *p;
    const void *input, *weights, *bias;
    void *output;
    void *scratch;
    size_t scratch_bytes;
    int32_t from, done;
    const void *ctx;
} ta_kernel_args;
typedef ta_status ta_kernel_variant_fn(ta_kernel_args *a);

/* The table the ops call through (TA_KV_* -> variant; NULL: not linked). */
extern ta_kernel_variant_fn *const ta__kernel_variants[TA_KV_COUNT];

/* While mask is not NULL, every kernel call ORs into *mask the variants its
 * parameters need on each CPU family (hosted builds; a bare-metal build has
 * no recorder and ignores the call).  NULL stops recording. */
void ta_kernel_variants_record(uint32_t *mask);
/* "CONV_S8_PW4_R1" for TA_KV_CONV_S8_PW4_R1; NULL past TA_KV_COUNT. */
const char *ta_kernel_variant_name(unsigned v);

/* The variant functions (the library defines those of the target it is
 * built for). */
ta_kernel_variant_fn ta__kv_conv_s8_ref, ta__kv_conv_s8_gen, ta__kv_conv_s16, ta__kv_conv_s16_b32, ta__kv_conv_f32,
    ta__kv_dw_s8_ref, ta__kv_dw_s8_gen, ta__kv_dw_f32, ta__kv_dw_s8_inplace, ta__kv_dw_f32_inplace,
    ta__kv_fc_s8_ref, ta__kv_fc_s8_fast, ta__kv_fc_f32;
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
ta_kernel_variant_fn ta__kv_conv_s8_pw_dsp, ta__kv_pw4_r0, ta__kv_pw4_r1, ta__kv_pw4_r2, ta__kv_pw4_r3,
    ta__kv_pw2_r0, ta__kv_pw2_r1, ta__kv_pw2_r2, ta__kv_pw2_r3, ta__kv_conv_s8_gather, ta__kv_dw_s8_3x3;
#define TA__KV_FAMILY(m)                                                                                         \
    TA__KV_E(m, CONV_S8_GEN_DSP, ta__kv_conv_s8_gen), TA__KV_E(m, CONV_S8_PW_DSP, ta__kv_conv_s8_pw_dsp),          \
        TA__KV_E(m, CONV_S8_PW4_R0, ta__kv_pw4_r0), TA__KV_E(m, CONV_S8_PW4_R1, ta__kv_pw4_r1),                     \
        TA__KV_E(m, CONV_S8_PW4_R2, ta__kv_pw4_r2), TA__KV_E(m, CONV_S8_PW4_R3, ta__kv_pw4_r3),                     \
        TA__KV_E(m, CONV_S8_PW2_R0, ta__kv_pw2_r0), TA__KV_E(m, CONV_S8_PW2_R1, ta__kv_pw2_r1),                     \
        TA__KV_E(m, CONV_S8_PW2_R2, ta__kv_pw2_r2), TA__KV_E(m, CONV_S8_PW2_R3, ta__kv_pw2_r3),                     \
        TA__KV_E(m, CONV_S8_GATHER_DSP, ta__kv_conv_s8_gather), TA__KV_E(m, DW_S8_GEN_DSP, ta__kv_dw_s8_gen),      \
        TA__KV_E(m, DW_S8_3X3_DSP, ta__kv_dw_s8_3x3)
#elif defined(__ARM_ARCH_6M__)
ta_kernel_variant_fn ta__kv_conv_s8_pw_m0, ta__kv_dw_s8_3x3;
#define TA__KV_FAMILY(m)                                                                                         \
    TA__KV_E(m, CONV_S8_GEN_M0, ta__kv_conv_s8_gen), TA__KV_E(m, CONV_S8_PW_M0, ta__kv_conv_s8_pw_m0),            \
        TA__KV_E(m, DW_S8_GEN_M0, ta__kv_dw_s8_gen), TA__KV_E(m, DW_S8_3X3_M0, ta__kv_dw_s8_3x3)
#else
#define TA__KV_FAMILY(m) TA__KV_E(m, CONV_S8_GEN, ta__kv_conv_s8_gen), TA__KV_E(m, DW_S8_GEN, ta__kv_dw_s8_gen)
#endif

/* One table entry: the variant when its bit is in the (constant) mask, else
 * NULL -- a null constant, so the object file holds no reference to it. */
#define TA__KV_E(m, V, fn) [TA_KV_##V] = (((m) >> TA_KV_##V) & 1u) ? &fn : (ta_kernel_variant_fn *)0

/* Defines the table with the variants in mask (a constant expression, such
 * as a budget header's <P>_KERNELS); at file scope, once per program. */
#define TA_KERNELS_LINK(mask)                                                                                    \
    ta_kernel_variant_fn *const ta__kernel_variants[TA_KV_COUNT] = {                                             \
        TA__KV_E(mask, CONV_S8_REF, ta__kv_conv_s8_ref), TA__KV_E(mask, CONV_S16, ta__kv_conv_s16),                 \
        TA__KV_E(mask, CONV_S16_B32, ta__kv_conv_s16_b32), TA__KV_E(mask, CONV_F32, ta__kv_conv_f32),             \
        TA__KV_E(mask, DW_S8_REF, ta__kv_dw_s8_ref), TA__KV_E(mask, DW_F32, ta__kv_dw_f32),                         \
        TA__KV_E(mask, DW_S8_INPLACE, ta__kv_dw_s8_inplace), TA__KV_E(mask, DW_F32_INPLACE, ta__kv_dw_f32_inplace), \
        TA__KV_E(mask, FC_S8_REF, ta__kv_fc_s8_ref), TA__KV_E(mask, FC_S8_FAST, ta__kv_fc_s8_fast),                 \
        TA__KV_E(mask, FC_F32, ta__kv_fc_f32), TA__KV_FAMILY(mask)}

#ifdef __cplusplus
}
#endif
#endif
