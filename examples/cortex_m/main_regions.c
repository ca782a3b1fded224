/* tinyarena on a Cortex-M across two memories (build.sh --fast-region B):
 * the plan puts the hottest buffers in a small FAST region -- an array in
 * the RAM at 0x20000000, standing for the TCM or on-chip SRAM -- and the
 * rest, with the persistent part, in a large SLOW one placed by the linker
 * script in the board's PSRAM at 0x21000000 (section .psram).  Each array
 * is exactly the budget header's <P>_REGION_*_BYTES; the model, its input,
 * the plan, the op constants and the init table stay in flash.  No malloc,
 * no planner.  Prints the figures and each output as hex over semihosting,
 * then exits with 0, or 1 with the runtime's one-line diagnostic. */
#include <stdint.h>
#include <string.h>

#include "board.h"
#include "fw_io.h"
#include "model_budget.h" /* generated: tinyarena plan MODEL --region ... --header model_budget.h */
#include "model_data.h"
#include "tinyarena/runtime.h"

static _Alignas(16) uint8_t fast[MODEL_BUDGET_REGION_FAST_BYTES];
static _Alignas(16) uint8_t slow[MODEL_BUDGET_REGION_SLOW_BYTES] __attribute__((section(".psram")));
static ta_runtime rt;
static ta_diag d;

static int fail(const char *what) { return board_fail(what, d.msg); }

int main(void) {
    board_puts("tinyarena: " MODEL_DATA_NAME " on " BOARD_CPU ", FAST RAM + SLOW PSRAM\n");
    ta_runtime_options opt = ta_runtime_options_for_budget(&model_budget, MODEL_BUDGET_OPS);
    ta_runtime_use_regions(&opt, &model_budget_regions);
    ta_arena_region ar[MODEL_BUDGET_REGIONS];
    ar[MODEL_BUDGET_REGION_FAST] = (ta_arena_region){fast, sizeof fast};
    ar[MODEL_BUDGET_REGION_SLOW] = (ta_arena_region){slow, sizeof slow};
    ta_arena_breakdown b;
    const uint64_t t0 = board_ticks();
    if (ta_runtime_open(&rt, model_data, MODEL_DATA_BYTES, &opt, &d)) return fail("open");
    /* the query reads the tables (no work block): what each region needs */
    if (ta_runtime_query(&rt, NULL, 0, &b, &d)) return fail("query");
    /* FAST one byte short is refused with one line */
    ar[MODEL_BUDGET_REGION_FAST].bytes--;
    if (ta_runtime_init_regions(&rt, NULL, 0, ar, MODEL_BUDGET_REGIONS, &d) != TA_E_NO_MEMORY ||
        strncmp(d.msg, "region FAST needs ", 18) != 0) {
        board_puts("a FAST region one byte short was not refused\n");
        return 1;
    }
    ar[MODEL_BUDGET_REGION_FAST].bytes++;
    if (ta_runtime_init_regions(&rt, NULL, 0, ar, MODEL_BUDGET_REGIONS, &d)) return fail("init");
    const uint64_t t1 = board_ticks();
    if (fw_load_inputs(&rt)) return 1;
    const uint64_t t2 = board_ticks();
    if (ta_runtime_invoke(&rt, &d)) return fail("invoke");
    const uint64_t t3 = board_ticks();
    board_put_kv("arena_bytes", (uint32_t)(sizeof fast + sizeof slow));
    board_put_kv("fast_bytes", (uint32_t)sizeof fast);
    board_put_kv("slow_bytes", (uint32_t)sizeof slow);
    board_put_kv("fast_address", (uint32_t)(uintptr_t)fast);
    board_put_kv("slow_address", (uint32_t)(uintptr_t)slow);
    board_put_kv("planned_bytes", MODEL_BUDGET_BYTES);
    board_put_kv("persistent_bytes", (uint32_t)ta_runtime_breakdown(&rt)->persistent);
    board_put_kv("work_bytes", (uint32_t)ta_runtime_breakdown(&rt)->work_bytes);
    board_put_kv("init_ticks", (uint32_t)(t1 - t0));
    board_put_kv("invoke_ticks", (uint32_t)(t3 - t2));
    board_put_kv("stack_bytes", board_stack_bytes());
    board_put_kv("stack_used_bytes", board_stack_used());
    fw_put_outputs(&rt);
    board_put_kv("blob_rederived", 0);
    board_puts("done\n");
    return 0;
}
