/* The library's default variant table: every variant of the target the
 * library is built for (tinyarena/kernel_link.h).  Weak, and alone in its
 * object file: a firmware that defines its own table with TA_KERNELS_LINK
 * never pulls this file, so none of the variants it names gets linked. */
#include "tinyarena/kernel_link.h"

__attribute__((weak)) TA_KERNELS_LINK(TA_KV_ALL);
