/* Status text and the library's own tiny formatter for diagnostics. */
#include <stdarg.h>
#include <string.h>

#include "common/util.h"
#include "tinyarena/status.h"

static const char *const k_status_text[TA_STATUS_COUNT] = {
    [TA_OK] = "ok",
    [TA_E_INVALID_ARG] = "invalid argument",
    [TA_E_NO_MEMORY] = "not enough memory provided",
    [TA_E_BAD_REQUEST] = "impossible buffer request",
    [TA_E_FIXED_CONFLICT] = "conflicting fixed offsets",
    [TA_E_OVERLAP] = "buffers overlap",
    [TA_E_MISALIGNED] = "misaligned offset",
    [TA_E_FIXED_MOVED] = "fixed offset not kept",
    [TA_E_OUT_OF_ARENA] = "buffer outside the arena",
    [TA_E_UNKNOWN_STRATEGY] = "unknown strategy",
    [TA_E_OVERFLOW] = "size overflow",
    [TA_E_MALFORMED] = "malformed model",
    [TA_E_UNSUPPORTED] = "unsupported",
    [TA_E_TIMEOUT] = "time limit reached",
    [TA_E_NOT_FOUND] = "not found",
    [TA_E_STATE] = "call out of order",
    [TA_E_IO] = "i/o error",
    [TA_E_OUT_OF_RANGE] = "value out of range",
};

const char *ta_status_str(ta_status st) {
    if ((unsigned)st >= (unsigned)TA_STATUS_COUNT || !k_status_text[st]) return "unknown status"; /* short enums: unsigned */
    return k_status_text[st];
}

/* Appends to a fixed buffer, always leaving it NUL-terminated. */
typedef struct {
    char *buf;
    size_t cap, len;
} diag_out;

static void put_c(diag_out *o, char c) {
    if (o->len + 1 < o->cap) o->buf[o->len++] = c;
    o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
}

/* Strings substituted with %s come from data (tensor and op names of a
 * model, file names): control characters become '?', so a diag stays one
 * line whatever a hostile file names its ops. */
static void put_s(diag_out *o, const char *s) {
    if (!s) s = "(null)";
    for (; *s; s++) put_c(o, (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

static void put_u(diag_out *o, unsigned long long v, unsigned base) {
    char tmp[24];
    int n = 0;
    do {
        unsigned d = (unsigned)(v % base);
        tmp[n++] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        v /= base;
    } while (v && n < (int)sizeof tmp);
    while (n) put_c(o, tmp[--n]);
}

static void put_i(diag_out *o, long long v) {
    if (v < 0) {
        put_c(o, '-');
        put_u(o, (unsigned long long)(-(v + 1)) + 1u, 10);
    } else {
        put_u(o, (unsigned long long)v, 10);
    }
}

ta_status ta_diag_set(ta_diag *d, ta_status st, const char *fmt, ...) {
    if (!d || !fmt) return st;
    diag_out o = {d->msg, sizeof d->msg, 0};
    d->item[0] = d->item[1] = SIZE_MAX;
    d->msg[0] = '\0';
    va_list ap;
    va_start(ap, fmt);
    for (const char *p = fmt; *p; p++) {
        if (*p != '%') { put_c(&o, *p); continue; }
        p++;
        int lng = 0, sz = 0;
        while (*p == 'l') { lng++; p++; }
        if (*p == 'z') { sz = 1; p++; }
        switch (*p) {
        case 's': put_s(&o, va_arg(ap, const char *)); break;
        case 'c': put_c(&o, (char)va_arg(ap, int)); break;
        case 'd':
            if (lng >= 2) put_i(&o, va_arg(ap, long long));
            else if (lng == 1) put_i(&o, va_arg(ap, long));
            else put_i(&o, va_arg(ap, int));
            break;
        case 'u':
        case 'x': {
            unsigned base = *p == 'x' ? 16 : 10;
            if (sz) put_u(&o, va_arg(ap, size_t), base);
            else if (lng >= 2) put_u(&o, va_arg(ap, unsigned long long), base);
            else if (lng == 1) put_u(&o, va_arg(ap, unsigned long), base);
            else put_u(&o, va_arg(ap, unsigned), base);
            break;
        }
        case '%': put_c(&o, '%'); break;
        case '\0': p--; break;
        default: put_c(&o, '%'); put_c(&o, *p); break;
        }
    }
    va_end(ap);
    return st;
}

void ta__memset(void *dst, int v, size_t n) { memset(dst, v, n); }
