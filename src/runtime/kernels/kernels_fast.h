/* Internal: the fast int8 kernels and the reference kernels they must match.
 *
 * The public entry points (ta_kernel_conv2d_s8, ta_kernel_depthwise_conv2d_s8,
 * ta_kernel_fully_connected_s8) check their parameters once, then run the
 * fast kernel when ta__fast_ok says it applies and the reference kernel
 * otherwise (or when ta_kernel_use_impl(TA_KERNEL_IMPL_REFERENCE) asked for
 * it).  The reference kernels are the oracle: tests/test_kernels_fast.c
 * compares every fast kernel with them byte for byte.
 *
 * The fast kernels take already-checked parameters and cannot fail. */
#ifndef TA_KERNELS_FAST_H
#define TA_KERNELS_FAST_H

#include "tinyarena/kernel_link.h"
#include "tinyarena/kernels.h"

/* The implementation ta_kernel_use_impl selected (default TA_KERNEL_IMPL_FAST). */
ta_kernel_impl ta__kernel_impl(void);

/* x86-64 with GCC or Clang: each fast kernel is compiled four times -- the
 * portable C (kept for -m32 and other CPUs, and run here on request), an SSE2
 * build (intrinsics in simd_sse2.h and kernels_sse2.c: the x86-64 baseline,
 * every x86-64 CPU runs it), an SSE4.1 build and an AVX2 build (intrinsics
 * in simd_x86.h) -- and picks one at run time: with TA_KERNEL_IMPL_FAST the
 * widest the CPU has (__builtin_cpu_supports) within the cap below, with
 * TA_KERNEL_IMPL_PORTABLE the C. */
#if defined(__x86_64__) && defined(__GNUC__)
#define TA__X86_DISPATCH 1
#define TA__TARGET_AVX2 __attribute__((target("avx2")))
#define TA__TARGET_SSE41 __attribute__((target("sse4.1")))
/* The builds, as ta__x86_level returns them and ta__x86_cap takes them
 * (1 and 2 kept their meaning when SSE2 came in below them). */
#define TA__X86_PORTABLE (-1)
#define TA__X86_SSE2 0
#define TA__X86_SSE41 1
#define TA__X86_AVX2 2
/* The build to run: TA__X86_AVX2, _SSE41, _SSE2 (FAST), or _PORTABLE
 * (PORTABLE, or FAST capped at it). */
int ta__x86_level(void);
/* Caps the level FAST may pick (tests and benchmarks force each build:
 * TA__X86_SSE41 runs the SSE4.1 build on an AVX2 machine, TA__X86_SSE2 the
 * SSE2 one, TA__X86_PORTABLE the portable C); TA__X86_AVX2 (the default)
 * lets the CPU decide.  Values outside [-1, 2] are clamped. */
void ta__x86_cap(int level);
#endif
#define TA__ALWAYS_INLINE inline __attribute__((always_inline))

/* Reference kernels (TFLM's loops, int64 window sums wrapped to int32). */
void ta__conv2d_s8_ref(const ta_conv_params *p, const int8_t *input, const int8_t *filter,
                       const int32_t *bias, int8_t *output);
void ta__depthwise_conv2d_s8_ref(const ta_dwconv_params *p, const int8_t *input, const int8_t *filter,
                                 const int32_t *bias, int8_t *output);
void ta__fully_connected_s8_ref(const ta_fc_params *p, const int8_t *input, const int8_t *weights,
                                const int32_t *bias, int8_t *output);

/* Fast kernels: int32 sums, the input offset folded into per-channel weight
 * sums, requantisation inline (requant.h).  *_fast_ok: whether the fast
 * kernel covers these (checked) parameters. */
bool ta__conv2d_s8_fast_ok(const ta_conv_params *p);
/* The fast kernels' dispatchers: which variants a call needs, run through
 * the variant table (tinyarena/kernel_link.h; TA_E_UNSUPPORTED when one is
 * not linked).  a: p, input, weights, bias, output. */
ta_status ta__conv2d_s8_fast_run(ta_kernel_args *a);
ta_status ta__depthwise_conv2d_s8_fast_run(ta_kernel_args *a);
#ifdef TA__X86_DISPATCH
void ta__conv2d_s8_gen_x86(const ta_conv_params *p, const int8_t *input, const int8_t *filter, const int32_t *bias,
                           int8_t *output);
void ta__depthwise_conv2d_s8_gen_x86(const ta_dwconv_params *p, const int8_t *input, const int8_t *filter,
                                     const int32_t *bias, int8_t *output);
#endif
/* The fast kernels on all variants of the table (tests). */
void ta__conv2d_s8_fast(const ta_conv_params *p, const int8_t *input, const int8_t *filter,
                        const int32_t *bias, int8_t *output);
bool ta__depthwise_conv2d_s8_fast_ok(const ta_dwconv_params *p);
void ta__depthwise_conv2d_s8_fast(const ta_dwconv_params *p, const int8_t *input, const int8_t *filter,
                                  const int32_t *bias, int8_t *output);
/* DEPTHWISE_CONV_2D int8 in place (DWINPLACE), 3x3, depth multiplier 1,
 * channels a multiple of 4, one batch, over the checked parameters of
 * depthwise_conv2d_inplace.c: writes what its one-channel kernel writes, in
 * the same bytes, within scratch_bytes (>= out.h * out.w) of scratch, and
 * returns true; false (nothing written) when it does not apply
 * (depthwise_conv2d_s8_inplace_fast.c). */
bool ta__dwip_s8_fast(const ta_dwconv_params *p, int8_t *data, bool at_end, const int8_t *filter,
                      const int32_t *bias, int8_t *scratch, size_t scratch_bytes);
bool ta__fully_connected_s8_fast_ok(const ta_fc_params *p);
void ta__fully_connected_s8_fast(const ta_fc_params *p, const int8_t *input, const int8_t *weights,
                                 const int32_t *bias, int8_t *output);
#endif
