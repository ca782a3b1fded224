/* The op list of a budget header (<P>_OPS): the op definitions the model's
 * graph needs, so that firmware links only their kernels. */
#include "emit_header.h"

#include <stdio.h>

#include "cli.h"
#include "tinyarena/kernel_link.h"
#include "tinyarena/ops.h"

void emit_ops(FILE *f, const ta_graph *g, const char *lo, const char *up) {
    const ta_op_def *defs[256];
    size_t n = 0;
    ta_diag d;
    /* every definition is at most once in ta_op_list_all: 256 is room for all */
    if (ta_op_list_needed(&ta_op_list_all, g, defs, sizeof defs / sizeof defs[0], &n, &d) != TA_OK) return;
    fprintf(f, "/* The ops this model runs (tinyarena/ops.h): firmware that opens the runtime\n"
               " * with ta_runtime_options_for_ops(%s_OPS) links only their kernels. */\n", up);
    fprintf(f, "#include \"tinyarena/ops.h\"\n");
    fprintf(f, "#define %s_OPS_COUNT %zuu\n", up, n);
    fprintf(f, "static const ta_op_def *const %s_op_defs[%s_OPS_COUNT] = {", lo, up);
    for (size_t k = 0; k < n; k++) fprintf(f, "%s\n    &ta_op_%s", k ? "," : "", ta_op_def_name(defs[k]));
    fprintf(f, "};\n");
    fprintf(f, "static const ta_op_list %s_ops = {%s_op_defs, %s_OPS_COUNT, false};\n", lo, lo, up);
    fprintf(f, "#define %s_OPS (&%s_ops)\n\n", up, lo);
}

void emit_kernels(FILE *f, uint32_t mask, const char *up) {
    fprintf(f, "/* The kernel variants its ops call, on each CPU family (tinyarena/kernel_link.h):\n"
               " * firmware that defines TA_KERNELS_LINK(%s_KERNELS) links only these. */\n", up);
    fprintf(f, "#include \"tinyarena/kernel_link.h\"\n");
    fprintf(f, "#define %s_KERNELS 0x%08xu /*", up, mask);
    for (unsigned v = 0; v < TA_KV_COUNT; v++)
        if (mask >> v & 1u) fprintf(f, " %s", ta_kernel_variant_name(v));
    fprintf(f, " */\n\n");
}
