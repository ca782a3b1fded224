/* tests/kernels_mcu.sh: what test_kernels_fast.c needs from the host, on the
 * bare-metal Cortex-M board -- printf and fprintf through semihosting (newlib
 * -nano's vsnprintf into a buffer, no heap, no FILE I/O) and the counters of
 * tests/testutil.c.  startup.c gives the vectors, the reset handler that
 * calls main, and board_puts. */
#include <stdarg.h>
#include <stdio.h>

#include "board.h"
#include "testutil.h"

int ta_test_failures = 0;
int ta_test_checks = 0;

static int put(const char *fmt, va_list ap) {
    char buf[256];
    const int n = vsnprintf(buf, sizeof buf, fmt, ap);
    board_puts(buf);
    return n;
}

int printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    const int n = put(fmt, ap);
    va_end(ap);
    return n;
}

int fprintf(FILE *f, const char *fmt, ...) {
    (void)f;
    va_list ap;
    va_start(ap, fmt);
    const int n = put(fmt, ap);
    va_end(ap);
    return n;
}

int ta_test_finish(const char *name) {
    printf("%s: %d checks, %d failures\n", name, ta_test_checks, ta_test_failures);
    return ta_test_failures ? 1 : 0;
}
