/* tinyarena on a Cortex-M: the model, its input, the budget table, the op
 * constants and the init table are all in flash; the only RAM is one static arena of exactly
 * the budget header's size, the stack, and the runtime handle.  No malloc,
 * no planner, no file system.  Prints the arena and timing figures and each
 * output as hex over semihosting (a UART on a real board), then exits with
 * 0, or 1 with the runtime's one-line diagnostic. */
#include <stdint.h>
#include <string.h>

#include "board.h"
#include "fw_io.h"
#include "model_budget.h" /* generated: tinyarena plan MODEL --header model_budget.h */
#include "model_data.h"   /* generated: the model and input bytes, const, 16-byte aligned */
#include "tinyarena/runtime.h"

/* The kernel variants the model's ops call (tinyarena/kernel_link.h): the
 * linker keeps those and drops the other variants of its ops.  A build on
 * another default implementation (build.sh TA_MCU_KERNELS=reference) keeps
 * them all. */
#ifdef TA_KERNEL_IMPL_DEFAULT
TA_KERNELS_LINK(TA_KV_ALL);
#else
TA_KERNELS_LINK(MODEL_BUDGET_KERNELS);
#endif

/* The 1x1 convolutions' weights pre-unpacked in flash (tinyarena/pw_pack.h):
 * the header has them on the DSP cores unless the build defines
 * MODEL_BUDGET_NO_PW_PACKS (build.sh --no-pw-packs). */
#ifdef MODEL_BUDGET_PW_PACKS
static const ta_pw_pack pw_packs[] = {MODEL_BUDGET_PW_PACKS(model_data)};
TA_PW_PACKS_LINK(pw_packs);
#endif

static uint8_t arena[MODEL_BUDGET_ARENA_BYTES];
static ta_runtime rt;
static ta_diag d;

static int fail(const char *what) { return board_fail(what, d.msg); }

#ifdef TA_EXAMPLE_REDERIVE
/* The op constants blob re-derived on this target, record by record: the
 * work-block path (a const blob without the init table) imports the model
 * and runs every op's prepare, and refuses the blob if one record differs.
 * Init from the init table only compares checksums the host took, so this
 * is what proves the host's blob is what this target's prepare derives
 * (short enums, 4-byte pointers, newlib's libm).  It runs after the model,
 * in the arena (free by then) or, when that is too small, in a block on the
 * stack (build.sh --rederive reserves 48 KB of stack unless --stack says
 * otherwise), and touches nothing else.  40 KB: with patch stages the arena
 * is smaller than the work block (person_detect: a 28.9 KB arena), which
 * then takes the stack block. */
#define REDERIVE_STACK 40960u
static ta_status rederive_in(void *work, size_t bytes) {
    ta_runtime_options o = ta_runtime_options_for_ops(MODEL_BUDGET_OPS);
    ta_runtime_use_budget(&o, &model_budget);
    ta_runtime_use_init(&o, NULL, 0);
    ta_arena_breakdown b;
    ta_status st = ta_runtime_open(&rt, model_data, MODEL_DATA_BYTES, &o, &d);
    return st ? st : ta_runtime_query(&rt, work, bytes, &b, &d);
}
static __attribute__((noinline)) ta_status rederive_on_stack(void) {
    uint8_t work[REDERIVE_STACK];
    return rederive_in(work, sizeof work);
}
static int rederive(void) {
    ta_status st = rederive_in(arena, sizeof arena);
    if (st == TA_E_NO_MEMORY && board_stack_bytes() >= REDERIVE_STACK + 4096u) st = rederive_on_stack();
    if (st == TA_E_NO_MEMORY) {
        board_put_kv("blob_rederived", 0); /* no room on this build: checked on the others */
        return 0;
    }
    if (st) return fail("blob re-derived on the target");
    board_put_kv("blob_rederived", 1);
    return 0;
}
#else
/* Built without the re-derivation (build.sh without --rederive): the
 * firmware a user gets, with no importer and no prepare linked. */
static int rederive(void) {
    board_put_kv("blob_rederived", 0);
    return 0;
}
#endif

int main(void) {
    board_puts("tinyarena: " MODEL_DATA_NAME " on " BOARD_CPU "\n");
    /* only the model's ops (the firmware links only their kernels), and the
     * plan, op constants and init table from flash, hash checked; no
     * work-block path: no importer, rewrites, lifetimes or prepare linked */
    ta_runtime_options opt = ta_runtime_options_for_budget(&model_budget, MODEL_BUDGET_OPS);
    /* MODEL_BUDGET_ARENA_BYTES is the least: 32 bytes less is refused with
     * one line, and nothing is written (the arena is still all zero) */
    if (ta_runtime_open(&rt, model_data, MODEL_DATA_BYTES, &opt, &d)) return fail("open");
    if (ta_runtime_init(&rt, NULL, 0, arena, sizeof arena - 32, &d) != TA_E_NO_MEMORY ||
        strncmp(d.msg, "arena needs ", 12) != 0) {
        board_puts("an arena 32 bytes short was not refused\n");
        return 1;
    }
    for (uint32_t i = 0; i < sizeof arena; i++)
        if (arena[i]) {
            board_puts("a refused init wrote into the arena\n");
            return 1;
        }
    const uint64_t t0 = board_ticks();
    if (ta_runtime_open(&rt, model_data, MODEL_DATA_BYTES, &opt, &d)) return fail("open");
    /* in place: from the init table and the const blob nothing is built, so
     * no work block is needed (an older header's init works in the head) */
    if (ta_runtime_init(&rt, NULL, 0, arena, sizeof arena, &d)) return fail("init");
    const uint64_t t1 = board_ticks();
    if (fw_load_inputs(&rt)) return 1;
    const uint64_t t2 = board_ticks();
    if (ta_runtime_invoke(&rt, &d)) return fail("invoke");
    const uint64_t t3 = board_ticks();
    board_put_kv("arena_bytes", (uint32_t)sizeof arena);
    board_put_kv("planned_bytes", MODEL_BUDGET_BYTES);
    board_put_kv("persistent_bytes", (uint32_t)ta_runtime_breakdown(&rt)->persistent);
    board_put_kv("work_bytes", (uint32_t)ta_runtime_breakdown(&rt)->work_bytes);
    board_put_kv("const_blob_bytes", MODEL_BUDGET_CONST_BYTES);
    board_put_kv("model_bytes", MODEL_DATA_BYTES);
    board_put_kv("init_ticks", (uint32_t)(t1 - t0));
    board_put_kv("invoke_ticks", (uint32_t)(t3 - t2));
    board_put_kv("tick_hz", BOARD_SYSCLK_HZ);
    board_put_kv("stack_bytes", board_stack_bytes());
    board_put_kv("stack_used_bytes", board_stack_used());
    fw_put_outputs(&rt);
    if (rederive()) return 1;
    board_puts("done\n");
    return 0;
}
