/* A firmware image linked against tinyarena::runtime only (cross build):
 * the plan comes from a table, so no planner code is needed.  It is linked,
 * not run (tests/cortex_m.sh runs real firmware under QEMU). */
#include <stdint.h>

#include "tinyarena/runtime.h"

extern const unsigned char g_model[];
extern const unsigned int g_model_len;
const unsigned char g_model[16] = {0};
const unsigned int g_model_len = sizeof g_model;
static unsigned char arena[4096] __attribute__((aligned(16)));
static const uint32_t offsets[1] = {0};

int main(void) {
    ta_runtime rt;
    ta_diag d;
    ta_runtime_options opt = ta_runtime_options_default();
    const ta_plan_table table = {offsets, 1, 16};
    ta_runtime_use_table(&opt, &table);
    if (ta_runtime_open(&rt, g_model, g_model_len, &opt, &d)) return 1;
    static unsigned char work[8192] __attribute__((aligned(16)));
    ta_arena_breakdown b;
    if (ta_runtime_query(&rt, work, sizeof work, &b, &d)) return 1;
    if (ta_runtime_init(&rt, work, sizeof work, arena, sizeof arena, &d)) return 1;
    return ta_runtime_invoke(&rt, &d) ? 1 : 0;
}
