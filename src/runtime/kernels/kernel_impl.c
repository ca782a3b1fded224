/* The process-wide choice between the fast and the reference int8 kernels
 * (kernels.h, "Kernel implementations").  A plain static: the kernels read
 * it once per call, and it only changes when a test or benchmark asks. */
#include "runtime/kernels/kernel_variants.h"
#include "runtime/kernels/kernels_fast.h"

/* A build can start from another choice (-DTA_KERNEL_IMPL_DEFAULT=...): the
 * Cortex-M firmware measures the reference loops that way (build.sh,
 * TA_MCU_KERNELS=reference). */
#ifndef TA_KERNEL_IMPL_DEFAULT
#define TA_KERNEL_IMPL_DEFAULT TA_KERNEL_IMPL_FAST
#endif
static ta_kernel_impl g_impl = TA_KERNEL_IMPL_DEFAULT;

ta_status ta_kernel_use_impl(ta_kernel_impl impl) {
    if (impl != TA_KERNEL_IMPL_FAST && impl != TA_KERNEL_IMPL_REFERENCE && impl != TA_KERNEL_IMPL_PORTABLE)
        return TA_E_INVALID_ARG;
    g_impl = impl;
    return TA_OK;
}

ta_kernel_impl ta__kernel_impl(void) { return g_impl; }

#if TA__KV_RECORD
/* The host's recorder (kernel_link.h): a plain static like g_impl; only
 * `plan --header` and tests turn it on, around one invoke. */
static uint32_t *g_kv_rec;
uint32_t *ta__kv_recorder(void) { return g_kv_rec; }
void ta_kernel_variants_record(uint32_t *mask) { g_kv_rec = mask; }
#else
void ta_kernel_variants_record(uint32_t *mask) { (void)mask; }
#endif

const char *ta_kernel_variant_name(unsigned v) {
    static const char *const k_names[TA_KV_COUNT] = {
        "CONV_S8_REF", "CONV_S8_GEN", "CONV_S8_GEN_DSP", "CONV_S8_GEN_M0", "CONV_S8_PW_DSP", "CONV_S8_PW4_R0",
        "CONV_S8_PW4_R1", "CONV_S8_PW4_R2", "CONV_S8_PW4_R3", "CONV_S8_PW2_R0", "CONV_S8_PW2_R1", "CONV_S8_PW2_R2",
        "CONV_S8_PW2_R3", "CONV_S8_GATHER_DSP", "CONV_S8_PW_M0", "CONV_S16", "CONV_S16_B32", "CONV_F32",
        "DW_S8_REF", "DW_S8_GEN", "DW_S8_GEN_DSP", "DW_S8_GEN_M0", "DW_S8_3X3_DSP", "DW_S8_3X3_M0", "DW_F32",
        "DW_S8_INPLACE", "DW_F32_INPLACE", "FC_S8_REF", "FC_S8_FAST", "FC_F32"};
    return v < TA_KV_COUNT ? k_names[v] : NULL;
}

#ifdef TA__X86_DISPATCH
static int g_cap = TA__X86_AVX2;

void ta__x86_cap(int level) {
    g_cap = level < TA__X86_PORTABLE ? TA__X86_PORTABLE : level > TA__X86_AVX2 ? TA__X86_AVX2 : level;
}

int ta__x86_level(void) {
    /* __builtin_cpu_supports reads what the CPU reported at start-up: cheap
     * enough to ask once per kernel call.  __builtin_cpu_init (a no-op once
     * done) makes it right even when called from a static constructor. */
    if (g_impl != TA_KERNEL_IMPL_FAST || g_cap == TA__X86_PORTABLE) return TA__X86_PORTABLE;
    __builtin_cpu_init();
    if (g_cap >= TA__X86_AVX2 && __builtin_cpu_supports("avx2")) return TA__X86_AVX2;
    if (g_cap >= TA__X86_SSE41 && __builtin_cpu_supports("sse4.1")) return TA__X86_SSE41;
    return TA__X86_SSE2; /* the x86-64 baseline: every x86-64 CPU has it */
}
#endif
