/* Minimal Cortex-M startup: vector table, reset handler, fault reporting,
 * a SysTick overflow count for timing, and Arm semihosting for stdout and
 * the exit code (what a debugger probe carries on a real board; QEMU's
 * -semihosting here).  newlib-nano gives memcpy, memset and libm.
 *
 * Why not newlib's librdimon (--specs=rdimon.specs): its syscalls object
 * calls __sinit, which links stdio and malloc into every program that
 * prints, even through _write alone.  The four semihosting calls below link
 * nothing, so the build can check that no allocator is linked. */
#include <stdint.h>

#include "board.h"

extern int main(void);

extern uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
extern uint32_t __stack_bottom[], __stack_top[];

#define REG(a) (*(volatile uint32_t *)(a))
#define SCB_CPACR REG(0xE000ED88u)
#define SCB_CCR REG(0xE000ED14u)
#define SCB_SHCSR REG(0xE000ED24u)
#define SCB_CFSR REG(0xE000ED28u)
#define SCB_HFSR REG(0xE000ED2Cu)
#define SCB_MMFAR REG(0xE000ED34u)
#define SCB_BFAR REG(0xE000ED38u)
#define SYST_CSR REG(0xE000E010u)
#define SYST_RVR REG(0xE000E014u)
#define SYST_CVR REG(0xE000E018u)

#define STACK_PAINT 0x5aa5a55au

static volatile uint32_t systick_wraps;

/* One semihosting call: operation in r0, argument (block) in r1, BKPT 0xAB. */
static uint32_t semihost(uint32_t op, const void *arg) {
    register uint32_t r0 __asm("r0") = op;
    register const void *r1 __asm("r1") = arg;
    __asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

#define SYS_WRITE0 0x04u        /* a NUL-terminated string to the console */
#define SYS_EXIT_EXTENDED 0x20u /* {reason, exit code} */
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

void board_puts(const char *s) { semihost(SYS_WRITE0, s); }

void board_put_u32(uint32_t v) {
    char b[11], *p = b + sizeof b - 1;
    *p = '\0';
    do *--p = (char)('0' + v % 10); while (v /= 10);
    board_puts(p);
}

void board_put_kv(const char *key, uint32_t v) {
    board_puts(key);
    board_puts(" ");
    board_put_u32(v);
    board_puts("\n");
}

int board_fail(const char *what, const char *msg) {
    board_puts(what);
    board_puts(": ");
    board_puts(msg);
    board_puts("\n");
    return 1;
}

void board_put_hex(const void *bytes, uint32_t n) {
    static const char hex[] = "0123456789abcdef";
    const uint8_t *b = (const uint8_t *)bytes;
    char line[65];
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        line[k++] = hex[b[i] >> 4];
        line[k++] = hex[b[i] & 15];
        if (k == 64 || i + 1 == n) line[k] = '\0', board_puts(line), k = 0;
    }
}

__attribute__((noreturn)) void board_exit(int status) {
    const uint32_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status};
    semihost(SYS_EXIT_EXTENDED, block);
    for (;;) {}
}

/* SysTick on the processor clock, reload 2^24 - 1, counting wraps. */
static void systick_start(void) {
    SYST_RVR = 0xffffffu;
    SYST_CVR = 0;
    SYST_CSR = 7u; /* CLKSOURCE = processor clock, TICKINT, ENABLE */
}

uint64_t board_ticks(void) {
    uint32_t w, v;
    do {
        w = systick_wraps;
        v = SYST_CVR;
    } while (w != systick_wraps);
    return ((uint64_t)w << 24) + (0xffffffu - v);
}

uint32_t board_stack_used(void) {
    const uint32_t *p = __stack_bottom;
    while (p < __stack_top && *p == STACK_PAINT) p++;
    return (uint32_t)((uintptr_t)__stack_top - (uintptr_t)p);
}

uint32_t board_stack_bytes(void) { return (uint32_t)((uintptr_t)__stack_top - (uintptr_t)__stack_bottom); }

/* No heap: anything that reaches malloc gets NULL.  (The build checks that
 * no malloc is linked at all; this is the belt to those braces.) */
void *_sbrk(int incr) {
    (void)incr;
    return (void *)-1;
}

__attribute__((noreturn)) void Reset_Handler(void) {
#if defined(__ARM_FP)
    SCB_CPACR |= 0xfu << 20; /* CP10, CP11: full access to the FPU */
    __asm volatile("dsb\n\tisb");
#endif
#ifdef BOARD_UNALIGN_TRAP
    /* Trap every unaligned access, as an armv6-m core (Cortex-M0/M0+) faults
     * on each: the M0 build runs on the emulated M3 with this set, so an
     * unaligned load or store anywhere -- the runtime, newlib -- stops it. */
    SCB_CCR |= 1u << 3;
#endif
    SCB_CCR |= 1u << 4;                          /* DIV_0_TRP: integer division by zero faults */
    SCB_SHCSR |= (1u << 16) | (1u << 17) | (1u << 18); /* MemManage, BusFault, UsageFault enabled */
    for (uint32_t *s = __data_load, *d = __data_start; d < __data_end;) *d++ = *s++;
    for (uint32_t *d = __bss_start; d < __bss_end;) *d++ = 0;
    /* Paint the stack below the current frame, to measure its high-water mark. */
    uint32_t *sp;
    __asm volatile("mov %0, sp" : "=r"(sp));
    for (uint32_t *p = __stack_bottom; p < sp - 16; p++) *p = STACK_PAINT;
    systick_start();
    board_exit(main());
    for (;;) {}
}

void SysTick_Handler(void) { systick_wraps++; }

/* Any fault: name it, with the faulting PC from the stacked frame, and exit 3. */
__attribute__((used)) void fault_report(const uint32_t *frame, uint32_t exc) {
    static const char *const names[] = {"?", "?", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault"};
    static const char hex[] = "0123456789abcdef";
    char w[11] = "0x";
    uint32_t regs[] = {frame[6], SCB_CFSR, SCB_HFSR, SCB_BFAR, SCB_MMFAR};
    static const char *const lab[] = {" pc=", " cfsr=", " hfsr=", " bfar=", " mmfar="};
    board_puts("FAULT: ");
    board_puts(exc < 7 ? names[exc] : "?");
    for (unsigned r = 0; r < 5; r++) {
        for (int i = 0; i < 8; i++) w[2 + i] = hex[(regs[r] >> (28 - 4 * i)) & 15];
        w[10] = '\0';
        board_puts(lab[r]);
        board_puts(w);
    }
    board_puts("\n");
    board_exit(3);
}

/* Thumb-1 only, so that the armv6-m (Cortex-M0) build assembles it too. */
__attribute__((naked)) void Fault_Handler(void) {
    __asm volatile(
        "movs r0, #4\n\t"
        "mov r1, lr\n\t"
        "tst r0, r1\n\t"
        "beq 1f\n\t"
        "mrs r0, psp\n\t"
        "b 2f\n"
        "1:\n\t"
        "mrs r0, msp\n"
        "2:\n\t"
        "mrs r1, ipsr\n\t"
        "ldr r2, =fault_report\n\t"
        "bx r2\n\t");
}

typedef void (*vector_fn)(void);

__attribute__((section(".vectors"), used)) static const vector_fn vectors[16] = {
    (vector_fn)(uintptr_t)__stack_top,
    Reset_Handler,
    Fault_Handler, /* NMI */
    Fault_Handler, /* HardFault */
    Fault_Handler, /* MemManage */
    Fault_Handler, /* BusFault */
    Fault_Handler, /* UsageFault */
    0, 0, 0, 0,
    Fault_Handler, /* SVCall */
    Fault_Handler, /* DebugMonitor */
    0,
    Fault_Handler, /* PendSV */
    SysTick_Handler,
};
