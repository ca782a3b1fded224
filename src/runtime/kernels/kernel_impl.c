/* The process-wide choice between the fast and the reference int8 kernels
 * (kernels.h, "Kernel implementations").  A plain static: the kernels read
 * it once per call, and it only changes when a test or benchmark asks. */
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

#ifdef TA__X86_DISPATCH
bool ta__x86_avx2(void) {
    /* __builtin_cpu_supports reads what the CPU reported at start-up: cheap
     * enough to ask once per kernel call. */
    return g_impl == TA_KERNEL_IMPL_FAST && __builtin_cpu_supports("avx2");
}
#endif
