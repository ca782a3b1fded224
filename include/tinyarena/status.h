/*
 * tinyarena/status.h -- status codes and diagnostics shared by every module.
 *
 * Every fallible tinyarena call returns a ta_status.  TA_OK is zero, so
 * `if (st != TA_OK)` and `if (st)` both work.  ta_status_str() turns a code
 * into a short, stable, lower-case English phrase (never NULL).
 *
 * Calls that can say more than a code (file readers, the planners' input
 * checks) also take an optional `ta_diag *`.  When it is non-NULL and the call
 * fails, diag->msg holds one line (no trailing newline) naming the problem,
 * e.g. "buffer 7: alignment 12 is not a power of two".  The library formats it
 * with its own tiny formatter (no printf, no malloc), so it is safe on bare
 * metal.
 *
 * Example:
 *     ta_diag d;
 *     ta_status st = ta_plan_run(...,&d);
 *     if (st) fprintf(stderr, "error: %s: %s\n", ta_status_str(st), d.msg);
 */
#ifndef TINYARENA_STATUS_H
#define TINYARENA_STATUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ta_status {
    TA_OK = 0,
    TA_E_INVALID_ARG,      /* a NULL pointer or an argument out of its range */
    TA_E_NO_MEMORY,        /* caller-provided memory (scratch, arena) too small */
    TA_E_BAD_REQUEST,      /* a buffer request is impossible (first > last, bad alignment, ...) */
    TA_E_FIXED_CONFLICT,   /* two fixed-offset buffers overlap in time and in bytes */
    TA_E_OVERLAP,          /* plan check: two buffers overlap in time and in bytes */
    TA_E_MISALIGNED,       /* plan check: an offset breaks its buffer's alignment */
    TA_E_FIXED_MOVED,      /* plan check: a fixed-offset buffer is not at its offset */
    TA_E_OUT_OF_ARENA,     /* plan check: a buffer ends past the arena */
    TA_E_UNKNOWN_STRATEGY, /* no planner strategy has that name */
    TA_E_OVERFLOW,         /* a size or offset does not fit in size_t */
    TA_E_MALFORMED,        /* a model file breaks its format */
    TA_E_UNSUPPORTED,      /* valid input that this build cannot handle */
    TA_E_TIMEOUT,          /* a time or work limit was reached */
    TA_E_NOT_FOUND,        /* a named item does not exist */
    TA_E_STATE,            /* call made in the wrong order (e.g. invoke before prepare) */
    TA_E_IO,               /* reading or writing a file failed (CLI side only) */
    TA_E_OUT_OF_RANGE,     /* a value computed at run time (an index) is outside its range */
    TA_STATUS_COUNT
} ta_status;

/* Text for a status code; unknown codes give "unknown status". Never NULL. */
const char *ta_status_str(ta_status st);

/* One-line diagnostic filled by calls that can explain a failure.  Always
 * one line: names taken from data (a model's tensor and op names) have
 * their control characters replaced by '?'. */
#define TA_DIAG_LEN 240
typedef struct ta_diag {
    char msg[TA_DIAG_LEN];
    /* Indices of the items the message is about (buffers, tensors, ops), so a
     * caller can name them in its own terms; SIZE_MAX when unused.  Reset by
     * every ta_diag_set(). */
    size_t item[2];
} ta_diag;

/*
 * Formats into d->msg (truncating safely) and returns `st`, so a library
 * function can write `return ta_diag_set(d, TA_E_BAD_REQUEST, "...", ...)`.
 * d may be NULL (then only `st` is returned).  Supported conversions:
 * %s %c %d %u %ld %lu %lld %llu %zu %x %% (no widths).  Exposed so that every
 * module formats diagnostics the same way.
 */
ta_status ta_diag_set(ta_diag *d, ta_status st, const char *fmt, ...);

#ifdef __cplusplus
}
#endif
#endif
