/* The few board services the firmware uses (startup.c). */
#ifndef CORTEX_M_BOARD_H
#define CORTEX_M_BOARD_H

#include <stdint.h>

/* The MPS2 FPGA images clock the CPU and SysTick at 25 MHz. */
#define BOARD_SYSCLK_HZ 25000000u

void board_puts(const char *s);                   /* semihosting stdout */
void board_put_u32(uint32_t v);                   /* decimal */
void board_put_hex(const void *bytes, uint32_t n); /* two lower-case hex digits a byte */
void board_put_kv(const char *key, uint32_t v);   /* "key v\n": the lines the test scripts read */
int board_fail(const char *what, const char *msg); /* "what: msg\n"; returns 1 (main's status) */
__attribute__((noreturn)) void board_exit(int status);/* semihosting exit: ends QEMU */
uint64_t board_ticks(void);                       /* SysTick ticks since reset */
uint32_t board_stack_used(void);                  /* high-water mark of the stack, bytes */
uint32_t board_stack_bytes(void);                 /* the stack reserved (STACK_BYTES) */

#endif
